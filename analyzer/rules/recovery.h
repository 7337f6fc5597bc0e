// What the node showed that undoes an event. An event kind declares its
// undo (common/event_kinds.h): a GPU that fell off the bus or failed to
// initialise is back when the host's NVML lists it at capture; a plugin
// start that failed NVML init or found no devices is past once the plugin
// registered after it; a failed unit is past once systemd started it again.
// An undone event is history whatever boot it came from, and the report
// says what undid it; no rule writes that reasoning in its own SQL.
#ifndef GPUF_ANALYZER_RULES_RECOVERY_H_
#define GPUF_ANALYZER_RULES_RECOVERY_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/rules/artifact_index.h"
#include "analyzer/rules/gpu_presence.h"
#include "analyzer/rules/rule.h"
#include "analyzer/rules/selection_rows.h"
#include "common/event_kinds.h"
#include "common/status.h"

namespace gpuf {

// What a plugin start's failure can be undone by: the registrations of an
// NVIDIA resource (the timeline's, the plugin's own line or the kubelet's
// for an nvidia.com/ resource, and the catalogue's `plugin_registered` rows
// found in any input), and which artifacts are the plugin's own logs - only
// a failure the plugin logged is its start's to undo, not a workload's or
// the host's nvidia-smi.
struct PluginRecord {
  std::vector<SelectionRow> registrations;  // where each shows: its artifact, line and time
  std::set<int64_t> plugin_logs;
};
Result<PluginRecord> LoadPluginRecord(Database& db, int64_t bundle_id, const ArtifactIndex& artifacts,
                                      const std::vector<SelectionRow>& catalogue_rows);

// Where systemd started each unit (the journal's unit_started rows, by
// unit name): what undoes a unit's failure.
using UnitStarts = std::map<std::string, std::vector<SelectionRow>>;
UnitStarts UnitStartsOf(const std::vector<SelectionRow>& started);

class Recoveries {
 public:
  Recoveries() = default;
  Recoveries(const std::vector<GpuPresence>& presence, PluginRecord plugin, UnitStarts unit_starts = {});

  // Marks the rows of a `message:` selection whose event was undone
  // (SelectionRow::undone); rows of other selections are left as they are.
  void MarkUndone(const Selection& selection, std::vector<SelectionRow>& rows) const;

 private:
  void MarkListed(const EventKindRow& kind, std::vector<SelectionRow>& rows) const;
  void MarkRegisteredAfter(std::vector<SelectionRow>& rows) const;
  void MarkStartedAgain(const EventKindRow& kind, std::vector<SelectionRow>& rows) const;

  std::map<std::string, std::string> listed_;  // GPU key -> how the host's NVML lists it
  PluginRecord plugin_;
  UnitStarts unit_starts_;
};

// A row an SQL selection took from an undone event's line (same artifact
// and line as a row of a selection above it) is undone too: a rule that
// narrows the plugin's failures with SQL keeps what undid them.
void InheritUndone(const SelectionRows& above, std::vector<SelectionRow>& rows);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RECOVERY_H_
