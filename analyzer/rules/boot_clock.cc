#include "analyzer/rules/boot_clock.h"

#include <cstdlib>

#include "common/parse_int.h"

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

namespace {

// The boot of the journal slice the row was read from ("boot:-1"); nullopt
// for a row of another artifact or none.
std::optional<int64_t> SliceBoot(const SelectionRow& row, const ArtifactIndex& artifacts) {
  if (!row.artifact_id) return std::nullopt;
  const BundleArtifact* a = artifacts.Find(*row.artifact_id);
  if (!a || a->instance.rfind("boot:", 0) != 0) return std::nullopt;
  return std::strtoll(a->instance.c_str() + 5, nullptr, 10);
}

}  // namespace

RowBoot BootClock::Of(const SelectionRow& row, const ArtifactIndex& artifacts) const {
  if (auto slice = SliceBoot(row, artifacts)) return *slice < 0 ? RowBoot::kEarlier : RowBoot::kCurrent;
  if (!row.time_ns || !current_start_ns_) return RowBoot::kUnplaced;
  return *row.time_ns < *current_start_ns_ ? RowBoot::kEarlier : RowBoot::kCurrent;
}

void BootClock::Tag(std::vector<SelectionRow>& rows, const ArtifactIndex& artifacts) const {
  for (auto& row : rows) {
    row.boot = SliceBoot(row, artifacts);
    if (row.boot) continue;
    if (auto offset = row.Field("boot_offset")) row.boot = ParseInt64(*offset);
    if (row.boot) continue;
    RowBoot boot = Of(row, artifacts);
    if (boot == RowBoot::kCurrent) row.boot = 0;
    if (boot == RowBoot::kEarlier) row.boot = kEarlierBoot;
  }
}

}  // namespace gpuf
