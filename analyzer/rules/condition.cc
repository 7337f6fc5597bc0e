#include "analyzer/rules/condition.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>

namespace gpuf {

namespace {

struct Token {
  enum class Kind { kName, kNumber, kDuration, kCompare, kOpen, kClose, kEnd, kBad };
  Kind kind = Kind::kEnd;
  std::string text;
  size_t offset = 0;
  double number = 0;        // kNumber, kDuration (in ns for durations)
};

bool IsNameStart(char c) { return std::islower(static_cast<unsigned char>(c)) || c == '_'; }
bool IsNameChar(char c) {
  return IsNameStart(c) || std::isdigit(static_cast<unsigned char>(c));
}

std::optional<double> UnitNs(std::string_view unit) {
  if (unit == "ms") return 1e6;
  if (unit == "s") return 1e9;
  if (unit == "m") return 60e9;
  if (unit == "h") return 3600e9;
  return std::nullopt;
}

std::vector<Token> Tokenize(std::string_view text) {
  std::vector<Token> tokens;
  size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    Token t;
    t.offset = i;
    if (IsNameStart(c)) {
      size_t end = i;
      while (end < text.size() && IsNameChar(text[end])) ++end;
      t.kind = Token::Kind::kName;
      t.text = std::string(text.substr(i, end - i));
      i = end;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t end = i;
      while (end < text.size() && (std::isdigit(static_cast<unsigned char>(text[end])) || text[end] == '.')) ++end;
      size_t unit_end = end;
      while (unit_end < text.size() && std::isalpha(static_cast<unsigned char>(text[unit_end]))) ++unit_end;
      t.text = std::string(text.substr(i, unit_end - i));
      double value = std::strtod(std::string(text.substr(i, end - i)).c_str(), nullptr);
      if (unit_end == end) {
        t.kind = Token::Kind::kNumber;
        t.number = value;
      } else if (auto ns = UnitNs(text.substr(end, unit_end - end))) {
        t.kind = Token::Kind::kDuration;
        t.number = value * *ns;
      } else {
        t.kind = Token::Kind::kBad;
      }
      i = unit_end;
    } else if (c == '(' || c == ')') {
      t.kind = c == '(' ? Token::Kind::kOpen : Token::Kind::kClose;
      t.text = std::string(1, c);
      ++i;
    } else if (c == '<' || c == '>' || c == '=' || c == '!') {
      size_t len = (i + 1 < text.size() && text[i + 1] == '=') ? 2 : 1;
      t.text = std::string(text.substr(i, len));
      t.kind = (t.text == "=" || t.text == "!") ? Token::Kind::kBad : Token::Kind::kCompare;
      i += len;
    } else {
      t.kind = Token::Kind::kBad;
      t.text = std::string(1, c);
      ++i;
    }
    tokens.push_back(t);
  }
  Token end;
  end.offset = text.size();
  tokens.push_back(end);
  return tokens;
}

constexpr std::string_view kKeywords[] = {"and", "or",    "not",  "before", "after",  "within",
                                          "of",  "count", "same", "no",     "between"};

bool IsKeyword(const std::string& word) {
  return std::find(std::begin(kKeywords), std::end(kKeywords), word) != std::end(kKeywords);
}

class Parser {
 public:
  Parser(std::string_view text, const std::vector<std::string>* known) : tokens_(Tokenize(text)), known_(known) {}

  std::optional<Condition> Parse(ConditionError* error) {
    std::optional<Condition> c = Or();
    if (c && Peek().kind != Token::Kind::kEnd) c = Fail("expected 'and', 'or' or the end, got " + Describe(Peek()));
    if (!c) *error = error_;
    return c;
  }

 private:
  const Token& Peek() const { return tokens_[pos_]; }
  const Token& Next() { return tokens_[pos_ < tokens_.size() - 1 ? pos_++ : pos_]; }
  bool IsWord(std::string_view word) const { return Peek().kind == Token::Kind::kName && Peek().text == word; }

  static std::string Describe(const Token& t) {
    return t.kind == Token::Kind::kEnd ? "the end" : "'" + t.text + "'";
  }

  std::nullopt_t Fail(const std::string& message) {
    if (error_.message.empty()) error_ = {Peek().offset, message};
    return std::nullopt;
  }

  std::optional<Condition> Combine(Condition::Op op, std::string_view word, std::optional<Condition> (Parser::*sub)()) {
    std::optional<Condition> first = (this->*sub)();
    if (!first || !IsWord(word)) return first;
    Condition all;
    all.op = op;
    all.children.push_back(std::move(*first));
    while (IsWord(word)) {
      Next();
      std::optional<Condition> more = (this->*sub)();
      if (!more) return std::nullopt;
      all.children.push_back(std::move(*more));
    }
    return all;
  }

  std::optional<Condition> Or() { return Combine(Condition::Op::kOr, "or", &Parser::And); }
  std::optional<Condition> And() { return Combine(Condition::Op::kAnd, "and", &Parser::Unary); }

  std::optional<Condition> Unary() {
    if (IsWord("not")) {
      Next();
      ++negations_;
      std::optional<Condition> inner = Unary();
      --negations_;
      if (!inner) return std::nullopt;
      Condition c;
      c.op = Condition::Op::kNot;
      c.children.push_back(std::move(*inner));
      return c;
    }
    if (Peek().kind == Token::Kind::kOpen) {
      Next();
      std::optional<Condition> inner = Or();
      if (!inner) return std::nullopt;
      if (Peek().kind != Token::Kind::kClose) return Fail("expected ')', got " + Describe(Peek()));
      Next();
      return inner;
    }
    if (IsWord("count")) return Count();
    if (IsWord("same")) return Same();
    if (IsWord("no")) return NoneBetween();
    return Held();
  }

  // `no x between a and b`, `no x after a`, `no x before a within 5s`.
  std::optional<Condition> NoneBetween() {
    Next();
    Condition c;
    c.op = Condition::Op::kNoneBetween;
    auto excluded = Name();
    if (!excluded) return std::nullopt;
    c.excluded = *excluded;
    const bool between = IsWord("between");
    c.looks_back = IsWord("before");
    if (!between && !c.looks_back && !IsWord("after"))
      return Fail("expected 'between', 'after' or 'before' after no " + c.excluded + ", got " + Describe(Peek()));
    Next();
    auto from = Name();
    if (!from) return std::nullopt;
    c.left = *from;
    if (c.looks_back) {
      // Looking back has no event to stop at: it says how far.
      if (!IsWord("within"))
        return Fail("expected 'within' after no " + c.excluded + " before " + c.left + ", got " + Describe(Peek()));
      Next();
      c.window_ns = Duration();
      if (!c.window_ns) return std::nullopt;
      return c;
    }
    if (!between) return c;
    if (!IsWord("and")) return Fail("expected 'and' after between " + c.left + ", got " + Describe(Peek()));
    Next();
    auto to = Name();
    if (!to) return std::nullopt;
    c.right = *to;
    return c;
  }

  // `same gpu`, `same container`: binds the rows around it, so it has no
  // meaning under `not`.
  std::optional<Condition> Same() {
    if (negations_ > 0) return Fail("'same' binds the rows of the selections beside it and cannot be negated");
    Next();
    if (!IsWord("gpu") && !IsWord("container") && !IsWord("boot"))
      return Fail("expected 'gpu', 'container' or 'boot' after same, got " + Describe(Peek()));
    Condition c;
    c.op = Condition::Op::kSame;
    c.subject = Next().text;
    return c;
  }

  std::optional<std::string> Name() {
    const Token& t = Peek();
    if (t.kind != Token::Kind::kName || IsKeyword(t.text)) {
      Fail("expected a selection name, got " + Describe(t));
      return std::nullopt;
    }
    if (known_ && std::find(known_->begin(), known_->end(), t.text) == known_->end()) {
      Fail("unknown selection '" + t.text + "'");
      return std::nullopt;
    }
    return Next().text;
  }

  std::optional<Condition> Count() {
    Next();
    if (Peek().kind != Token::Kind::kOpen) return Fail("expected '(' after count, got " + Describe(Peek()));
    Next();
    Condition c;
    c.op = Condition::Op::kCount;
    auto name = Name();
    if (!name) return std::nullopt;
    c.left = *name;
    if (Peek().kind != Token::Kind::kClose) return Fail("expected ')', got " + Describe(Peek()));
    Next();
    if (Peek().kind != Token::Kind::kCompare) return Fail("expected a comparison after count(), got " + Describe(Peek()));
    c.compare = Next().text;
    if (Peek().kind != Token::Kind::kNumber || Peek().number != std::floor(Peek().number)) {
      return Fail("expected a whole number, got " + Describe(Peek()));
    }
    c.number = static_cast<int64_t>(Next().number);
    return c;
  }

  std::optional<int64_t> Duration() {
    if (Peek().kind != Token::Kind::kDuration) {
      Fail("expected a duration such as 30s, 10m or 500ms, got " + Describe(Peek()));
      return std::nullopt;
    }
    return static_cast<int64_t>(Next().number);
  }

  std::optional<Condition> Held() {
    Condition c;
    auto name = Name();
    if (!name) return std::nullopt;
    c.left = *name;
    if (IsWord("before") || IsWord("after")) {
      bool after = Next().text == "after";
      auto other = Name();
      if (!other) return std::nullopt;
      c.op = Condition::Op::kBefore;
      c.right = *other;
      if (after) std::swap(c.left, c.right);
      if (IsWord("within")) {
        Next();
        c.window_ns = Duration();
        if (!c.window_ns) return std::nullopt;
      }
    } else if (IsWord("within")) {
      Next();
      c.window_ns = Duration();
      if (!c.window_ns) return std::nullopt;
      if (!IsWord("of")) return Fail("expected 'of' after the duration, got " + Describe(Peek()));
      Next();
      auto other = Name();
      if (!other) return std::nullopt;
      c.op = Condition::Op::kNear;
      c.right = *other;
    }
    return c;
  }

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  const std::vector<std::string>* known_;
  int negations_ = 0;
  ConditionError error_;
};

const std::vector<SelectionRow>& RowsOf(const SelectionRows& rows, const std::string& name) {
  static const std::vector<SelectionRow> kNone;
  auto it = rows.find(name);
  return it == rows.end() ? kNone : it->second;
}

bool Compare(int64_t value, const std::string& op, int64_t number) {
  if (op == ">=") return value >= number;
  if (op == ">") return value > number;
  if (op == "<=") return value <= number;
  if (op == "<") return value < number;
  if (op == "==") return value == number;
  return value != number;
}

void Collect(const Condition& c, bool positive, bool negated, std::vector<std::string>& out) {
  auto add = [&](const std::string& name) {
    if (!name.empty() && (!positive || !negated) && std::find(out.begin(), out.end(), name) == out.end()) {
      out.push_back(name);
    }
  };
  add(c.left);
  add(c.right);
  // What must not lie between is read like a selection under `not`.
  if (!positive && !c.excluded.empty() && std::find(out.begin(), out.end(), c.excluded) == out.end()) {
    out.push_back(c.excluded);
  }
  for (const auto& child : c.children) Collect(child, positive, negated != (c.op == Condition::Op::kNot), out);
}

}  // namespace

std::optional<Condition> ParseCondition(std::string_view text, const std::vector<std::string>* known,
                                        ConditionError* error) {
  return Parser(text, known).Parse(error);
}

std::vector<std::string> ConditionSelections(const Condition& c, bool positive) {
  std::vector<std::string> out;
  Collect(c, positive, false, out);
  return out;
}

std::set<std::string> SameSubjects(const Condition& c) {
  std::set<std::string> out;
  if (c.op == Condition::Op::kSame) out.insert(c.subject);
  for (const auto& child : c.children) out.merge(SameSubjects(child));
  return out;
}

std::vector<std::string> RequiredSelections(const Condition& c) {
  switch (c.op) {
    case Condition::Op::kHeld:
      return {c.left};
    case Condition::Op::kBefore:
    case Condition::Op::kNear:
      return {c.left, c.right};
    case Condition::Op::kNoneBetween:
      return c.right.empty() ? std::vector<std::string>{c.left} : std::vector<std::string>{c.left, c.right};
    case Condition::Op::kCount: {
      bool some = (c.compare == ">=" && c.number >= 1) || (c.compare == ">" && c.number >= 0) ||
                  (c.compare == "==" && c.number >= 1);
      return some ? std::vector<std::string>{c.left} : std::vector<std::string>{};
    }
    case Condition::Op::kNot:
    case Condition::Op::kSame:
      return {};
    case Condition::Op::kAnd: {
      std::vector<std::string> all;
      for (const auto& child : c.children) {
        for (const auto& name : RequiredSelections(child)) {
          if (std::find(all.begin(), all.end(), name) == all.end()) all.push_back(name);
        }
      }
      return all;
    }
    case Condition::Op::kOr: {
      std::vector<std::string> common = RequiredSelections(c.children[0]);
      for (size_t i = 1; i < c.children.size(); ++i) {
        std::vector<std::string> other = RequiredSelections(c.children[i]);
        std::erase_if(common, [&](const std::string& n) { return std::find(other.begin(), other.end(), n) == other.end(); });
      }
      return common;
    }
  }
  return {};
}

const char* TruthName(Truth t) {
  return t == Truth::kTrue ? "true" : t == Truth::kFalse ? "false" : "unknown";
}

namespace {

bool Holds(const Condition& c, const SelectionRows& rows) {
  switch (c.op) {
    case Condition::Op::kHeld:
      return !RowsOf(rows, c.left).empty();
    case Condition::Op::kCount:
      return Compare(static_cast<int64_t>(RowsOf(rows, c.left).size()), c.compare, c.number);
    default:
      return false;
  }
}

}  // namespace

Truth RowsOrdered(const Condition& c, const SelectionRow& left, const SelectionRow& right) {
  if (!left.time_ns || !right.time_ns) return Truth::kFalse;
  // The true gap right - left lies in [lo, hi].
  int64_t gap = *right.time_ns - *left.time_ns;
  int64_t lo = gap - (TimePrecisionNs(left) - 1), hi = gap + (TimePrecisionNs(right) - 1);
  if (IsEarlierLine(left, right)) lo = std::max<int64_t>(lo, 1);
  if (IsEarlierLine(right, left)) hi = std::min<int64_t>(hi, -1);
  if (lo > hi) return Truth::kFalse;  // the lines' order contradicts the stamps
  int64_t from = 1, to = std::numeric_limits<int64_t>::max();  // kBefore without a window
  if (c.op == Condition::Op::kBefore && c.window_ns) to = *c.window_ns;
  if (c.op == Condition::Op::kNear) from = -*c.window_ns, to = *c.window_ns;
  if (lo >= from && hi <= to) return Truth::kTrue;
  if (hi < from || lo > to) return Truth::kFalse;
  return Truth::kUnknown;
}

namespace {

// Rows with a time, in time order.
std::vector<const SelectionRow*> Timed(const std::vector<SelectionRow>& rows) {
  std::vector<const SelectionRow*> timed;
  for (const auto& r : rows) {
    if (r.time_ns) timed.push_back(&r);
  }
  std::stable_sort(timed.begin(), timed.end(), [](const auto* a, const auto* b) { return *a->time_ns < *b->time_ns; });
  return timed;
}

// Past this many pairs of rows compared, an ordering that has found no pair
// for certain is unknown rather than false.
constexpr size_t kOrderingPairBudget = 1'000'000;

// Some row of c.left and some of c.right satisfy the ordering, each pair
// decided by RowsOrdered: true when one pair does for certain, unknown when
// one may.
Truth OrderingHolds(const Condition& c, const SelectionRows& rows) {
  std::vector<const SelectionRow*> left = Timed(RowsOf(rows, c.left)), right = Timed(RowsOf(rows, c.right));
  if (left.empty() || right.empty()) return Truth::kFalse;
  // A pair can only hold where the stamps are at most the window and a
  // precision apart (the precision at most a second).
  int64_t window = c.window_ns.value_or(std::numeric_limits<int64_t>::max() / 4);
  int64_t slack = kCoarsestPrecisionNs;
  Truth best = Truth::kFalse;
  size_t budget = kOrderingPairBudget;
  for (const SelectionRow* l : left) {
    int64_t t = *l->time_ns;
    int64_t lo = c.op == Condition::Op::kNear ? t - window - slack : t - slack;
    int64_t hi = t + window + slack;
    // Without a window the latest right row decides when it is surely after.
    if (!c.window_ns && RowsOrdered(c, *l, *right.back()) == Truth::kTrue) return Truth::kTrue;
    if (!c.window_ns) hi = t + slack;
    auto first = std::lower_bound(right.begin(), right.end(), lo, [](const auto* r, int64_t v) { return *r->time_ns < v; });
    for (auto it = first; it != right.end() && *(*it)->time_ns <= hi; ++it) {
      if (budget-- == 0) return Truth::kUnknown;
      Truth pair = RowsOrdered(c, *l, **it);
      if (pair == Truth::kTrue) return pair;
      if (pair == Truth::kUnknown) best = pair;
    }
  }
  return best;
}

// Some row of c.left and (for `between`) a later row of c.right with no
// row of c.excluded between them: true when one pair does for certain,
// unknown when one may.
Truth NoneBetweenHolds(const Condition& c, const SelectionRows& rows) {
  std::vector<const SelectionRow*> from = Timed(RowsOf(rows, c.left));
  Truth best = Truth::kFalse;
  size_t budget = kOrderingPairBudget;
  for (const SelectionRow* f : from) {
    if (c.right.empty()) {
      Truth t = NoneBetween(c, rows, *f, nullptr);
      if (t == Truth::kTrue) return t;
      if (t == Truth::kUnknown) best = t;
      continue;
    }
    for (const SelectionRow* to : Timed(RowsOf(rows, c.right))) {
      if (budget-- == 0) return best == Truth::kFalse ? Truth::kUnknown : best;
      Truth t = RowsOrdered(c, *f, *to);
      if (t == Truth::kFalse) continue;
      Truth none = NoneBetween(c, rows, *f, to);
      t = none == Truth::kFalse ? none : (t == Truth::kTrue ? none : Truth::kUnknown);
      if (t == Truth::kTrue) return t;
      if (t == Truth::kUnknown) best = t;
    }
  }
  return best;
}

}  // namespace

namespace {

// Whether `a` lies before `b`: in one log by their lines, stamped or not;
// else by their times, unknown where either has none.
Truth Earlier(const SelectionRow& a, const SelectionRow& b) {
  if (IsEarlierLine(a, b)) return Truth::kTrue;
  if (IsEarlierLine(b, a)) return Truth::kFalse;
  if (!a.time_ns || !b.time_ns) return Truth::kUnknown;
  Condition before;
  before.op = Condition::Op::kBefore;
  return RowsOrdered(before, a, b);
}

}  // namespace

Truth NoneBetween(const Condition& c, const SelectionRows& rows, const SelectionRow& from, const SelectionRow* to,
                  const std::function<bool(const SelectionRow&)>& counts) {
  Condition within;
  within.op = Condition::Op::kBefore;
  within.window_ns = c.window_ns;
  Truth none = Truth::kTrue;
  for (const auto& x : RowsOf(rows, c.excluded)) {
    if (counts && !counts(x)) continue;
    if (&x == &from || (to && &x == to)) continue;  // `no a before a`: a row is not before itself
    Truth between;
    if (c.looks_back) {
      between = IsEarlierLine(from, x)        ? Truth::kFalse
                : !x.time_ns || !from.time_ns ? Truth::kUnknown
                                              : RowsOrdered(within, x, from);
    } else {
      Truth after_from = Earlier(from, x), before_to = to ? Earlier(x, *to) : Truth::kTrue;
      between = after_from == Truth::kFalse || before_to == Truth::kFalse ? Truth::kFalse
                : after_from == Truth::kTrue && before_to == Truth::kTrue ? Truth::kTrue
                                                                          : Truth::kUnknown;
    }
    if (between == Truth::kTrue) return Truth::kFalse;
    if (between == Truth::kUnknown) none = Truth::kUnknown;
  }
  return none;
}

Truth EvaluateUnbound(const Condition& c, const SelectionRows& rows, const UnknownSelections& unknown) {
  auto is_unknown = [&](const std::string& name) { return !name.empty() && unknown.count(name) > 0; };
  switch (c.op) {
    case Condition::Op::kHeld:
      // What held is known to hold; what did not may yet, when it was not captured.
      if (Holds(c, rows)) return Truth::kTrue;
      return is_unknown(c.left) ? Truth::kUnknown : Truth::kFalse;
    case Condition::Op::kBefore:
    case Condition::Op::kNear: {
      Truth ordered = OrderingHolds(c, rows);
      if (ordered != Truth::kFalse) return ordered;
      return is_unknown(c.left) || is_unknown(c.right) ? Truth::kUnknown : Truth::kFalse;
    }
    case Condition::Op::kNoneBetween: {
      Truth held = NoneBetweenHolds(c, rows);
      if (held == Truth::kTrue && is_unknown(c.excluded)) return Truth::kUnknown;
      if (held != Truth::kFalse) return held;
      return is_unknown(c.left) || is_unknown(c.right) ? Truth::kUnknown : Truth::kFalse;
    }
    case Condition::Op::kCount:
      if (is_unknown(c.left)) return Truth::kUnknown;
      return Holds(c, rows) ? Truth::kTrue : Truth::kFalse;
    case Condition::Op::kSame:
      return Truth::kTrue;
    case Condition::Op::kNot: {
      Truth inner = EvaluateUnbound(c.children[0], rows, unknown);
      return inner == Truth::kUnknown ? inner : inner == Truth::kTrue ? Truth::kFalse : Truth::kTrue;
    }
    case Condition::Op::kAnd:
    case Condition::Op::kOr: {
      const Truth decisive = c.op == Condition::Op::kAnd ? Truth::kFalse : Truth::kTrue;
      bool some_unknown = false;
      for (const auto& child : c.children) {
        Truth t = EvaluateUnbound(child, rows, unknown);
        if (t == decisive) return decisive;
        some_unknown = some_unknown || t == Truth::kUnknown;
      }
      if (some_unknown) return Truth::kUnknown;
      return decisive == Truth::kFalse ? Truth::kTrue : Truth::kFalse;
    }
  }
  return Truth::kFalse;
}

}  // namespace gpuf
