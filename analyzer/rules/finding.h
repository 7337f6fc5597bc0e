// What the rule engine hands to reports: one Finding per rule that failed or
// warned, and one RuleRun per rule considered (so that "no finding" can be
// told apart from "not evaluated"). The same facts are in the findings,
// finding_evidence, finding_missing and rule_runs tables.
#ifndef GPUF_ANALYZER_RULES_FINDING_H_
#define GPUF_ANALYZER_RULES_FINDING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/rules/rule.h"
#include "common/vocabulary.h"

namespace gpuf {

struct FindingEvidence {
  std::string selection;               // the rule's selection that returned the row
  std::optional<int64_t> artifact_id;  // provenance; absent for derived rows
  std::string artifact;                // "plugin.log[/var/log/pods/.../0.log]"; "" when absent
  std::optional<int64_t> line;         // 1-based line in the artifact
  std::optional<int64_t> time_ns;      // Unix ns UTC
  std::string text;                    // the line as written, or a description of the row
  std::string shows = "event";         // what its selection shows: event | precondition | context
};

// One check of evidence against a finding and what it found.
struct AgainstResult {
  std::string text;                      // what the evidence says against the issue
  std::string effect;                    // "rule-out" | "lower"
  std::string state;                     // "held" | "not_seen" | "unknown"
  std::string catalog{};                   // the catalog's AGAINST entry
  std::vector<std::string> needs{};        // unknown: the artifacts that would decide it
  std::vector<FindingEvidence> evidence{}; // held: the rows that show it
};

struct Finding {
  int64_t finding_id = 0;        // findings.finding_id once written; 0 for one ruled out
  std::string rule_id;
  std::string title;
  RuleOutcome result = RuleOutcome::kFail;  // fail or warn
  Severity severity = Severity::kInfo;
  Confidence confidence = Confidence::kPossible;  // after evidence against
  std::string summary;           // one line
  std::vector<FindingEvidence> evidence;
  std::vector<std::string> missing_evidence;  // what would confirm it but is absent
  std::vector<std::string> remediation;       // steps in safe order (recovery steps left out for history)
  std::vector<std::string> gpus;              // the GPUs its event rows name (PCI address or UUID), in order
  std::vector<RuleReference> references;
  // The diagnosis (docs/diagnosis.md).
  std::string symptom;            // diagnosis_vocab.h Symptoms()
  std::string role;               // cause | trigger | amplifier | consequence
  Tense tense = Tense::kCurrent;  // history: an earlier boot's, or undone before capture
  std::string tense_reason;       // why history or ruled out; "" for current
  Confidence confidence_before = Confidence::kPossible;  // as the outcome said after its caps, before evidence against
  std::vector<std::string> confidence_steps;             // how it came to be, in order (confidence_steps.h)
  std::string catalog;            // the catalog entry behind the outcome's confidence
  std::optional<bool> admissible; // its event evidence is of the boot at capture (timed in it, or read at
                                  // capture); false for history; nullopt when it cannot be placed
  int confirming_held = 0;        // the rule's confirming checks (`missing`) that held
  int confirming_total = 0;
  std::vector<AgainstResult> against;
};

struct RuleRun {
  std::string rule_id;
  RuleOutcome outcome = RuleOutcome::kPass;
  std::string reason{};   // the summary, the missing artifacts, the error
  int64_t elapsed_ns = 0;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_FINDING_H_
