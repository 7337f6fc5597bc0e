#include "analyzer/render/render_timeline.h"

#include <nlohmann/json.hpp>

#include "analyzer/render/render_text.h"
#include "common/csv_field.h"
#include "common/json_bytes.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

// Timesketch's three fields first, then provenance.
nlohmann::ordered_json RowJson(const TimelineRow& r) {
  using nlohmann::json;
  nlohmann::ordered_json j;
  j["datetime"] = FormatRfc3339Utc(r.time_ns);
  j["timestamp_desc"] = r.timestamp_desc;
  j["message"] = r.message;
  j["timestamp"] = r.time_ns / 1000;  // µs, as Timesketch stores it
  j["source"] = r.source;
  j["milestone"] = r.milestone ? json(r.milestone_name()) : json(nullptr);
  j["boot_offset"] = r.boot_offset ? nlohmann::json(*r.boot_offset) : json(nullptr);
  j["time_source"] = r.time_source;
  j["artifact"] = r.artifact.empty() ? json(nullptr) : json(r.artifact);
  j["line"] = r.line ? nlohmann::json(*r.line) : json(nullptr);
  j["container_id"] = r.container_id.empty() ? json(nullptr) : json(r.container_id);
  return j;
}

}  // namespace

std::string TimelineTextLine(const TimelineRow& r, const DisplayZone& zone) {
  std::string since = r.since_boot_ns ? FormatOffset(*r.since_boot_ns) : "";
  std::string boot = r.boot_offset ? "boot " + std::to_string(*r.boot_offset) : "boot ?";
  std::string line = zone.Format(r.time_ns) + "  " + boot + "  " + since + "  " + r.source;
  if (r.milestone) line += "  [" + std::string(r.milestone_name()) + "]";
  return line + "  " + r.message + "\n";
}

std::string TimelineJsonLine(const TimelineRow& r) { return DumpJson(RowJson(r), -1, NonUtf8::kEscaped) + "\n"; }

const char kTimelineCsvHeader[] =
    "datetime,timestamp_desc,message,timestamp,source,milestone,boot_offset,time_source,artifact,line,container_id\n";

std::string TimelineCsvLine(const TimelineRow& r) {
  return CsvField(FormatRfc3339Utc(r.time_ns)) + "," + CsvField(r.timestamp_desc) + "," + CsvField(r.message) + "," +
         std::to_string(r.time_ns / 1000) + "," + CsvField(r.source) + "," + CsvField(std::string(r.milestone_name())) +
         "," + (r.boot_offset ? std::to_string(*r.boot_offset) : "") + "," + CsvField(r.time_source) + "," +
         CsvField(r.artifact) + "," + (r.line ? std::to_string(*r.line) : "") + "," + CsvField(r.container_id) + "\n";
}

}  // namespace gpuf
