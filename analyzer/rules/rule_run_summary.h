// What running the rule pack on one bundle gave, as values: every rule's
// run, the findings and those ruled out, the diagnosis, the log scan's
// figures and what decided each rule (for analyze --explain).
#ifndef GPUF_ANALYZER_RULES_RULE_RUN_SUMMARY_H_
#define GPUF_ANALYZER_RULES_RULE_RUN_SUMMARY_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "analyzer/rules/differential.h"
#include "analyzer/rules/explanation.h"
#include "analyzer/rules/finding.h"
#include "analyzer/rules/scan_stats.h"

namespace gpuf {

struct RuleRunSummary {
  std::vector<RuleRun> runs;      // every rule considered, by id
  std::vector<Finding> findings;  // fail and warn, current and history, in the diagnosis's order
  std::vector<Finding> ruled_out; // considered and ruled out by evidence against
  Diagnosis diagnosis;
  LogScanStats scan;
  int64_t scan_ns = 0;            // the single pass over the log sources
  // What decided each evaluated rule, by id (analyze --explain); a rule
  // that was skipped has its run's reason only.
  std::map<std::string, RuleExplanation> explanations;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_RUN_SUMMARY_H_
