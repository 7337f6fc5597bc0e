#include "analyzer/rules/condition_binding.h"

#include <algorithm>
#include <limits>
#include <set>

#include "analyzer/rules/subject_keys.h"

namespace gpuf {

namespace {

struct Literal {
  const Condition* atom;
  bool negated;
};
using Branch = std::vector<Literal>;

// Conditions are a few operators long; past this the normal form is not
// built and the condition is decided unbound.
constexpr size_t kMaxBranches = 256;

Truth And(Truth a, Truth b) {
  if (a == Truth::kFalse || b == Truth::kFalse) return Truth::kFalse;
  return a == Truth::kUnknown || b == Truth::kUnknown ? Truth::kUnknown : Truth::kTrue;
}

Truth Or(Truth a, Truth b) {
  if (a == Truth::kTrue || b == Truth::kTrue) return Truth::kTrue;
  return a == Truth::kUnknown || b == Truth::kUnknown ? Truth::kUnknown : Truth::kFalse;
}

Truth Not(Truth t) { return t == Truth::kTrue ? Truth::kFalse : t == Truth::kFalse ? Truth::kTrue : t; }

// Appends the branches of `c` (negated when `negated`) to `out`; false when
// there would be more than kMaxBranches.
bool Dnf(const Condition& c, bool negated, std::vector<Branch>& out) {
  using Op = Condition::Op;
  if (c.op == Op::kNot) return Dnf(c.children[0], !negated, out);
  if (c.op != Op::kAnd && c.op != Op::kOr) {
    out.push_back({{&c, negated}});
    return true;
  }
  if ((c.op == Op::kAnd) == negated) {  // a disjunction
    for (const auto& child : c.children) {
      if (!Dnf(child, negated, out) || out.size() > kMaxBranches) return false;
    }
    return true;
  }
  std::vector<Branch> product = {{}};
  for (const auto& child : c.children) {
    std::vector<Branch> part;
    if (!Dnf(child, negated, part)) return false;
    std::vector<Branch> next;
    for (const auto& left : product) {
      for (const auto& right : part) {
        Branch joined = left;
        joined.insert(joined.end(), right.begin(), right.end());
        next.push_back(std::move(joined));
        if (next.size() > kMaxBranches) return false;
      }
    }
    product = std::move(next);
  }
  out.insert(out.end(), product.begin(), product.end());
  return out.size() <= kMaxBranches;
}

bool IsOrdering(const Condition& c) {
  return c.op == Condition::Op::kBefore || c.op == Condition::Op::kNear ||
         (c.op == Condition::Op::kNoneBetween && !c.right.empty());
}

// An operator whose rows are bound with the branch's others.
bool Binds(const Condition& c) {
  return IsOrdering(c) || c.op == Condition::Op::kNoneBetween || c.op == Condition::Op::kSame;
}

// The search for rows that satisfy a branch's bound operators together.
class Binder {
 public:
  Binder(const Branch& branch, const SelectionRows& rows, size_t* budget) : rows_(rows), budget_(budget) {
    bool same = false;
    for (const auto& l : branch) {
      if (l.negated) continue;
      if (l.atom->op == Condition::Op::kSame) {
        same = true;
        if (l.atom->subject == "gpu") same_gpu_ = true;
        if (l.atom->subject == "container") same_container_ = true;
        if (l.atom->subject == "boot") same_boot_ = true;
      }
    }
    for (const auto& l : branch) {
      if (l.negated) continue;
      if (IsOrdering(*l.atom)) {
        orderings_.push_back({Slot(l.atom->left), Slot(l.atom->right), l.atom});
      } else if (same && l.atom->op == Condition::Op::kHeld) {
        Slot(l.atom->left);
      }
      if (l.atom->op == Condition::Op::kNoneBetween) {
        gaps_.push_back({Slot(l.atom->left), l.atom->right.empty() ? kUnset : Slot(l.atom->right), l.atom});
      }
    }
  }

  const std::vector<std::string>& names() const { return names_; }

  // True when some binding satisfies every bound operator for certain,
  // unknown when one may (a time's precision decides it); `participants`
  // gets each selection's rows that took part in a certain binding. nullopt
  // when the budget ran out first.
  std::optional<Truth> Search(BoundRows& participants) {
    marked_.assign(names_.size(), {});
    for (size_t i = 0; i < names_.size(); ++i) {
      marked_[i].assign(RowsOf(i).size(), false);
      total_rows_ += RowsOf(i).size();
      by_time_.push_back(TimeOrder(RowsOf(i)));
    }
    chosen_.assign(names_.size(), kUnset);
    bool exhausted = !Assign(0, Truth::kTrue);
    if (!found_ && exhausted) return std::nullopt;
    for (size_t i = 0; i < names_.size(); ++i) {
      for (size_t r = 0; r < marked_[i].size(); ++r) {
        if (marked_[i][r]) participants[names_[i]].push_back(r);
      }
    }
    return found_ ? Truth::kTrue : found_unknown_ ? Truth::kUnknown : Truth::kFalse;
  }

 private:
  static constexpr size_t kUnset = std::numeric_limits<size_t>::max();
  struct Ordering {
    size_t left, right;
    const Condition* atom;
  };

  size_t Slot(const std::string& name) {
    auto it = std::find(names_.begin(), names_.end(), name);
    if (it != names_.end()) return static_cast<size_t>(it - names_.begin());
    names_.push_back(name);
    return names_.size() - 1;
  }

  const std::vector<SelectionRow>& RowsOf(size_t slot) const {
    static const std::vector<SelectionRow> kNone;
    auto it = rows_.find(names_[slot]);
    return it == rows_.end() ? kNone : it->second;
  }

  static std::vector<size_t> TimeOrder(const std::vector<SelectionRow>& rows) {
    std::vector<size_t> order;
    for (size_t i = 0; i < rows.size(); ++i) {
      if (rows[i].time_ns) order.push_back(i);
    }
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return *rows[a].time_ns < *rows[b].time_ns; });
    return order;
  }

  // The next slot to bind: one ordered against a bound slot (its rows are
  // found by time), else the one with the fewest rows.
  size_t NextSlot() const {
    size_t best = kUnset;
    for (const auto& o : orderings_) {
      bool left_set = chosen_[o.left] != kUnset, right_set = chosen_[o.right] != kUnset;
      if (left_set != right_set) return left_set ? o.right : o.left;
    }
    for (size_t i = 0; i < names_.size(); ++i) {
      if (chosen_[i] == kUnset && (best == kUnset || RowsOf(i).size() < RowsOf(best).size())) best = i;
    }
    return best;
  }

  // The rows of `slot` whose time can satisfy an ordering against a bound
  // slot; every row when none is bound.
  std::vector<size_t> Candidates(size_t slot) const {
    for (const auto& o : orderings_) {
      size_t other = o.left == slot ? o.right : o.right == slot ? o.left : kUnset;
      if (other == kUnset || other == slot || chosen_[other] == kUnset) continue;
      int64_t t = *RowsOf(other)[chosen_[other]].time_ns;
      int64_t lo = std::numeric_limits<int64_t>::min(), hi = std::numeric_limits<int64_t>::max();
      int64_t window = o.atom->window_ns.value_or(std::numeric_limits<int64_t>::max() / 4);
      // Widened by a precision: RowsOrdered decides the rows at the edges.
      const int64_t slack = kCoarsestPrecisionNs;
      if (o.atom->op == Condition::Op::kNear) {
        lo = t - window - slack, hi = t + window + slack;
      } else if (o.left == slot) {
        lo = t - window - slack, hi = t + slack;
      } else {
        lo = t - slack, hi = t + window + slack;
      }
      const auto& rows = RowsOf(slot);
      const auto& order = by_time_[slot];
      auto first =
          std::lower_bound(order.begin(), order.end(), lo, [&](size_t i, int64_t v) { return *rows[i].time_ns < v; });
      auto last = std::upper_bound(first, order.end(), hi, [&](int64_t v, size_t i) { return v < *rows[i].time_ns; });
      return std::vector<size_t>(first, last);
    }
    std::vector<size_t> all(RowsOf(slot).size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    return all;
  }

  // Whether `row` in `slot` goes with the rows bound so far: false on
  // another GPU or container, unknown where a time's precision decides an
  // ordering.
  Truth Fits(size_t slot, const SelectionRow& row) const {
    Truth fits = Truth::kTrue;
    for (const auto& o : orderings_) {
      if (o.left != slot && o.right != slot) continue;
      size_t other = o.left == slot ? o.right : o.left;
      if (other != slot && chosen_[other] == kUnset) continue;
      const SelectionRow& left = o.left == slot ? row : RowsOf(o.left)[chosen_[o.left]];
      const SelectionRow& right = o.right == slot ? row : RowsOf(o.right)[chosen_[o.right]];
      Truth ordered = RowsOrdered(*o.atom, left, right);
      if (ordered == Truth::kFalse) return ordered;
      if (ordered == Truth::kUnknown) fits = ordered;
    }
    for (const auto& g : gaps_) {
      if (g.left != slot && g.right != slot) continue;
      const SelectionRow* from = g.left == slot ? &row : Chosen(g.left);
      const SelectionRow* to = g.right == kUnset ? nullptr : g.right == slot ? &row : Chosen(g.right);
      if (!from || (g.right != kUnset && !to)) continue;
      Truth none = NoneBetween(*g.atom, rows_, *from, to, [&](const SelectionRow& x) { return GoesWith(x, *from); });
      if (none == Truth::kFalse) return none;
      if (none == Truth::kUnknown) fits = none;
    }
    for (size_t i = 0; i < names_.size(); ++i) {
      if (chosen_[i] == kUnset || i == slot) continue;
      if (!GoesWith(row, RowsOf(i)[chosen_[i]])) return Truth::kFalse;
    }
    return fits;
  }

  // Whether two rows may be about one subject, as the branch's `same`
  // operators ask; a row that names none goes with any. What must not lie
  // between two bound rows is likewise only what goes with them: no
  // registration of that container, not of any.
  bool GoesWith(const SelectionRow& row, const SelectionRow& bound) const {
    if (same_gpu_ && row.gpu && bound.gpu && *row.gpu != *bound.gpu) return false;
    if (same_container_ && row.container && bound.container && !SameContainer(*row.container, *bound.container)) {
      return false;
    }
    return !(same_boot_ && row.boot && bound.boot && !MaySameBoot(*row.boot, *bound.boot));
  }

  const SelectionRow* Chosen(size_t slot) const {
    return chosen_[slot] == kUnset ? nullptr : &RowsOf(slot)[chosen_[slot]];
  }

  // Binds the remaining slots, the binding so far being `so_far`; false
  // when the budget ran out.
  bool Assign(size_t depth, Truth so_far) {
    if (depth == names_.size()) {
      if (so_far == Truth::kUnknown) {
        found_unknown_ = true;
        return true;
      }
      found_ = true;
      for (size_t i = 0; i < names_.size(); ++i) {
        if (!marked_[i][chosen_[i]]) ++marked_count_, marked_[i][chosen_[i]] = true;
      }
      return true;
    }
    size_t slot = NextSlot();
    for (size_t r : Candidates(slot)) {
      if (*budget_ == 0) return false;
      --*budget_;
      Truth fits = Fits(slot, RowsOf(slot)[r]);
      if (fits == Truth::kFalse) continue;
      chosen_[slot] = r;
      bool more = Assign(depth + 1, fits == Truth::kUnknown ? fits : so_far);
      chosen_[slot] = kUnset;
      if (!more) return false;
      if (marked_count_ == total_rows_) return true;  // every row already shown
    }
    return true;
  }

  const SelectionRows& rows_;
  size_t* budget_;
  std::vector<std::string> names_;
  std::vector<Ordering> orderings_;
  std::vector<Ordering> gaps_;  // `no x between a and b` (right kUnset: `no x after a`)
  bool same_gpu_ = false, same_container_ = false, same_boot_ = false;
  std::vector<std::vector<size_t>> by_time_;
  std::vector<size_t> chosen_;
  std::vector<std::vector<bool>> marked_;
  size_t marked_count_ = 0, total_rows_ = 0;
  bool found_ = false;          // a binding holds for certain
  bool found_unknown_ = false;  // one may
};

bool HasRows(const SelectionRows& rows, const std::string& name) {
  auto it = rows.find(name);
  return it != rows.end() && !it->second.empty();
}

void AllRows(const SelectionRows& rows, const std::string& name, BoundRows& participants) {
  auto it = rows.find(name);
  if (it == rows.end()) return;
  auto& into = participants[name];
  for (size_t i = 0; i < it->second.size(); ++i) into.push_back(i);
}

// A selection named alone or counted takes part with every row (a count
// of two admissions shows both); one under `not` shows nothing.
bool ReadsAllRows(const Literal& l) {
  return !l.negated && (l.atom->op == Condition::Op::kHeld || l.atom->op == Condition::Op::kCount);
}

// A selection not captured leaves a branch's binding open, unless the
// operators fail whatever it would have shown: one fails on its own rows,
// or the other selections' rows admit no binding at all.
bool NoBindingWithout(const Branch& branch, const SelectionRows& rows, const UnknownSelections& unknown) {
  Branch rest;
  for (const auto& l : branch) {
    if (!l.negated && Binds(*l.atom) && EvaluateUnbound(*l.atom, rows, unknown) == Truth::kFalse) return true;
    bool open = l.atom->op == Condition::Op::kHeld && !HasRows(rows, l.atom->left) && unknown.count(l.atom->left);
    if (!open) rest.push_back(l);
  }
  size_t budget = kBindingBudget;
  Binder binder(rest, rows, &budget);
  for (const auto& name : binder.names()) {
    if (!HasRows(rows, name)) return false;
  }
  BoundRows ignored;
  std::optional<Truth> held = binder.Search(ignored);
  return held && *held == Truth::kFalse;
}

// One `and` branch: its unbound literals, then its bound operators together.
Truth DecideBranch(const Branch& branch, const SelectionRows& rows, const UnknownSelections& unknown,
                   BoundRows& participants) {
  size_t budget = kBindingBudget;
  Binder binder(branch, rows, &budget);
  const auto& bound = binder.names();
  Truth truth = Truth::kTrue;
  for (const auto& l : branch) {
    bool binds = !l.negated && (Binds(*l.atom) || (l.atom->op == Condition::Op::kHeld &&
                                                   std::find(bound.begin(), bound.end(), l.atom->left) != bound.end()));
    // What must not lie between, not captured, may: the binding cannot be certain.
    if (binds && l.atom->op == Condition::Op::kNoneBetween && unknown.count(l.atom->excluded)) {
      truth = And(truth, Truth::kUnknown);
    }
    if (binds) continue;
    Truth t = EvaluateUnbound(*l.atom, rows, unknown);
    truth = And(truth, l.negated ? Not(t) : t);
  }
  if (truth == Truth::kFalse || bound.empty()) {
    if (truth == Truth::kTrue) {
      for (const auto& l : branch) {
        if (ReadsAllRows(l)) AllRows(rows, l.atom->left, participants);
      }
    }
    return truth;
  }
  Truth binding = Truth::kTrue;
  for (const auto& name : bound) {
    if (!HasRows(rows, name)) binding = And(binding, unknown.count(name) ? Truth::kUnknown : Truth::kFalse);
  }
  if (binding == Truth::kUnknown && NoBindingWithout(branch, rows, unknown)) binding = Truth::kFalse;
  if (binding == Truth::kTrue) {
    BoundRows found;
    std::optional<Truth> held = binder.Search(found);
    if (!held) {
      Truth fallback = Truth::kTrue;
      for (const auto& l : branch) {
        if (!l.negated) fallback = And(fallback, EvaluateUnbound(*l.atom, rows, unknown));
      }
      return And(truth, fallback);
    }
    binding = *held;
    if (*held == Truth::kTrue && truth == Truth::kTrue) {
      for (auto& [name, indices] : found) participants[name] = std::move(indices);
      for (const auto& l : branch) {
        if (ReadsAllRows(l) && !found.count(l.atom->left)) {
          AllRows(rows, l.atom->left, participants);
        }
      }
    }
  }
  return And(truth, binding);
}

void Merge(BoundRows& into, const BoundRows& from) {
  for (const auto& [name, indices] : from) {
    auto& target = into[name];
    std::set<size_t> all(target.begin(), target.end());
    all.insert(indices.begin(), indices.end());
    target.assign(all.begin(), all.end());
  }
}

}  // namespace

Decision Decide(const Condition& c, const SelectionRows& rows, const UnknownSelections& unknown) {
  std::vector<Branch> branches;
  if (!Dnf(c, false, branches)) return {EvaluateUnbound(c, rows, unknown), {}};
  Decision d;
  for (const auto& branch : branches) {
    BoundRows participants;
    Truth t = DecideBranch(branch, rows, unknown, participants);
    if (t == Truth::kTrue) Merge(d.bound, participants);
    d.truth = Or(d.truth, t);
  }
  // A selection the condition reads but no true branch bound shows nothing:
  // its rows are not what made the condition true.
  if (d.truth == Truth::kTrue) {
    for (const auto& name : ConditionSelections(c, true)) d.bound.try_emplace(name);
  }
  return d;
}

Truth EvaluateTruth(const Condition& c, const SelectionRows& rows, const UnknownSelections& unknown) {
  return Decide(c, rows, unknown).truth;
}

bool EvaluateCondition(const Condition& c, const SelectionRows& rows) {
  return EvaluateTruth(c, rows, {}) == Truth::kTrue;
}

SelectionRows BoundView(const SelectionRows& rows, const BoundRows& bound, const Condition& c) {
  const std::set<std::string> same = SameSubjects(c);
  SelectionRows view = rows;
  std::set<std::string> gpus, containers;
  for (const auto& [name, indices] : bound) {
    auto it = rows.find(name);
    if (it == rows.end()) continue;
    std::vector<SelectionRow> kept;
    for (size_t i : indices) {
      const SelectionRow& row = it->second[i];
      if (row.gpu) gpus.insert(*row.gpu);
      if (row.container) containers.insert(*row.container);
      kept.push_back(row);
    }
    view[name] = std::move(kept);
  }
  auto another_gpu = [&](const SelectionRow& row) {
    return same.count("gpu") && row.gpu && !gpus.empty() && !gpus.count(*row.gpu);
  };
  auto another_container = [&](const SelectionRow& row) {
    return same.count("container") && row.container && !containers.empty() &&
           std::none_of(containers.begin(), containers.end(),
                        [&](const std::string& c) { return SameContainer(c, *row.container); });
  };
  for (auto& [name, kept] : view) {
    if (bound.count(name)) continue;
    std::erase_if(kept, [&](const SelectionRow& row) { return another_gpu(row) || another_container(row); });
  }
  return view;
}

}  // namespace gpuf
