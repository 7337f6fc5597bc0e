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

namespace gpuf {

struct FindingEvidence {
  std::string selection;               // the rule's selection that returned the row
  std::optional<int64_t> artifact_id;  // provenance; absent for derived rows
  std::string artifact;                // "plugin.log[/var/log/pods/.../0.log]"; "" when absent
  std::optional<int64_t> line;         // 1-based line in the artifact
  std::optional<int64_t> time_ns;      // Unix ns UTC
  std::string text;                    // the line as written, or a description of the row
};

struct Finding {
  int64_t finding_id = 0;        // findings.finding_id once written
  std::string rule_id;
  std::string title;
  std::string result;            // "fail" | "warn"
  std::string severity;          // critical | high | medium | low | info
  std::string confidence;        // confirmed | likely | possible
  std::string summary;           // one line
  std::vector<FindingEvidence> evidence;
  std::vector<std::string> missing_evidence;  // what would confirm it but is absent
  std::vector<std::string> remediation;       // steps in safe order
  std::vector<RuleReference> references;
};

struct RuleRun {
  std::string rule_id;
  std::string outcome;   // fail | warn | pass | skipped | error
  std::string reason;    // the summary, the missing artifacts, the error
  int64_t elapsed_ns = 0;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_FINDING_H_
