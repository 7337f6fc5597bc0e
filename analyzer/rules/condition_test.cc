#include "analyzer/rules/condition.h"

#include <doctest/doctest.h>

#include "analyzer/rules/condition_binding.h"

namespace gpuf {

namespace {

// A row at `seconds`, its time exact.
SelectionRow At(int64_t seconds) {
  SelectionRow row;
  row.time_ns = seconds * 1'000'000'000;
  row.precision_ns = 1;
  return row;
}

// A line of log 7 at `seconds`, stamped to the second as its log writes it.
SelectionRow StampedToTheSecond(int64_t seconds, int64_t line) {
  SelectionRow row;
  row.time_ns = seconds * 1'000'000'000;
  row.artifact_id = 7;
  row.line = line;
  return row;
}

bool Holds(std::string_view text, const SelectionRows& rows) {
  ConditionError error;
  auto c = ParseCondition(text, nullptr, &error);
  REQUIRE_MESSAGE(c, error.message);
  return EvaluateCondition(*c, rows);
}

std::string TruthOf(std::string_view text, const SelectionRows& rows, const UnknownSelections& unknown) {
  ConditionError error;
  auto c = ParseCondition(text, nullptr, &error);
  REQUIRE_MESSAGE(c, error.message);
  return TruthName(EvaluateTruth(*c, rows, unknown));
}

std::string ErrorOf(std::string_view text, const std::vector<std::string>* known = nullptr) {
  ConditionError error;
  CHECK_FALSE(ParseCondition(text, known, &error));
  return std::to_string(error.offset) + ": " + error.message;
}

}  // namespace

TEST_SUITE("rule_condition") {

TEST_CASE("Condition: names, not, and binds tighter than or") {
  SelectionRows rows{{"a", {At(1)}}, {"b", {}}, {"c", {At(2)}}};
  CHECK(Holds("a", rows));
  CHECK_FALSE(Holds("b", rows));
  CHECK_FALSE(Holds("missing_selection", rows));
  CHECK(Holds("not b", rows));
  CHECK(Holds("b and c or a", rows));
  CHECK_FALSE(Holds("b and (c or a)", rows));
  CHECK(Holds("not (b or not c)", rows));
}

TEST_CASE("Condition: count comparisons") {
  SelectionRows rows{{"a", {At(1), At(2), At(3)}}};
  CHECK(Holds("count(a) >= 3", rows));
  CHECK_FALSE(Holds("count(a) > 3", rows));
  CHECK(Holds("count(a) == 3", rows));
  CHECK(Holds("count(a) != 2", rows));
  CHECK(Holds("count(none) < 1", rows));
  CHECK(Holds("count(none) <= 0", rows));
}

TEST_CASE("Condition: before, after and within, by row times") {
  SelectionRows rows{{"reload", {At(100)}}, {"restart", {At(160), At(5000)}}, {"untimed", {SelectionRow{}}}};
  CHECK(Holds("reload before restart", rows));
  CHECK(Holds("reload before restart within 1m", rows));
  CHECK_FALSE(Holds("reload before restart within 59s", rows));
  CHECK(Holds("restart after reload within 2m", rows));
  CHECK_FALSE(Holds("restart before reload", rows));
  CHECK(Holds("restart within 60000ms of reload", rows));
  CHECK(Holds("reload within 1m of restart", rows));
  CHECK_FALSE(Holds("reload within 30s of restart", rows));
  CHECK_FALSE(Holds("untimed before restart", rows));
  CHECK_FALSE(Holds("untimed within 1h of reload", rows));
}

TEST_CASE("Condition: a time known to the second decides a window only where the whole second does") {
  SelectionRows rows{{"a", {StampedToTheSecond(100, 1)}}, {"b", {StampedToTheSecond(101, 9)}}};
  // b is 0 to 2 s after a.
  CHECK(TruthOf("a before b within 2s", rows, {}) == "true");
  CHECK(TruthOf("a before b within 1s", rows, {}) == "unknown");
  CHECK(TruthOf("b before a", rows, {}) == "false");
  CHECK(TruthOf("a within 500ms of b", rows, {}) == "unknown");
  CHECK(TruthOf("a within 3s of b", rows, {}) == "true");
  // The same rows with exact times decide it.
  SelectionRows exact{{"a", {At(100)}}, {"b", {At(101)}}};
  CHECK(TruthOf("a before b within 1s", exact, {}) == "true");
  CHECK(TruthOf("a within 500ms of b", exact, {}) == "false");
}

TEST_CASE("Condition: in one log a later line is later, whatever the stamps to the second say") {
  SelectionRows rows{{"registered", {StampedToTheSecond(100, 1)}}, {"restart", {StampedToTheSecond(100, 2)}}};
  CHECK(TruthOf("registered before restart within 1s", rows, {}) == "true");
  CHECK(TruthOf("restart before registered", rows, {}) == "false");
  // In different logs the same second leaves the order unknown.
  rows["restart"][0].artifact_id = 8;
  CHECK(TruthOf("registered before restart", rows, {}) == "unknown");
  CHECK(TruthOf("restart before registered", rows, {}) == "unknown");
}

TEST_CASE("TimePrecisionNs: what the row says, else the coarsest power of ten its stamp is a multiple of") {
  SelectionRow row;
  row.time_ns = 1'700'000'000'000'000'000;
  CHECK(TimePrecisionNs(row) == 1'000'000'000);
  row.time_ns = 1'700'000'000'123'456'000;  // the journal's microseconds
  CHECK(TimePrecisionNs(row) == 1'000);
  row.time_ns = 1'700'000'001'500'000'000;
  CHECK(TimePrecisionNs(row) == 100'000'000);
  row.time_ns = 1'700'000'000'123'456'789;
  CHECK(TimePrecisionNs(row) == 1);
  row.precision_ns = 1'000;
  CHECK(TimePrecisionNs(row) == 1'000);
  row.precision_ns = 60'000'000'000;  // never coarser than a second
  CHECK(TimePrecisionNs(row) == 1'000'000'000);
}

TEST_CASE("Condition: errors say where and what") {
  CHECK(ErrorOf("a and") == "5: expected a selection name, got the end");
  CHECK(ErrorOf("a and or b") == "6: expected a selection name, got 'or'");
  CHECK(ErrorOf("(a or b") == "7: expected ')', got the end");
  CHECK(ErrorOf("a before b within 10x") == "18: expected a duration such as 30s, 10m or 500ms, got '10x'");
  CHECK(ErrorOf("a within 10s b") == "13: expected 'of' after the duration, got 'b'");
  CHECK(ErrorOf("count(a) = 2") == "9: expected a comparison after count(), got '='");
  CHECK(ErrorOf("a b") == "2: expected 'and', 'or' or the end, got 'b'");
  std::vector<std::string> known{"a"};
  CHECK(ErrorOf("a and bb", &known) == "6: unknown selection 'bb'");
  CHECK(ErrorOf("no x beside a") == "5: expected 'between', 'after' or 'before' after no x, got 'beside'");
  CHECK(ErrorOf("no x before a") == "13: expected 'within' after no x before a, got the end");
  CHECK(ErrorOf("no x between a or b") == "15: expected 'and' after between a, got 'or'");
  CHECK(ErrorOf("no and") == "3: expected a selection name, got 'and'");
  CHECK(ErrorOf("a and same node") == "11: expected 'gpu', 'container' or 'boot' after same, got 'node'");
}

TEST_CASE("Condition: no x between a and b, no x after a") {
  ConditionError error;
  auto c = ParseCondition("no r between k and e and e after k within 10m", nullptr, &error);
  REQUIRE_MESSAGE(c, error.message);
  // What must not lie between is read like a selection under not.
  CHECK(ConditionSelections(*c, false) == std::vector<std::string>{"k", "e", "r"});
  CHECK(ConditionSelections(*c, true) == std::vector<std::string>{"k", "e"});
  CHECK(RequiredSelections(*c) == std::vector<std::string>{"k", "e"});
  // A start at 10 s, a rejection at 20 s; a registration at 15 s lies between, one at 30 s does not.
  SelectionRows rows{{"k", {At(10)}}, {"e", {At(20)}}, {"r", {At(30)}}};
  CHECK(TruthOf("no r between k and e", rows, {}) == "true");
  CHECK(TruthOf("no r after k", rows, {}) == "false");
  CHECK(TruthOf("no r after e", rows, {}) == "false");
  rows["r"].push_back(At(15));
  CHECK(TruthOf("no r between k and e", rows, {}) == "false");
  // The rows of a must come before those of b.
  CHECK(TruthOf("no x between e and k", rows, {}) == "false");
  CHECK(TruthOf("no x between k and e", rows, {}) == "true");
  // Not captured, x may lie between; an x without a time may lie anywhere.
  CHECK(TruthOf("no x between k and e", rows, {"x"}) == "unknown");
  SelectionRows untimed{{"k", {At(10)}}, {"e", {At(20)}}, {"r", {SelectionRow{}}}};
  CHECK(TruthOf("no r between k and e", untimed, {}) == "unknown");
}

TEST_CASE("Condition: in one log a later line is later, stamped or not") {
  auto line = [](int64_t n) {
    SelectionRow r;
    r.artifact_id = 7;
    r.line = n;
    return r;
  };
  // A hand-saved journal without times: started at line 1, shut down at line 2.
  SelectionRows rows{{"shutdown", {line(2)}}, {"start", {line(1)}}};
  Decision d = Decide(*ParseCondition("shutdown and no start after shutdown", nullptr, nullptr), rows, {});
  CHECK(d.truth == Truth::kTrue);
  rows["start"].push_back(line(3));
  d = Decide(*ParseCondition("shutdown and no start after shutdown", nullptr, nullptr), rows, {});
  CHECK(d.truth == Truth::kFalse);
  // A row of another log without a time may lie anywhere.
  SelectionRow elsewhere;
  elsewhere.artifact_id = 8;
  rows["start"] = {line(1), elsewhere};
  d = Decide(*ParseCondition("shutdown and no start after shutdown", nullptr, nullptr), rows, {});
  CHECK(d.truth == Truth::kUnknown);
}

TEST_CASE("Condition: no x before a within W looks back that far from a row of a") {
  // A failure at 10 s, the wait at 12 s; an older failure at 2 s.
  SelectionRows rows{{"failure", {At(10)}}, {"wait", {At(12)}}};
  CHECK(TruthOf("no failure before wait within 5s", rows, {}) == "false");
  CHECK(TruthOf("no failure before wait within 1s", rows, {}) == "true");
  rows["failure"] = {At(2)};
  CHECK(TruthOf("no failure before wait within 5s", rows, {}) == "true");
  // A failure after the wait is not before it.
  rows["failure"] = {At(13)};
  CHECK(TruthOf("no failure before wait within 5s", rows, {}) == "true");
  // Where the precision decides it, and where failures were not captured, it is unknown.
  SelectionRow second = At(6);  // somewhere in [6 s, 7 s): 5 to 6 s before the wait
  second.precision_ns = 1'000'000'000;
  rows["failure"] = {second};
  CHECK(TruthOf("no failure before wait within 5500ms", rows, {}) == "unknown");
  CHECK(TruthOf("no failure before wait within 7s", rows, {}) == "false");
  CHECK(TruthOf("no x before wait within 5s", rows, {"x"}) == "unknown");
  // The first of a burst: a row is not before itself, whatever its precision.
  SelectionRow start = At(100), socket = At(101);
  start.precision_ns = 1'000;
  SelectionRows starts{{"start", {start, socket}}};
  Decision first = Decide(*ParseCondition("start and no start before start within 10s", nullptr, nullptr), starts, {});
  CHECK(first.truth == Truth::kTrue);
  CHECK(first.bound["start"] == std::vector<size_t>{0});
}

TEST_CASE("Condition: the selections it names and those it requires") {
  ConditionError error;
  auto c = ParseCondition("(a or b and c) and not d and e before f", nullptr, &error);
  REQUIRE(c);
  CHECK(ConditionSelections(*c, false) == std::vector<std::string>{"a", "b", "c", "d", "e", "f"});
  CHECK(ConditionSelections(*c, true) == std::vector<std::string>{"a", "b", "c", "e", "f"});
  CHECK(RequiredSelections(*c) == std::vector<std::string>{"e", "f"});
  auto both = ParseCondition("a and b or a and count(c) >= 1", nullptr, &error);
  REQUIRE(both);
  CHECK(RequiredSelections(*both) == std::vector<std::string>{"a"});
}

TEST_CASE("Condition: evidence not captured is unknown, never false (Kleene logic)") {
  // a has a row, b returned none from a captured log, x was not captured.
  SelectionRows rows{{"a", {At(1)}}, {"b", {}}};
  UnknownSelections unknown{"x"};
  CHECK(TruthOf("x", rows, unknown) == "unknown");
  CHECK(TruthOf("not x", rows, unknown) == "unknown");
  CHECK(TruthOf("not b", rows, unknown) == "true");
  CHECK(TruthOf("a and not x", rows, unknown) == "unknown");
  CHECK(TruthOf("b and not x", rows, unknown) == "false");
  CHECK(TruthOf("a or x", rows, unknown) == "true");
  CHECK(TruthOf("b or x", rows, unknown) == "unknown");
  CHECK(TruthOf("count(x) == 0", rows, unknown) == "unknown");
  CHECK(TruthOf("count(b) == 0", rows, unknown) == "true");
  CHECK(TruthOf("x before a", rows, unknown) == "unknown");
  CHECK(TruthOf("b before a", rows, unknown) == "false");
  CHECK(TruthOf("a within 1s of x", rows, unknown) == "unknown");
  // Two-valued evaluation is the same with nothing unknown.
  CHECK(TruthOf("a and not b", rows, {}) == "true");
  CHECK(Holds("a and not x", rows));
}

}  // TEST_SUITE

}  // namespace gpuf
