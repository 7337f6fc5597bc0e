#include "analyzer/rules/recovery.h"

#include "common/event_kinds.h"

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

Recoveries::Recoveries(const std::vector<GpuPresence>& presence) {
  for (const auto& gpu : presence) {
    if (gpu.listed == true)
      listed_[gpu.gpu] = gpu.bus.empty() ? gpu.uuid : gpu.bus + (gpu.uuid.empty() ? "" : " " + gpu.uuid);
  }
}

void Recoveries::MarkUndone(const Selection& selection, std::vector<SelectionRow>& rows) const {
  if (selection.message.empty()) return;
  const EventKindRow* kind = FindEventKind(selection.message);
  if (!kind || kind->undone_by != UndoneBy::kGpuListed) return;
  for (auto& row : rows) {
    if (!row.gpu || !NamedByBusOrUuid(row) || !KindApplies(*kind, row)) continue;
    auto listed = listed_.find(*row.gpu);
    if (listed == listed_.end()) continue;
    row.undone = "the host's NVML lists the GPU at capture (" + listed->second + ")";
  }
}

}  // namespace gpuf
