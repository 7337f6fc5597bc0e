#include "analyzer/rules/boot_clock.h"

#include <cstdlib>

namespace gpuf {

Result<BootClock> BootClock::Load(Database& db, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(
      "SELECT coalesce((SELECT min(time_ns) FROM events WHERE bundle_id = ?1 AND milestone = 'boot' "
      "AND boot_offset = 0), (SELECT min(realtime_us - monotonic_us) * 1000 FROM journal_boots "
      "WHERE bundle_id = ?1 AND boot_offset = 0))"));
  s.Bind(1, bundle_id);
  std::optional<int64_t> start;
  if (s.Step() && !s.ColumnIsNull(0)) start = s.ColumnInt(0);
  GPUF_RETURN_IF_ERROR(s.status());
  return BootClock(start);
}

RowBoot BootClock::Of(const SelectionRow& row, const ArtifactIndex& artifacts) const {
  if (row.artifact_id) {
    if (const BundleArtifact* a = artifacts.Find(*row.artifact_id); a && a->instance.rfind("boot:", 0) == 0) {
      return std::strtoll(a->instance.c_str() + 5, nullptr, 10) < 0 ? RowBoot::kEarlier : RowBoot::kCurrent;
    }
  }
  if (!row.time_ns || !current_start_ns_) return RowBoot::kUnplaced;
  return *row.time_ns < *current_start_ns_ ? RowBoot::kEarlier : RowBoot::kCurrent;
}

void BootClock::Tag(std::vector<SelectionRow>& rows, const ArtifactIndex& artifacts) const {
  for (auto& row : rows) {
    row.boot.reset();
    if (row.artifact_id) {
      if (const BundleArtifact* a = artifacts.Find(*row.artifact_id); a && a->instance.rfind("boot:", 0) == 0) {
        row.boot = std::strtoll(a->instance.c_str() + 5, nullptr, 10);
        continue;
      }
    }
    if (auto offset = row.Field("boot_offset")) {
      char* end = nullptr;
      long long value = std::strtoll(offset->c_str(), &end, 10);
      if (!offset->empty() && end && *end == '\0') {
        row.boot = value;
        continue;
      }
    }
    RowBoot boot = Of(row, artifacts);
    if (boot == RowBoot::kCurrent) row.boot = 0;
    if (boot == RowBoot::kEarlier) row.boot = kEarlierBoot;
  }
}

}  // namespace gpuf
