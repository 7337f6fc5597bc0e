// The differential diagnosis: after every rule has run, the findings are
// grouped by the symptom they explain and ranked, so that a report can lead
// with one root cause (docs/diagnosis.md).
//
// Ranking, best first: temporally admissible (event evidence of the boot at
// capture, timed in it or read at capture) before not placeable before
// history; then confidence
// after evidence against; then the share of the rule's confirming checks
// (`missing` entries) that held; then severity; then id. In each group the
// best cause is the root cause; causes ranked equal to it on the first
// three keys cannot be separated and are competing; other causes are
// alternatives; triggers, amplifiers and consequences hang under the root
// cause, listed in that order. A group without a cause is led by its best finding. Groups are
// ordered by their leader. History and ruled-out candidates follow apart.
#ifndef GPUF_ANALYZER_RULES_DIFFERENTIAL_H_
#define GPUF_ANALYZER_RULES_DIFFERENTIAL_H_

#include <string>
#include <vector>

#include "analyzer/rules/finding.h"

namespace gpuf {

struct DiagnosisEntry {
  std::string rule_id;
  std::string symptom;
  std::string role;
  // root_cause | lead (a group without a cause) | competing | alternative | trigger | amplifier |
  // consequence | history | ruled_out
  std::string place;
  int group = 0;      // 1 = the group the report leads with; 0 for history and ruled out
  int rank = 0;       // 1-based within its group, or among history, or among ruled out
  std::string under;  // the root cause (or lead) it hangs under; "" for leaders, history, ruled out
};

struct Diagnosis {
  std::vector<DiagnosisEntry> entries;  // groups in order, then history, then ruled out
  // When the root cause of the first group has competitors: the one capture
  // that would decide between them, e.g. "capture plugin.devices_list: its
  // devices.list still allows the GPUs rules out ctk-...". "" otherwise.
  std::string decider;

  // The entry leading the report (root_cause or lead of group 1); nullptr
  // when there is no current finding.
  const DiagnosisEntry* Leader() const;
  const DiagnosisEntry* Find(const std::string& rule_id) const;
};

// `findings` are the current and history findings, `ruled_out` those that
// evidence against excluded.
Diagnosis Diagnose(const std::vector<Finding>& findings, const std::vector<Finding>& ruled_out);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_DIFFERENTIAL_H_
