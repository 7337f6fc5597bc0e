// Deciding one rule from what its selections returned (docs/diagnosis.md).
//
// 1. Evidence is three-valued: a selection that returned nothing from
//    artifacts none of which was captured is unknown.
// 2. The first outcome whose condition is true decides (an outcome without
//    one always is); none being true is a pass. A fail or warn outcome whose
//    condition is unknown cannot be passed over: when no later fail or warn
//    outcome is true, the run is `unknown` and says what is missing; when a
//    weaker one is, its finding says what would have decided the stronger.
// 3. A fail or warn outcome becomes a Finding: the rows of the selections
//    the outcome names (or that its condition holds on, leaving out those
//    under `not`), at most kEvidencePerSelection each plus a line counting
//    the rest; the missing evidence (optional artifacts not available,
//    confirming pieces that do not hold); its confidence computed from
//    those pieces (confirming_pieces.h).
// 4. Each `against` check is evaluated: one that holds rules the finding
//    out (the run is `ruled_out`, the finding kept for the report's
//    "considered and ruled out") or lowers its confidence one step.
// 5. A finding whose event evidence lies only in earlier boots, or whose
//    outcome says the fault healed, is history: severity at most low and
//    no recovery steps.
#ifndef GPUF_ANALYZER_RULES_RULE_EVAL_H_
#define GPUF_ANALYZER_RULES_RULE_EVAL_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/rules/artifact_index.h"
#include "analyzer/rules/boot_clock.h"
#include "analyzer/rules/explanation.h"
#include "analyzer/rules/finding.h"
#include "analyzer/rules/rule.h"
#include "analyzer/rules/selection_rows.h"

namespace gpuf {

inline constexpr size_t kEvidencePerSelection = 20;

struct Evaluation {
  RuleRun run;                    // elapsed_ns left 0
  std::optional<Finding> finding; // fail and warn (tense current or history), and ruled_out
  RuleExplanation explanation;    // what decided it (analyze --explain)
};

// What each SQL selection without `from` reads, by selection name: the
// artifacts behind the tables it reads (rule_sql.h ArtifactsBehind).
using SqlSources = std::map<std::string, ArtifactChoice>;

// `rows` holds every selection's rows, the derived ones' too (DeriveRows);
// `unknown_derived` the derived selections DeriveRows left unknown.
Evaluation EvaluateRule(const Rule& rule, const SelectionRows& rows, const ArtifactIndex& artifacts,
                        const BootClock& clock = BootClock(), const SqlSources& sql_sources = {},
                        const UnknownSelections& unknown_derived = {});

// Selections that returned nothing from artifacts none of which was
// captured whole: a log selection's artifacts, a `from`, or, for an SQL
// selection without `from`, those behind the tables it reads.
UnknownSelections UnknownOf(const Rule& rule, const SelectionRows& rows, const ArtifactIndex& artifacts,
                            const SqlSources& sql_sources = {});

// The rows of the derived selection `s` (rows_of, when, where) over the
// rows of the selections above it, of which `unknown` holds those unknown;
// adds s to `unknown` where its condition may hold but holds for no row
// for certain.
std::vector<SelectionRow> DeriveRows(const Selection& s, const SelectionRows& rows, UnknownSelections& unknown);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_EVAL_H_
