#include "analyzer/rules/confirming_pieces.h"

#include <doctest/doctest.h>

#include "analyzer/rules/rule_parser.h"

namespace gpuf {

namespace {

// An Xid rule: the kernel line is the event, the plugin's unhealthy mark
// of the same GPU and the GPU gone from NVML confirm it, the driver's
// version frames it.
Rule XidRule(const std::string& outcome) {
  const std::string text = R"(id: xid
title: xid
severity: high
description: test rule
symptom: gpu-fault
role: cause
references: [{kind: kb, url: 'https://example.com/xid'}]
select:
  xid: {kind: event, log: [journal.kernel], pattern: 'Xid'}
  unhealthy: {kind: event, log: [plugin.log], pattern: 'unhealthy'}
  gone: {kind: event, sql: SELECT 1}
  driver: {kind: context, sql: SELECT 1}
outcomes:
  - )" + outcome + R"(
    result: fail
    summary: an Xid
    catalog: '3.12'
  - result: pass
confirms:
  - {when: xid, text: no kernel Xid line}
  - {when: unhealthy within 2m of xid and same gpu, text: no unhealthy mark of its GPU}
  - {when: gone and same gpu, text: the GPU still listed}
remediation: [Drain the node.]
samples:
  - {name: p, expect: fail likely, logs: {journal.kernel: ['x']}}
  - {name: n, expect: pass, near_miss: true}
  - {name: m, expect: pass, near_miss: true}
)";
  auto rule = ParseRuleText("rules/xid.yaml", text);
  REQUIRE_MESSAGE(rule.ok(), rule.status().message());
  return *rule;
}

SelectionRow Row(int64_t seconds, const std::string& gpu) {
  SelectionRow row;
  row.artifact_id = 1;
  row.time_ns = seconds * 1'000'000'000;
  row.text = "a line";
  row.gpu = gpu;
  return row;
}

std::string Start(const Rule& rule, const SelectionRows& rows, const UnknownSelections& unknown = {}) {
  ConfidenceSteps steps = StartingConfidence(rule, rule.outcomes[0], rows, DecidePieces(rule, rows, unknown));
  return steps.Line();
}

}  // namespace

TEST_CASE("StartingConfidence: every piece held over the bound rows is confirmed") {
  Rule rule = XidRule("when: xid");
  SelectionRows rows = {
      {"xid", {Row(10, "0000:2b:00.0")}}, {"unhealthy", {Row(20, "0000:2b:00.0")}}, {"gone", {Row(0, "0000:2b:00.0")}}};
  rows["gone"][0].time_ns.reset();
  CHECK(Start(rule, rows) == "confirmed: all 3 confirming pieces observed");
}

TEST_CASE("StartingConfidence: a piece about another GPU, or not captured, is absent") {
  Rule rule = XidRule("when: xid");
  SelectionRows rows = {
      {"xid", {Row(10, "0000:2b:00.0")}}, {"unhealthy", {Row(20, "0000:5e:00.0")}}, {"gone", {Row(0, "0000:2b:00.0")}}};
  CHECK(Start(rule, rows) == "likely: 1 of 3 confirming pieces absent (not observed: no unhealthy mark of its GPU)");

  rows["unhealthy"].clear();
  CHECK(Start(rule, rows, {"unhealthy"}) ==
        "likely: 1 of 3 confirming pieces absent (not captured: no unhealthy mark of its GPU)");

  rows["gone"].clear();
  CHECK(Start(rule, rows, {"unhealthy"}) == "possible: 2 of 3 confirming pieces absent");
}

TEST_CASE("StartingConfidence: an outcome that observed no event is possible, whatever holds") {
  Rule rule = XidRule("when: driver");
  SelectionRows rows = {{"xid", {Row(10, "0000:2b:00.0")}}, {"driver", {Row(1, "0000:2b:00.0")}}};
  CHECK(Start(rule, rows) == "possible: no event of it observed, only what exposes the node to it");
}

TEST_CASE("StartingConfidence: an outcome's literal word stands as written") {
  Rule rule = XidRule("when: xid\n    confidence: likely");
  SelectionRows rows = {{"xid", {Row(10, "0000:2b:00.0")}}};
  CHECK(Start(rule, rows) == "likely: as its outcome says");
}

}  // namespace gpuf
