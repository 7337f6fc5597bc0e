#include "importer/journal_writer.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "common/artifacts.h"
#include "common/journal_slices.h"
#include "common/json_bytes.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

std::string StandInBootId(const TimeHints& hints) {
  if (!hints.boot_id.empty()) return hints.boot_id;
  char id[40];
  std::snprintf(id, sizeof id, "%032llx", static_cast<unsigned long long>(hints.boot_start_ns));
  return id;
}

}  // namespace

std::string UnitOfSystemdLine(const std::string& message, const std::string& fallback) {
  for (std::string_view verb : {"Started ", "Starting ", "Stopped ", "Stopping ", "Failed to start "}) {
    if (message.rfind(verb, 0) != 0) continue;
    std::string_view what = std::string_view(message).substr(verb.size());
    what = TrimRight(what, ".");
    std::string unit = UnitForDescription(what);
    if (!unit.empty()) return unit;
    // systemd 252 and later: "Starting nvidia-fabricmanager.service - NVIDIA fabric manager service..."
    size_t dash = what.find(" - ");
    if (dash != std::string_view::npos) what = what.substr(0, dash);
    if (what.size() > 8 && what.substr(what.size() - 8) == ".service") return std::string(what);
    return fallback;
  }
  return "";
}

SliceWriter::SliceWriter(const TimeHints& hints) : hints_(hints), boot_id_(StandInBootId(hints)) {}

void SliceWriter::Add(const ShortLine& l, bool kernel, std::optional<int64_t> source_monotonic_us, int boots_back,
                      const std::string& earlier_id) {
  std::string slice;
  std::string unit;
  // A user's systemd manager logs as systemd too, with its own PID; its
  // "Reloading." is not the system's daemon-reload.
  const bool user_manager = l.identifier == "systemd" && l.pid && *l.pid != 1;
  if (kernel) {
    slice = artifact::kJournalKernel;
  } else if (user_manager) {
    return;
  } else if (l.pid == 1 || l.identifier == "systemd") {
    slice = artifact::kJournalSystemd;
    unit = UnitOfSystemdLine(l.message, hints_.unit);
  } else if (const JournalSliceRow* row = JournalSliceForIdentifier(l.identifier)) {
    slice = row->name;
    if (row->identifier == l.identifier) unit = row->unit;  // an alias's own unit is not known
  }
  if (slice.empty()) {
    ++out_.unread_identifiers[l.identifier.empty() ? "(no identifier)" : l.identifier];
    return;
  }
  nlohmann::json j;
  if (l.timed && (l.time_ns != 0 || !kernel)) j["__REALTIME_TIMESTAMP"] = std::to_string(l.time_ns / 1000);
  if (source_monotonic_us) {
    j["__MONOTONIC_TIMESTAMP"] = std::to_string(*source_monotonic_us);
    j["_SOURCE_MONOTONIC_TIMESTAMP"] = std::to_string(*source_monotonic_us);
  } else if (l.timed && boots_back == 0 && hints_.boot_start_ns > 0 && l.time_ns >= hints_.boot_start_ns) {
    j["__MONOTONIC_TIMESTAMP"] = std::to_string((l.time_ns - hints_.boot_start_ns) / 1000);
  }
  j["_BOOT_ID"] = boots_back == 0 ? boot_id_ : !earlier_id.empty() ? earlier_id : EarlierStandIn(boots_back);
  j["SYSLOG_IDENTIFIER"] = l.identifier;
  if (l.pid) j["_PID"] = std::to_string(*l.pid);
  j["_TRANSPORT"] = kernel ? "kernel" : "journal";
  if (!unit.empty()) j[l.pid == 1 ? "UNIT" : "_SYSTEMD_UNIT"] = unit;
  j["MESSAGE"] = l.message;
  std::string& out = boots_back == 0 ? out_.slices[slice] : out_.earlier[-boots_back][slice];
  out += DumpJson(j, -1, NonUtf8::kByteArray) + "\n";
}

std::string SliceWriter::EarlierStandIn(int boots_back) const {
  char id[40];
  std::snprintf(id, sizeof id, "%032llx",
                static_cast<unsigned long long>(hints_.boot_start_ns) ^ static_cast<unsigned long long>(boots_back));
  return id;
}

}  // namespace gpuf
