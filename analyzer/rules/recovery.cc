#include "analyzer/rules/recovery.h"

#include <algorithm>
#include <utility>

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

}  // namespace

Result<std::vector<PluginRegistration>> LoadPluginRegistrations(Database& db, int64_t bundle_id,
                                                                const std::vector<SelectionRow>& catalogue_rows) {
  GPUF_ASSIGN_OR_RETURN(
      Statement s, db.Prepare("SELECT time_ns, message FROM events WHERE bundle_id = ? AND time_ns IS NOT NULL "
                              "AND (milestone = 'plugin_registered' OR (milestone = 'kubelet_registration_received' "
                              "AND message LIKE '%nvidia.com/%')) ORDER BY time_ns"));
  s.Bind(1, bundle_id);
  std::vector<PluginRegistration> out;
  while (s.Step()) out.push_back({s.ColumnInt(0), s.ColumnText(1)});
  GPUF_RETURN_IF_ERROR(s.status());
  for (const auto& row : catalogue_rows) {
    if (row.time_ns && row.Field("resource").value_or("").rfind("nvidia.com/", 0) == 0) {
      out.push_back({*row.time_ns, row.text});
    }
  }
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.time_ns < b.time_ns; });
  return out;
}

Recoveries::Recoveries(const std::vector<GpuPresence>& presence, std::vector<PluginRegistration> registrations)
    : registrations_(std::move(registrations)) {
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
}

void Recoveries::MarkListed(const EventKindRow& kind, std::vector<SelectionRow>& rows) const {
  for (auto& row : rows) {
    if (!row.gpu || !NamedByBusOrUuid(row) || !KindApplies(kind, row)) continue;
    auto listed = listed_.find(*row.gpu);
    if (listed == listed_.end()) continue;
    row.undone = "the host's NVML lists the GPU at capture (" + listed->second + ")";
  }
}

// Strictly later: a registration stamped the same second as the failure
// may be the start before it.
void Recoveries::MarkRegisteredAfter(std::vector<SelectionRow>& rows) const {
  for (auto& row : rows) {
    if (!row.time_ns) continue;  // read at capture: nothing is after it
    auto later = std::upper_bound(registrations_.begin(), registrations_.end(), *row.time_ns,
                                  [](int64_t t, const PluginRegistration& r) { return t < r.time_ns; });
    if (later == registrations_.end()) continue;
    row.undone = "the device plugin registered after it, at " + FormatRfc3339Utc(later->time_ns);
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
