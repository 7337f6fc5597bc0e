// What the node showed at capture that undoes an event. An event kind
// declares its undo (common/event_kinds.h): a GPU that fell off the bus or
// failed to initialise is back when the host's NVML lists it at capture.
// An undone event is history whatever boot it came from, and the report
// says what undid it; no rule writes that reasoning in its own SQL.
#ifndef GPUF_ANALYZER_RULES_RECOVERY_H_
#define GPUF_ANALYZER_RULES_RECOVERY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analyzer/rules/gpu_presence.h"
#include "analyzer/rules/rule.h"
#include "analyzer/rules/selection_rows.h"

namespace gpuf {

class Recoveries {
 public:
  Recoveries() = default;
  explicit Recoveries(const std::vector<GpuPresence>& presence);

  // Marks the rows of a `message:` selection whose event was undone
  // (SelectionRow::undone); rows of other selections are left as they are.
  void MarkUndone(const Selection& selection, std::vector<SelectionRow>& rows) const;

 private:
  std::map<std::string, std::string> listed_;  // GPU key -> how the host's NVML lists it
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RECOVERY_H_
