#include "analyzer/render/render_timeline.h"

#include <optional>
#include <string_view>

#include "analyzer/render/render_text.h"
#include "common/csv_field.h"
#include "common/json_bytes.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

void AppendKey(std::string& out, std::string_view key) {
  out += ",\"";
  out += key;
  out += "\":";
}

void AppendField(std::string& out, std::string_view key, std::string_view text) {
  AppendKey(out, key);
  AppendJsonString(out, text);
}

void AppendField(std::string& out, std::string_view key, std::optional<int64_t> number) {
  AppendKey(out, key);
  out += number ? std::to_string(*number) : "null";
}

// "" is written null, as an absent name or ID.
void AppendNullable(std::string& out, std::string_view key, std::string_view text) {
  AppendKey(out, key);
  if (text.empty()) {
    out += "null";
  } else {
    AppendJsonString(out, text);
  }
}

}  // namespace

std::string TimelineTextLine(const TimelineRow& r, const DisplayZone& zone) {
  std::string since = r.since_boot_ns ? FormatOffset(*r.since_boot_ns) : "";
  std::string boot = r.boot_offset ? "boot " + std::to_string(*r.boot_offset) : "boot ?";
  std::string line = zone.Format(r.time_ns) + "  " + boot + "  " + since + "  " + r.source;
  if (r.milestone) line += "  [" + std::string(r.milestone_name()) + "]";
  return line + "  " + r.message + "\n";
}

// Timesketch's three fields first, then provenance. Written field by field:
// a timeline of every event is millions of lines.
std::string TimelineJsonLine(const TimelineRow& r) {
  std::string out = "{\"datetime\":";
  out.reserve(r.message.size() + 256);
  AppendJsonString(out, FormatRfc3339Utc(r.time_ns));
  AppendField(out, "timestamp_desc", r.timestamp_desc);
  AppendField(out, "message", r.message);
  AppendField(out, "timestamp", r.time_ns / 1000);  // µs, as Timesketch stores it
  AppendField(out, "source", r.source);
  AppendNullable(out, "milestone", r.milestone_name());
  AppendField(out, "boot_offset", r.boot_offset);
  AppendField(out, "time_source", r.time_source);
  AppendNullable(out, "artifact", r.artifact);
  AppendField(out, "line", r.line);
  AppendNullable(out, "container_id", r.container_id);
  out += "}\n";
  return out;
}

const char kTimelineCsvHeader[] =
    "datetime,timestamp_desc,message,timestamp,source,milestone,boot_offset,time_source,artifact,line,container_id\n";

std::string TimelineCsvLine(const TimelineRow& r) {
  return CsvField(FormatRfc3339Utc(r.time_ns)) + "," + CsvField(r.timestamp_desc) + "," + CsvField(r.message) + "," +
         std::to_string(r.time_ns / 1000) + "," + CsvField(r.source) + "," + CsvField(std::string(r.milestone_name())) +
         "," + (r.boot_offset ? std::to_string(*r.boot_offset) : "") + "," + CsvField(r.time_source) + "," +
         CsvField(r.artifact) + "," + (r.line ? std::to_string(*r.line) : "") + "," + CsvField(r.container_id) + "\n";
}

}  // namespace gpuf
