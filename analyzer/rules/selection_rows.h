// What a rule's selections returned: for each selection name, its rows. A log
// selection gives one row per matching line (fields = named captures); an SQL
// selection one row per result row (fields = the columns other than the
// provenance columns artifact_id, line, time_ns and text).
#ifndef GPUF_ANALYZER_RULES_SELECTION_ROWS_H_
#define GPUF_ANALYZER_RULES_SELECTION_ROWS_H_

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "formats/message_catalogue.h"

namespace gpuf {

struct SelectionRow {
  std::optional<int64_t> artifact_id;  // provenance; absent for derived rows
  std::optional<int64_t> line;
  std::optional<int64_t> time_ns;      // Unix ns UTC
  // How exact time_ns is, when the row says (an SQL selection's
  // precision_ns column, as the events table has it); see TimePrecisionNs.
  std::optional<int64_t> precision_ns;
  std::string text;                    // the line as written, or the row's description
  std::vector<std::pair<std::string, std::optional<std::string>>> fields;
  // What the row is about, set by the engine from its fields
  // (subject_keys.h): the GPU's key and the container's ID; nullopt when the
  // row names none, so it goes with any.
  std::optional<std::string> gpu;
  std::optional<std::string> container;
  // Which boot it belongs to (analyzer/rules/boot_clock.h): 0 the boot at
  // capture, -1 the one before; kEarlierBoot for an earlier one not told
  // apart; nullopt when it cannot be placed, so it goes with any.
  std::optional<int64_t> boot;
  // Why the event no longer held at capture (analyzer/rules/recovery.h);
  // "" while it does.
  std::string undone{};

  // The field's value; nullopt when absent or NULL.
  std::optional<std::string> Field(const std::string& name) const {
    for (const auto& [key, value] : fields) {
      if (key == name) return value;
    }
    return std::nullopt;
  }
};

using SelectionRows = std::map<std::string, std::vector<SelectionRow>>;

// SelectionRow::boot of a row known to be of an earlier boot, not which.
inline constexpr int64_t kEarlierBoot = INT64_MIN;

// Rows of boots `a` and `b` may be of one boot.
inline bool MaySameBoot(int64_t a, int64_t b) {
  if (a == kEarlierBoot) return b < 0;
  if (b == kEarlierBoot) return a < 0;
  return a == b;
}

// `a` is on an earlier line than `b` of the same log: in one log a later
// line is later, whatever its stamp says or whether it has one.
inline bool IsEarlierLine(const SelectionRow& a, const SelectionRow& b) {
  return a.artifact_id && a.artifact_id == b.artifact_id && a.line && b.line && *a.line < *b.line;
}

inline constexpr int64_t kCoarsestPrecisionNs = 1'000'000'000;

// How exact a row's time is, in ns, from 1 to 1 s: its precision_ns, else
// the coarsest power of ten its stamp is a whole multiple of. Every format
// the rows come from writes its stamps truncated (a kubelet event to the
// second, the journal to the microsecond), so a stamp on a whole second is
// read as known to the second: never more exact than it can be.
inline int64_t TimePrecisionNs(const SelectionRow& row) {
  if (row.precision_ns) return std::clamp<int64_t>(*row.precision_ns, 1, kCoarsestPrecisionNs);
  if (!row.time_ns) return kCoarsestPrecisionNs;
  int64_t precision = 1;
  while (precision < kCoarsestPrecisionNs && *row.time_ns % (precision * 10) == 0) precision *= 10;
  return precision;
}

// Whether the row's fields pass every filter of `where` (`code: '79'`,
// `reason: null`): a field a catalogue entry captures is known only once a
// line matched.
inline bool PassesWhere(const FieldFilters& where, const SelectionRow& row) {
  return std::all_of(where.begin(), where.end(),
                     [&](const FieldFilter& filter) { return filter.Holds(row.Field(filter.field)); });
}

// Leaves the rows that pass `where`.
inline void KeepWhere(const FieldFilters& where, std::vector<SelectionRow>& rows) {
  if (where.empty()) return;
  std::erase_if(rows, [&](const SelectionRow& row) { return !PassesWhere(where, row); });
}

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_SELECTION_ROWS_H_
