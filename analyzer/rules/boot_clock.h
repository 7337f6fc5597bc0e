// Which boot a row of evidence belongs to, so that a finding about the
// fault at capture rests on evidence of the boot at capture. A row of a
// journal slice carries its boot in the slice's instance ("boot:-1"); a row
// with a time belongs to the current boot when it is not earlier than that
// boot's start (the timeline's boot milestone, else the journal's own
// clocks); a row with neither (a table read at capture, an untimed line)
// cannot be placed.
#ifndef GPUF_ANALYZER_RULES_BOOT_CLOCK_H_
#define GPUF_ANALYZER_RULES_BOOT_CLOCK_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/rules/artifact_index.h"
#include "analyzer/rules/selection_rows.h"
#include "common/status.h"

namespace gpuf {

enum class RowBoot { kCurrent, kEarlier, kUnplaced };

class BootClock {
 public:
  BootClock() = default;
  explicit BootClock(std::optional<int64_t> current_start_ns) : current_start_ns_(current_start_ns) {}

  // Fails when the database does; a bundle without boots gives a clock that
  // places rows by their journal slice only.
  static Result<BootClock> Load(Database& db, int64_t bundle_id);

  RowBoot Of(const SelectionRow& row, const ArtifactIndex& artifacts) const;

  // Sets each row's `boot`: its journal slice's boot, else its boot_offset
  // field (the events table's), else its time against the boot at capture.
  void Tag(std::vector<SelectionRow>& rows, const ArtifactIndex& artifacts) const;
  std::optional<int64_t> current_start_ns() const { return current_start_ns_; }

 private:
  std::optional<int64_t> current_start_ns_;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_BOOT_CLOCK_H_
