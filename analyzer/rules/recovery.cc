#include "analyzer/rules/recovery.h"

#include <algorithm>
#include <utility>

#include "common/artifacts.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

// A minor number is the current boot's: after a GPU is gone the others
// may take its number, so only a bus or a UUID ties an event to a GPU.
bool NamedByBusOrUuid(const SelectionRow& row) {
  for (const char* field : {"bus", "pci", "uuid", "device", "gpu"}) {
    auto value = row.Field(field);
    if (value && !value->empty()) return true;
  }
  return false;
}

bool KindApplies(const EventKindRow& kind, const SelectionRow& row) {
  if (kind.undone_only_if_field.empty()) return true;
  auto value = row.Field(std::string(kind.undone_only_if_field));
  return value && *value == kind.undone_only_if_value;
}

// How `later` lies after `row`: "at <time>" when both have a time and its
// is later (strictly: one with the same stamp may belong to the start
// before it), "line N of the same log" when it is later in one log; "" when
// neither.
std::string HowLater(const SelectionRow& later, const SelectionRow& row) {
  if (row.time_ns && later.time_ns && *later.time_ns > *row.time_ns) return "at " + FormatRfc3339Utc(*later.time_ns);
  if (IsEarlierLine(row, later)) return "line " + std::to_string(*later.line) + " of the same log";
  return "";
}

}  // namespace

Result<PluginRecord> LoadPluginRecord(Database& db, int64_t bundle_id, const ArtifactIndex& artifacts,
                                      const std::vector<SelectionRow>& catalogue_rows) {
  PluginRecord record;
  GPUF_ASSIGN_OR_RETURN(
      Statement events,
      db.Prepare("SELECT time_ns, artifact_id, line FROM events WHERE bundle_id = ? AND artifact_id IS NOT NULL "
                 "AND (milestone = 'plugin_registered' OR (milestone = 'kubelet_registration_received' "
                 "AND message LIKE '%nvidia.com/%'))"));
  events.Bind(1, bundle_id);
  while (events.Step()) {
    SelectionRow r;
    if (!events.ColumnIsNull(0)) r.time_ns = events.ColumnInt(0);
    r.artifact_id = events.ColumnInt(1);
    if (!events.ColumnIsNull(2)) r.line = events.ColumnInt(2);
    record.registrations.push_back(std::move(r));
  }
  GPUF_RETURN_IF_ERROR(events.status());
  for (const auto& row : catalogue_rows) {
    if (row.artifact_id && row.Field("resource").value_or("").rfind("nvidia.com/", 0) == 0) {
      record.registrations.push_back(row);
    }
  }
  for (const auto& a : artifacts.artifacts()) {
    if (InArtifactGroup(kPluginLogsGroup, a.name)) record.plugin_logs.insert(a.artifact_id);
  }
  return record;
}

UnitStarts UnitStartsOf(const std::vector<SelectionRow>& started) {
  UnitStarts starts;
  for (const auto& row : started) {
    std::optional<std::string> unit = row.Field("unit");
    if (unit) starts[*unit].push_back(row);
  }
  return starts;
}

Recoveries::Recoveries(const std::vector<GpuPresence>& presence, PluginRecord plugin, UnitStarts unit_starts)
    : plugin_(std::move(plugin)), unit_starts_(std::move(unit_starts)) {
  for (const auto& gpu : presence) {
    if (gpu.listed == true)
      listed_[gpu.gpu] = gpu.bus.empty() ? gpu.uuid : gpu.bus + (gpu.uuid.empty() ? "" : " " + gpu.uuid);
  }
}

void Recoveries::MarkUndone(const Selection& selection, std::vector<SelectionRow>& rows) const {
  if (selection.message.empty()) return;
  const EventKindRow* kind = FindEventKind(selection.message);
  if (!kind) return;
  if (kind->undone_by == UndoneBy::kGpuListed) MarkListed(*kind, rows);
  if (kind->undone_by == UndoneBy::kLaterRegistration) MarkRegisteredAfter(rows);
  if (kind->undone_by == UndoneBy::kUnitStartedAgain) MarkStartedAgain(*kind, rows);
}

void Recoveries::MarkStartedAgain(const EventKindRow& kind, std::vector<SelectionRow>& rows) const {
  for (auto& row : rows) {
    auto unit = row.Field("unit");
    if (!unit && !kind.unit.empty()) unit = std::string(kind.unit);
    auto starts = unit ? unit_starts_.find(*unit) : unit_starts_.end();
    if (starts == unit_starts_.end()) continue;
    for (const auto& start : starts->second) {
      std::string how = HowLater(start, row);
      if (how.empty()) continue;
      row.undone = "systemd started " + *unit + " again, " + how;
      break;
    }
  }
}

void Recoveries::MarkListed(const EventKindRow& kind, std::vector<SelectionRow>& rows) const {
  for (auto& row : rows) {
    if (!row.gpu || !NamedByBusOrUuid(row) || !KindApplies(kind, row)) continue;
    auto listed = listed_.find(*row.gpu);
    if (listed == listed_.end()) continue;
    row.undone = "the host's NVML lists the GPU at capture (" + listed->second + ")";
  }
}

void Recoveries::MarkRegisteredAfter(std::vector<SelectionRow>& rows) const {
  for (auto& row : rows) {
    if (!row.artifact_id || !plugin_.plugin_logs.count(*row.artifact_id)) continue;
    for (const auto& r : plugin_.registrations) {
      std::string how = HowLater(r, row);
      if (how.empty()) continue;
      row.undone = "the device plugin registered after it, " + how;
      break;
    }
  }
}

void InheritUndone(const SelectionRows& above, std::vector<SelectionRow>& rows) {
  std::map<std::pair<int64_t, int64_t>, const std::string*> undone;
  for (const auto& [name, list] : above) {
    for (const auto& row : list) {
      if (!row.undone.empty() && row.artifact_id && row.line) undone[{*row.artifact_id, *row.line}] = &row.undone;
    }
  }
  if (undone.empty()) return;
  for (auto& row : rows) {
    if (!row.undone.empty() || !row.artifact_id || !row.line) continue;
    auto it = undone.find({*row.artifact_id, *row.line});
    if (it != undone.end()) row.undone = *it->second;
  }
}

}  // namespace gpuf
