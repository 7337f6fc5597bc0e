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
  std::string text;                    // the line as written, or the row's description
  std::vector<std::pair<std::string, std::optional<std::string>>> fields;
  // What the row is about, set by the engine from its fields
  // (subject_keys.h): the GPU's key and the container's ID; nullopt when the
  // row names none, so it goes with any.
  std::optional<std::string> gpu;
  std::optional<std::string> container;
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

// Leaves the rows whose fields have every value of `where`
// (`message: xid{code: 79}`): a field a catalogue entry captures is known
// only once a line matched.
inline void KeepWhere(const FieldValues& where, std::vector<SelectionRow>& rows) {
  if (where.empty()) return;
  std::erase_if(rows, [&](const SelectionRow& row) {
    return !std::all_of(where.begin(), where.end(),
                        [&](const auto& pair) { return row.Field(pair.first) == pair.second; });
  });
}

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_SELECTION_ROWS_H_
