// Why a rule did or did not fire, as `analyze --explain RULE` shows it:
// each selection true, false or unknown with the rows or the missing
// artifacts that decided it, each outcome the engine tried, in order,
// with its truth, and the confirming pieces its confidence came from. Recorded
// while the rule is evaluated (rule_eval.h), so it is what decided, not a
// second reading.
#ifndef GPUF_ANALYZER_RULES_EXPLANATION_H_
#define GPUF_ANALYZER_RULES_EXPLANATION_H_

#include <cstddef>
#include <string>
#include <vector>

namespace gpuf {

inline constexpr size_t kExplainedRowsPerSelection = 3;

struct SelectionExplanation {
  std::string name{};
  std::string shows{};  // event | precondition | context
  std::string reads{};  // "the catalogue's xid where code=79", "a pattern over plugin_logs", "SQL"
  std::string state{};  // true | false | unknown
  size_t rows = 0;
  std::vector<std::string> examples{};  // the first rows, "artifact:line  text"
  std::string needs{};                  // unknown: the artifacts that would decide it
};

struct OutcomeExplanation {
  std::string when{};        // "" for the closing outcome without a condition
  std::string result{};      // fail | warn | pass
  std::string confidence{};  // as written by a rule in the older language; ""
                             // when computed
  std::string truth{};       // true | false | unknown | not reached
};

// A confirming piece (`confirms`) as the decided outcome's rows left it.
struct PieceExplanation {
  std::string when{};
  std::string truth{};  // true | false | unknown
};

struct RuleExplanation {
  std::vector<SelectionExplanation> selections{};
  std::vector<OutcomeExplanation> outcomes{};
  std::vector<PieceExplanation> pieces{};  // empty unless a fail or warn outcome decided
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_EXPLANATION_H_
