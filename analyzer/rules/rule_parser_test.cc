#include "analyzer/rules/rule_parser.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

// A small complete rule; tests replace one line of it.
const std::string kRule = R"(id: xid-79-demo
title: GPU fell off the bus
severity: critical
description: Xid 79 in the kernel log.
references:
  - {kind: vendor-doc, url: 'https://docs.nvidia.com/deploy/xid-errors/', title: Xid catalog}
requires:
  - journal.kernel
select:
  xid:
    log: journal.kernel
    pattern: 'NVRM: Xid \((?:PCI:)?(?P<bus>[0-9a-fA-F:.]+)\): 79,'
  mapped:
    sql: SELECT artifact_id, line, time_ns, text FROM matches WHERE selection = 'xid'
outcomes:
  - when: xid and mapped
    result: fail
    confidence: confirmed
    summary: 'GPU {xid.bus} fell off the bus ({count(mapped)} rows)'
  - result: pass
remediation:
  - Reboot the node.
samples:
  - name: positive
    expect: fail likely
    logs:
      journal.kernel:
        - 'NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.'
  - name: negative
    expect: pass
)";

std::string With(const std::string& from, const std::string& to) {
  std::string text = kRule;
  size_t at = text.find(from);
  REQUIRE_MESSAGE(at != std::string::npos, from);
  return text.replace(at, from.size(), to);
}

std::string ErrorOf(const std::string& text, const std::string& file = "rules/xid-79-demo.yaml") {
  auto rule = ParseRuleText(file, text);
  REQUIRE_FALSE(rule.ok());
  CHECK(rule.status().code() == Status::Code::kBadInput);
  return rule.status().message();
}

}  // namespace

TEST_SUITE("rule_parser") {

TEST_CASE("ParseRuleText: a complete rule") {
  auto rule = ParseRuleText("rules/xid-79-demo.yaml", kRule);
  REQUIRE_MESSAGE(rule.ok(), rule.status().message());
  CHECK(rule->id == "xid-79-demo");
  CHECK(rule->severity == "critical");
  REQUIRE(rule->references.size() == 1);
  CHECK(rule->references[0].kind == "vendor-doc");
  CHECK(rule->required_artifacts == std::vector<std::vector<std::string>>{{"journal.kernel"}});
  REQUIRE(rule->selections.size() == 2);
  CHECK(rule->selections[0].kind == Selection::Kind::kLog);
  CHECK(rule->selections[1].kind == Selection::Kind::kSql);
  REQUIRE(rule->outcomes.size() == 2);
  CHECK(rule->outcomes[0].condition != nullptr);
  CHECK(rule->outcomes[1].condition == nullptr);
  REQUIRE(rule->samples.size() == 2);
  CHECK(rule->samples[0].expect_confidence == "likely");
  REQUIRE(rule->samples[0].lines.size() == 1);
  CHECK(rule->samples[0].lines[0].artifact == "journal.kernel");
  CHECK_FALSE(rule->samples[0].lines[0].time_ns);
}

TEST_CASE("ParseRuleText: a bad value, with the line and a caret") {
  CHECK(ErrorOf(With("severity: critical", "severity: hgih")) ==
        "rules/xid-79-demo.yaml:3: unknown severity 'hgih' (critical, high, medium, low, info)\n"
        "severity: hgih\n"
        "          ^ near here");
}

TEST_CASE("ParseRuleText: an unknown field") {
  CHECK(ErrorOf(With("title: GPU", "titel: GPU")) ==
        "rules/xid-79-demo.yaml:2: unknown field 'titel' in a rule (id, title, description, severity, references, "
        "requires, optional, select, outcomes, missing, remediation, explained_by, samples)\n"
        "titel: GPU fell off the bus\n"
        "^ near here");
}

TEST_CASE("ParseRuleText: YAML syntax errors come from yaml-cpp, in the same form") {
  CHECK(ErrorOf(With("title: GPU fell off the bus", "title: GPU: fell off the bus")) ==
        "rules/xid-79-demo.yaml:2: illegal map value\n"
        "title: GPU: fell off the bus\n"
        "          ^ near here");
}

TEST_CASE("ParseRuleText: the id must be the file stem") {
  CHECK(ErrorOf(kRule, "rules/xid-79.yaml") ==
        "rules/xid-79.yaml:1: id 'xid-79-demo' differs from the file name 'xid-79'\n"
        "id: xid-79-demo\n"
        "    ^ near here");
}

TEST_CASE("ParseRuleText: a pattern that does not compile") {
  CHECK(ErrorOf(With(R"(\): 79,')", R"(\): 79,(')")) ==
        "rules/xid-79-demo.yaml:12: pattern does not compile: missing ): "
        "NVRM: Xid \\((?:PCI:)?(?P<bus>[0-9a-fA-F:.]+)\\): 79,(\n"
        "    pattern: 'NVRM: Xid \\((?:PCI:)?(?P<bus>[0-9a-fA-F:.]+)\\): 79,('\n"
        "             ^ near here");
}

TEST_CASE("ParseRuleText: a condition error points into the condition") {
  CHECK(ErrorOf(With("when: xid and mapped", "when: xid and maped")) ==
        "rules/xid-79-demo.yaml:16: unknown selection 'maped'\n"
        "  - when: xid and maped\n"
        "                  ^ near here");
}

TEST_CASE("ParseRuleText: a summary reads only what its condition guarantees") {
  CHECK(ErrorOf(With("when: xid and mapped", "when: xid or mapped")) ==
        "rules/xid-79-demo.yaml:19: the summary reads 'xid', which the outcome's condition does not require\n"
        "    summary: 'GPU {xid.bus} fell off the bus ({count(mapped)} rows)'\n"
        "                  ^ near here");
}

TEST_CASE("ParseRuleText: samples need a positive and a negative") {
  CHECK(ErrorOf(With("    expect: pass\n", "    expect: fail possible\n")) ==
        "rules/xid-79-demo.yaml:24: samples need at least one positive (fail or warn) and one negative (pass) sample\n"
        "  - name: positive\n"
        "  ^ near here");
}

TEST_CASE("ParseRuleText: SQL must be a SELECT") {
  CHECK(ErrorOf(With("sql: SELECT artifact_id", "sql: DELETE FROM findings; SELECT artifact_id")) ==
        "rules/xid-79-demo.yaml:14: sql must be one SELECT statement (or WITH ... SELECT)\n"
        "    sql: DELETE FROM findings; SELECT artifact_id, line, time_ns, text F...\n"
        "         ^ near here");
}

}  // TEST_SUITE

}  // namespace gpuf
