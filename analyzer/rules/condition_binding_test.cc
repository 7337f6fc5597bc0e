#include "analyzer/rules/condition_binding.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

SelectionRow Row(int64_t seconds, std::string gpu = "", std::string container = "") {
  SelectionRow row;
  row.time_ns = seconds * 1'000'000'000;
  row.precision_ns = 1;  // exact
  row.text = "t=" + std::to_string(seconds) + (gpu.empty() ? "" : " gpu=" + gpu);
  if (!gpu.empty()) row.gpu = gpu;
  if (!container.empty()) row.container = container;
  return row;
}

Decision DecideText(std::string_view text, const SelectionRows& rows, const UnknownSelections& unknown = {}) {
  ConditionError error;
  auto c = ParseCondition(text, nullptr, &error);
  REQUIRE_MESSAGE(c, error.message);
  return Decide(*c, rows, unknown);
}

std::string TruthOf(std::string_view text, const SelectionRows& rows, const UnknownSelections& unknown = {}) {
  return TruthName(DecideText(text, rows, unknown).truth);
}

}  // namespace

TEST_SUITE("condition_binding") {

TEST_CASE("Binding: the window and the GPU must hold for one pair of rows together") {
  // Xid on GPU a at 100 s; the plugin marks GPU b unhealthy at 110 s and GPU a at 4000 s.
  SelectionRows rows{{"xid", {Row(100, "a")}}, {"unhealthy", {Row(110, "b"), Row(4000, "a")}}};
  CHECK(TruthOf("xid and unhealthy within 2m of xid", rows) == "true");
  CHECK(TruthOf("xid and unhealthy and same gpu", rows) == "true");
  // Each holds on its own rows; no one pair satisfies both.
  CHECK(TruthOf("xid and unhealthy within 2m of xid and same gpu", rows) == "false");
  rows["unhealthy"].push_back(Row(130, "a"));
  CHECK(TruthOf("xid and unhealthy within 2m of xid and same gpu", rows) == "true");
}

TEST_CASE("Binding: the evidence is the rows that took part") {
  SelectionRows rows{{"xid", {Row(100, "a"), Row(200, "c")}},
                     {"unhealthy", {Row(110, "b"), Row(130, "a"), Row(4000, "a")}}};
  ConditionError error;
  auto c = ParseCondition("xid and unhealthy within 2m of xid and same gpu", nullptr, &error);
  REQUIRE(c);
  Decision d = Decide(*c, rows, {});
  REQUIRE(d.truth == Truth::kTrue);
  CHECK(d.bound["xid"] == std::vector<size_t>{0});
  CHECK(d.bound["unhealthy"] == std::vector<size_t>{1});
  // Context the condition does not read is cut to the GPU it tied; a row
  // that names no GPU stays.
  rows["remapped"] = {Row(50, "a"), Row(60, "c"), Row(70)};
  SelectionRows view = BoundView(rows, d.bound, *c);
  REQUIRE(view["unhealthy"].size() == 1);
  CHECK(view["unhealthy"][0].text == "t=130 gpu=a");
  REQUIRE(view["remapped"].size() == 2);
  CHECK(view["remapped"][0].text == "t=50 gpu=a");
  CHECK(view["remapped"][1].text == "t=70");
  // Without `same gpu` the finding is about no one GPU: context stays whole.
  auto loose = ParseCondition("xid and unhealthy within 2m of xid", nullptr, &error);
  REQUIRE(loose);
  CHECK(BoundView(rows, Decide(*loose, rows, {}).bound, *loose)["remapped"].size() == 3);
}

TEST_CASE("Binding: a row that names no GPU goes with any") {
  SelectionRows rows{{"xid", {Row(100, "a")}}, {"all_unhealthy", {Row(105)}}};
  CHECK(TruthOf("all_unhealthy after xid within 30s and same gpu", rows) == "true");
  CHECK(TruthOf("all_unhealthy before xid within 30s and same gpu", rows) == "false");
}

TEST_CASE("Binding: same container compares short and full IDs") {
  std::string full = "4f1c2a9b7e3d5a6c8b0e1f2d3c4b5a69788796a5b4c3d2e1f0a9b8c7d6e5f4a3";
  SelectionRows rows{{"start", {Row(10, "", full)}}, {"reload", {Row(20, "", "4f1c2a9b7e3d5")}}};
  CHECK(TruthOf("reload after start within 1m and same container", rows) == "true");
  rows["reload"] = {Row(20, "", "99aa2a9b7e3d5")};
  CHECK(TruthOf("reload after start within 1m and same container", rows) == "false");
}

TEST_CASE("Binding: three-valued, with what was not captured") {
  SelectionRows rows{{"xid", {Row(100, "a")}}};
  CHECK(TruthOf("xid and unhealthy within 2m of xid and same gpu", rows, {"unhealthy"}) == "unknown");
  CHECK(TruthOf("xid and unhealthy within 2m of xid and same gpu", rows) == "false");
  // An unbound false decides a branch whatever is unknown.
  CHECK(TruthOf("missing and unhealthy within 2m of xid", rows, {"unhealthy"}) == "false");
  CHECK(TruthOf("xid and not unhealthy", rows, {"unhealthy"}) == "unknown");
}

TEST_CASE("Binding: each or branch binds on its own, under De Morgan") {
  SelectionRows rows{{"xid", {Row(100, "a")}}, {"unhealthy", {Row(110, "b")}}, {"lost", {Row(300, "a")}}};
  CHECK(TruthOf("xid and (unhealthy within 2m of xid or lost within 10m of xid) and same gpu", rows) == "true");
  Decision d = DecideText("xid and (unhealthy within 2m of xid or lost within 10m of xid) and same gpu", rows);
  CHECK(d.bound["unhealthy"].empty());  // read by the condition, bound by no true branch
  CHECK(d.bound["lost"] == std::vector<size_t>{0});
  CHECK(TruthOf("not (not xid or not lost)", rows) == "true");
}

TEST_CASE("Binding: ordering stays strict and bounded") {
  SelectionRows rows{{"a", {Row(100)}}, {"b", {Row(100), Row(161)}}};
  CHECK(TruthOf("a before b within 1m", rows) == "false");
  CHECK(TruthOf("a before b within 61s", rows) == "true");
  CHECK(TruthOf("a within 0s of b", rows) == "true");
}

TEST_CASE("Binding: where a time's precision decides the window, the branch is unknown, not false") {
  // An Xid on GPU a at 100 s; the plugin's line on GPU a stamped to the second at 102 s.
  SelectionRows rows{{"xid", {Row(100, "a")}}, {"unhealthy", {Row(102, "a")}}};
  rows["unhealthy"][0].precision_ns = 1'000'000'000;
  CHECK(TruthOf("xid before unhealthy within 2s and same gpu", rows) == "unknown");
  CHECK(TruthOf("xid before unhealthy within 3s and same gpu", rows) == "true");
  CHECK(TruthOf("xid before unhealthy within 1s and same gpu", rows) == "false");
  // A certain binding elsewhere decides it, and is the evidence.
  rows["unhealthy"].push_back(Row(101, "a"));
  Decision d = DecideText("xid before unhealthy within 2s and same gpu", rows);
  CHECK(d.truth == Truth::kTrue);
  CHECK(d.bound["unhealthy"] == std::vector<size_t>{1});
}

TEST_CASE("Binding: same cannot be negated") {
  ConditionError error;
  CHECK_FALSE(ParseCondition("xid and not (a and same gpu)", nullptr, &error));
  CHECK(error.message.find("cannot be negated") != std::string::npos);
  CHECK_FALSE(ParseCondition("xid and same host", nullptr, &error));
  CHECK(error.message.find("'gpu', 'container' or 'boot'") != std::string::npos);
}

TEST_CASE("Binding: many rows stay within the budget and keep every participant") {
  SelectionRows rows;
  for (int i = 0; i < 5000; ++i) {
    rows["xid"].push_back(Row(i * 10, i % 2 ? "a" : "b"));
    rows["unhealthy"].push_back(Row(i * 10 + 1, i % 2 ? "a" : "b"));
  }
  Decision d = DecideText("xid and unhealthy within 5s of xid and same gpu", rows);
  CHECK(d.truth == Truth::kTrue);
  CHECK(d.bound["xid"].size() == 5000);
  CHECK(d.bound["unhealthy"].size() == 5000);
}

TEST_CASE("Binding: no x between a and b binds a and b with the branch's other operators") {
  // Kubelet starts at 100 s and 500 s, a registration at 110 s; a rejection
  // at 120 s (after the registration) and one at 510 s (none since the start).
  SelectionRows rows{{"start", {Row(100), Row(500)}}, {"reg", {Row(110)}}, {"reject", {Row(120), Row(510)}}};
  Decision d = DecideText("reject after start within 60s and no reg between start and reject", rows);
  REQUIRE(d.truth == Truth::kTrue);
  CHECK(d.bound["start"] == std::vector<size_t>{1});
  CHECK(d.bound["reject"] == std::vector<size_t>{1});
  CHECK(d.bound.count("reg") == 0);
  // Take the later rejection away: the first one follows the registration.
  rows["reject"].pop_back();
  CHECK(TruthOf("reject after start within 60s and no reg between start and reject", rows) == "false");
  // `no x after a`: the last start with no registration after it.
  CHECK(TruthOf("reg before start within 1m and no reg after start", rows) == "false");
  rows["reg"] = {Row(90)};
  Decision last = DecideText("reg before start within 1m and no reg after start", rows);
  CHECK(last.truth == Truth::kTrue);
  CHECK(last.bound["start"] == std::vector<size_t>{0});
}

TEST_CASE("Binding: what must not lie between is only what goes with the bound rows") {
  // Container a fails at 10 s and waits at 11 s; container b registers at 10.5 s.
  SelectionRow reg_b = Row(10, "", "b");
  reg_b.time_ns = *reg_b.time_ns + 500'000'000;
  SelectionRows rows{{"failure", {Row(10, "", "a")}}, {"wait", {Row(11, "", "a")}}, {"reg", {reg_b}}};
  CHECK(TruthOf("failure before wait within 5s and no reg between failure and wait", rows) == "false");
  CHECK(TruthOf("failure before wait within 5s and no reg between failure and wait and same container", rows) ==
        "true");
  // A registration of container a itself, or one that names no container, still closes it.
  rows["reg"].push_back(Row(10, "", "a"));
  rows["reg"].back().time_ns = *rows["reg"].back().time_ns + 600'000'000;
  CHECK(TruthOf("failure before wait within 5s and no reg between failure and wait and same container", rows) ==
        "false");
  rows["reg"].back().container.reset();
  CHECK(TruthOf("failure before wait within 5s and no reg between failure and wait and same container", rows) ==
        "false");
  // Looking back likewise: another container's failure before a wait is not this one's.
  SelectionRows waits{{"wait", {Row(11, "", "a")}}, {"failure", {Row(10, "", "b")}}};
  CHECK(TruthOf("wait and no failure before wait within 5s", waits) == "false");
  CHECK(TruthOf("wait and no failure before wait within 5s and same container", waits) == "true");
}

TEST_CASE("Binding: same boot keeps a pair within one boot, rows that cannot be placed go with any") {
  auto in_boot = [](int64_t seconds, std::optional<int64_t> boot) {
    SelectionRow r = Row(seconds);
    r.boot = boot;
    return r;
  };
  // A failure at the end of the boot before, the driver loading 90 s later in the new one.
  SelectionRows rows{{"failure", {in_boot(100, -1)}}, {"driver", {in_boot(190, 0)}}};
  CHECK(TruthOf("failure before driver within 10m", rows) == "true");
  CHECK(TruthOf("failure before driver within 10m and same boot", rows) == "false");
  rows["failure"].push_back(in_boot(150, 0));
  CHECK(TruthOf("failure before driver within 10m and same boot", rows) == "true");
  SelectionRows unplaced{{"failure", {in_boot(100, std::nullopt)}}, {"driver", {in_boot(190, 0)}}};
  CHECK(TruthOf("failure before driver within 10m and same boot", unplaced) == "true");
}

TEST_CASE("Binding: a selection not captured leaves a branch open, unless an ordering fails on its own rows") {
  // works_now was not captured; the failure came 600 s after the driver.
  SelectionRows rows{{"failure", {Row(700)}}, {"driver", {Row(100)}}};
  UnknownSelections unknown{"works_now"};
  CHECK(TruthOf("failure after driver within 10s and same boot and works_now", rows, unknown) == "false");
  CHECK(TruthOf("failure after driver within 10m and same boot and works_now", rows, unknown) == "unknown");
  // In two boots, no pair can be of one boot whatever works_now would show.
  rows["failure"][0].boot = 0;
  rows["driver"][0].boot = -1;
  CHECK(TruthOf("failure after driver within 10m and same boot and works_now", rows, unknown) == "false");
}

}  // TEST_SUITE

}  // namespace gpuf
