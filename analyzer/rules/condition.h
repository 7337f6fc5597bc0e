// The condition language of rule outcomes, over selection names:
//
//   held        := name                         the selection returned a row
//                | count(name) OP number        OP: >= > <= < == !=
//                | a before b [within D]        a row of a is earlier than a row of b
//                | a after b [within D]         (by at most D: 500ms, 30s, 10m, 2h)
//                | a within D of b              rows of a and b at most D apart
//                | same gpu | same container    the rows bound around it name one
//                | same boot                    ... or lie in one boot
//                | no x between a and b         a row of a, a later row of b, no row
//                                               of x between them
//                | no x after a                 a row of a and no row of x after it
//   condition   := held | not condition | condition and condition
//                | condition or condition | ( condition )
//
// `and` binds tighter than `or`. Rows without a time never satisfy an
// ordering. Example: "reload before restart within 10m and not xid".
// The operators bind rows (condition_binding.h): in "xid and unhealthy
// within 2m of xid and same gpu" one row of xid and one of unhealthy must
// satisfy the window and name the same GPU together.
//
// Evidence is three-valued: a selection over something the bundle did not
// capture is unknown, not empty, and so is every condition whose value
// depends on it (Kleene logic: `false and unknown` is false, `true or
// unknown` is true, `not unknown` is unknown).
#ifndef GPUF_ANALYZER_RULES_CONDITION_H_
#define GPUF_ANALYZER_RULES_CONDITION_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "analyzer/rules/selection_rows.h"

namespace gpuf {

struct Condition {
  enum class Op { kHeld, kCount, kBefore, kNear, kSame, kNoneBetween, kNot, kAnd, kOr };
  Op op = Op::kHeld;
  std::string left;                   // selection (kHeld, kCount, kBefore, kNear; kNoneBetween: from)
  std::string right;                  // kBefore: the later one; kNear: the other one;
                                      // kNoneBetween: until ("" for `no x after a`: until capture)
  std::string excluded;               // kNoneBetween: the selection with no row in between
  bool looks_back = false;            // kNoneBetween: `no x before a within W` (window_ns: W)
  std::string compare;                // kCount
  int64_t number = 0;                 // kCount
  std::optional<int64_t> window_ns;   // kBefore (optional), kNear and looking back (always)
  std::string subject;                // kSame: "gpu" | "container" | "boot"
  std::vector<Condition> children;    // kNot: one; kAnd, kOr: two or more
};

struct ConditionError {
  size_t offset = 0;  // byte offset in the condition text
  std::string message;
};

// Parses a condition. When `known` is given, every selection name must be in
// it. On failure returns nullopt and fills *error.
std::optional<Condition> ParseCondition(std::string_view text, const std::vector<std::string>* known,
                                        ConditionError* error);

// Selection names the condition mentions, in order of appearance, each once;
// `positive` leaves out those that only appear under `not`.
std::vector<std::string> ConditionSelections(const Condition& c, bool positive);

// What the condition's `same` operators tie: "gpu", "container", "boot".
std::set<std::string> SameSubjects(const Condition& c);

// Selections that have rows whenever the condition holds: what a summary may
// read fields from without rendering "(none)".
std::vector<std::string> RequiredSelections(const Condition& c);

enum class Truth { kFalse, kUnknown, kTrue };
const char* TruthName(Truth t);  // "false" | "unknown" | "true"

// Selections whose evidence was not captured; they have no rows.
using UnknownSelections = std::set<std::string>;

// Whether a row of c.left and a row of c.right satisfy the ordering `c`
// (kBefore: strictly earlier, within the window when there is one; kNear: at
// most the window apart). Each time is known to its precision
// (TimePrecisionNs): a stamp to the second may lie anywhere in that second,
// so where the precision decides it the answer is unknown. Lines of one log
// are in the order they were written. A row without a time satisfies none.
Truth RowsOrdered(const Condition& c, const SelectionRow& left, const SelectionRow& right);

// For `no x between a and b` (`c`, with `to` null for `no x after a`):
// whether no row of x lies after `from` and before `to`, each side decided
// by RowsOrdered; for `no x before a within W`, none in the W before `from`. Unknown where a time's precision decides
// it, or where a row of x has no time and so may lie anywhere. Only the rows of x that `counts` admits are looked at (a
// branch's `same gpu` leaves out another GPU's); every row when it is null.
Truth NoneBetween(const Condition& c, const SelectionRows& rows, const SelectionRow& from, const SelectionRow* to,
                  const std::function<bool(const SelectionRow&)>& counts = nullptr);

// Each operator checked on its own rows, none bound to another's: what a
// condition too large to bind falls back to (condition_binding.h), and the
// truth of one operator. A selection missing from `rows` counts as having
// no rows; one in `unknown` as not known to have any. `same` holds.
Truth EvaluateUnbound(const Condition& c, const SelectionRows& rows, const UnknownSelections& unknown);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_CONDITION_H_
