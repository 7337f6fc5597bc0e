// Deciding one rule from what its selections returned: the first outcome
// whose condition holds (an outcome without one always does) gives the
// result; none holding is a pass. A fail or warn outcome becomes a Finding
// whose evidence is the rows of the selections the outcome names (or that its
// condition holds on, leaving out those under `not`), at most
// kEvidencePerSelection each plus a line counting the rest, and whose missing
// evidence is the optional artifacts not available plus the `missing`
// entries whose `unless` does not hold.
#ifndef GPUF_ANALYZER_RULES_RULE_EVAL_H_
#define GPUF_ANALYZER_RULES_RULE_EVAL_H_

#include <optional>

#include "analyzer/rules/artifact_index.h"
#include "analyzer/rules/finding.h"
#include "analyzer/rules/rule.h"
#include "analyzer/rules/selection_rows.h"

namespace gpuf {

inline constexpr size_t kEvidencePerSelection = 20;

struct Evaluation {
  RuleRun run;                    // elapsed_ns left 0
  std::optional<Finding> finding; // for fail and warn
};

Evaluation EvaluateRule(const Rule& rule, const SelectionRows& rows, const ArtifactIndex& artifacts);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_EVAL_H_
