// Deciding a condition with its operators bound to rows.
//
// The condition is read in disjunctive normal form (Kleene logic is
// distributive, so this changes no truth value). In each `and` branch the
// positive orderings (`a before b within D`, `a within D of b`) and, when
// the branch says `same gpu` or `same container`, every selection it needs
// rows of, are bound: the branch holds only when one row of each of them
// satisfies every ordering and names the same GPU (or container) at once.
// A row that names no GPU goes with any (a plugin line "marking all devices
// unhealthy"). `no x between a and b` binds a and b like an ordering and
// holds for a pair with no row of x between them. What is under `not`, and
// `count(...)`, is read over all the selection's rows, unbound.
//
// The rows that took part in a binding of a true branch are the evidence of
// their selections: "unhealthy within 2m of xid and same gpu" shows the
// unhealthy line of the Xid's GPU, not another GPU's an hour later.
#ifndef GPUF_ANALYZER_RULES_CONDITION_BINDING_H_
#define GPUF_ANALYZER_RULES_CONDITION_BINDING_H_

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "analyzer/rules/condition.h"
#include "analyzer/rules/selection_rows.h"

namespace gpuf {

// For each selection the condition reads outside `not`, the indices (into
// its rows) of the rows that took part in a true branch, ascending: every
// row where the branch read it unbound, none where no true branch read it.
using BoundRows = std::map<std::string, std::vector<size_t>>;

struct Decision {
  Truth truth = Truth::kFalse;
  BoundRows bound;
};

// Past this many partial bindings tried, a branch is decided with each
// operator on its own (EvaluateUnbound), as it would be without binding.
inline constexpr size_t kBindingBudget = 1'000'000;

Decision Decide(const Condition& c, const SelectionRows& rows, const UnknownSelections& unknown);

// Decide(c, rows, unknown).truth.
Truth EvaluateTruth(const Condition& c, const SelectionRows& rows, const UnknownSelections& unknown);

// Two-valued, every selection known: EvaluateTruth(c, rows, {}) == kTrue.
bool EvaluateCondition(const Condition& c, const SelectionRows& rows);

// `rows` with each bound selection cut to the rows that took part, and,
// where `c` says `same gpu` or `same container`, every other selection to
// the rows about what those name: the context of a finding about one
// container or GPU is not another's.
SelectionRows BoundView(const SelectionRows& rows, const BoundRows& bound, const Condition& c);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_CONDITION_BINDING_H_
