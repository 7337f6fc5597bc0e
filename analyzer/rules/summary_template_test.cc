#include "analyzer/rules/summary_template.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("rule_summary_template") {

TEST_CASE("RenderTemplate: distinct values, counts, builtin fields, (none)") {
  SelectionRow a;
  a.text = "first";
  a.line = 7;
  a.time_ns = 1794971897378842643;
  a.fields = {{"bus", "0000:2b:00"}, {"xid", "79"}};
  SelectionRow b = a;
  b.fields = {{"bus", "0000:3b:00"}, {"xid", "79"}};
  SelectionRows rows{{"xid", {a, b}}, {"empty", {}}};
  CHECK(RenderTemplate("Xid {xid.xid} on {xid.bus} ({count(xid)} lines)", rows) ==
        "Xid 79 on 0000:2b:00, 0000:3b:00 (2 lines)");
  CHECK(RenderTemplate("{xid.text} at line {xid.line}, {xid.time}", rows) ==
        "first at line 7, 2026-11-18T03:18:17.378842643Z");
  CHECK(RenderTemplate("{empty.text} {count(empty)} {xid.nope}", rows) == "(none) 0 (none)");
  CHECK(RenderTemplate("braces { left alone", rows) == "braces { left alone");
}

TEST_CASE("RenderTemplate: at most five values") {
  SelectionRows rows;
  for (int i = 0; i < 7; ++i) {
    SelectionRow r;
    r.fields = {{"n", std::to_string(i)}};
    rows["s"].push_back(r);
  }
  CHECK(RenderTemplate("{s.n}", rows) == "0, 1, 2, 3, 4, ... (7 in all)");
}

TEST_CASE("CheckTemplate: placeholders name selections") {
  CHECK_FALSE(CheckTemplate("{a.b} {count(a)}", {"a"}));
  auto unknown = CheckTemplate("ok {c.d}", {"a"});
  REQUIRE(unknown);
  CHECK(unknown->offset == 3);
  CHECK(unknown->message == "unknown selection 'c'");
  auto bad = CheckTemplate("{nodot}", {"a"});
  REQUIRE(bad);
  CHECK(bad->message == "a placeholder is {selection.field}, {count(selection)} or {seconds(from, until)}");
  CHECK(TemplateFieldSelections("{a.b} {count(c)} {d.e}") ==
        std::vector<std::pair<size_t, std::string>>{{0, "a"}, {17, "d"}});
  CHECK_FALSE(CheckTemplate("{seconds(a, b)}", {"a", "b"}));
  auto until = CheckTemplate("{seconds(a, c)}", {"a", "b"});
  REQUIRE(until);
  CHECK(until->message == "unknown selection 'c'");
  CHECK(TemplateFieldSelections("{seconds(a, b)}") == std::vector<std::pair<size_t, std::string>>{{0, "a"}, {0, "b"}});
}

TEST_CASE("RenderTemplate: seconds from one selection's first timed row to another's") {
  auto at = [](std::optional<int64_t> ns, int64_t precision_ns = 1000) {
    SelectionRow r;
    r.time_ns = ns;
    r.precision_ns = precision_ns;
    return r;
  };
  SelectionRows rows{{"registered", {at(std::nullopt), at(1'000'000'000)}},
                     {"restart", {at(1'000'040'000)}},
                     {"later", {at(3'500'000'000)}},
                     {"soon", {at(1'091'364'000)}},
                     {"untimed", {at(std::nullopt)}},
                     {"whole_second", {at(1'000'000'000, 1'000'000'000)}},
                     {"next_second", {at(2'000'000'000, 1'000'000'000)}}};
  CHECK(RenderTemplate("{seconds(registered, restart)} s", rows) == "0.000040 s");
  CHECK(RenderTemplate("{seconds(registered, later)}", rows) == "2.5");
  CHECK(RenderTemplate("{seconds(registered, soon)}", rows) == "0.091");
  CHECK(RenderTemplate("{seconds(later, registered)}", rows) == "-2.5");
  CHECK(RenderTemplate("{seconds(registered, untimed)}", rows) == "(none)");
  // Stamps to the second: as exact as the coarser one.
  CHECK(RenderTemplate("{seconds(registered, whole_second)} s", rows) == "under 1 s");
  CHECK(RenderTemplate("{seconds(whole_second, next_second)}", rows) == "1");
}

}  // TEST_SUITE

}  // namespace gpuf
