#include "analyzer/rules/rule_engine.h"

#include <doctest/doctest.h>

#include "analyzer/rules/rule_lint.h"
#include "analyzer/rules/rule_parser.h"
#include "analyzer/rules/sample_fixture.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

// A rule around `body` (select, outcomes and anything else), with stock
// header fields and samples.
std::string RuleText(const std::string& id, const std::string& body) {
  return "id: " + id + "\ntitle: " + id + "\nseverity: high\ndescription: test rule\n"
         "references: [{kind: kb, url: 'https://example.com/" + id + "'}]\n" + body +
         "remediation: [Capture first.]\n"
         "samples:\n  - {name: p, expect: fail likely, logs: {journal.kernel: ['x']}}\n  - {name: n, expect: pass}\n";
}

Rule ParseRule(const std::string& id, const std::string& body) {
  auto rule = ParseRuleText("rules/" + id + ".yaml", RuleText(id, body));
  REQUIRE_MESSAGE(rule.ok(), rule.status().message());
  return *rule;
}

// The evidence every test runs on: kernel lines, a timed-out nvidia-smi.
int64_t Bundle(Database& db) {
  auto holder = ParseRuleText("rules/evidence.yaml", RuleText("evidence", R"(select: {a: {sql: SELECT 1}}
outcomes: [{result: pass}]
)") + R"(  - name: the evidence
    expect: pass
    artifacts: {host.nvidia_smi_list: timed_out}
    logs:
      journal.kernel:
        - '[1] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.183.01'
        - '[5] NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.'
        - '[6] NVRM: GPU 0000:2b:00.0: GPU has fallen off the bus.'
)");
  REQUIRE_MESSAGE(holder.ok(), holder.status().message());
  RuleMark where;
  auto bundle = BuildSampleBundle(db, holder->samples.back(), &where);
  REQUIRE_MESSAGE(bundle.ok(), bundle.status().message());
  return *bundle;
}

// A database holding the evidence above, and rules run on it.
struct Evidence {
  Database db = Create();
  int64_t bundle = Bundle(db);

  static Database Create() {
    auto db = Database::Create(":memory:");
    REQUIRE(db.ok());
    return std::move(*db);
  }

  RuleRunSummary Run(std::vector<Rule> rules) {
    RuleSet set;
    set.rules = std::move(rules);
    auto summary = RunRuleSet(db, bundle, set);
    REQUIRE_MESSAGE(summary.ok(), summary.status().message());
    return *summary;
  }
};

const RuleRun& RunOf(const RuleRunSummary& summary, const std::string& id) {
  for (const auto& run : summary.runs) {
    if (run.rule_id == id) return run;
  }
  FAIL("no run of " << id);
  return summary.runs.front();
}

const char* kXid79 = R"(requires: [journal.kernel]
optional: [plugin.systemd_scope]
select:
  xid:
    log: journal.kernel
    pattern: 'NVRM: Xid \(PCI:(?P<bus>[0-9a-f:]+)\): 79,'
  fell:
    log: journal.kernel
    pattern: 'fallen off the bus'
outcomes:
  - when: xid and fell
    result: fail
    confidence: likely
    summary: 'GPU {xid.bus} fell off the bus'
  - result: pass
missing:
  - unless: not fell
    text: a line that cannot be there
)";

}  // namespace

TEST_SUITE("rule_engine") {

TEST_CASE("RunRuleSet: a rule without its artifacts is skipped and its patterns are not matched") {
  Evidence evidence;
  auto summary = evidence.Run({ParseRule("needs-smi", R"(requires: [[host.nvidia_smi_list, plugin.nvidia_smi_list]]
select: {lost: {log: journal.kernel, pattern: 'GPU is lost'}}
outcomes: [{when: lost, result: fail, confidence: likely, summary: lost}, {result: pass}]
)"), ParseRule("xid-79", kXid79)});
  CHECK(RunOf(summary, "needs-smi").outcome == "skipped");
  CHECK(RunOf(summary, "needs-smi").reason ==
        "missing: host.nvidia_smi_list (timed_out) or plugin.nvidia_smi_list (not collected)");
  CHECK(summary.scan.patterns == 2);
  CHECK(summary.scan.lines == 3);  // each kernel line read once for both patterns
  CHECK(summary.scan.set_checks == 2);  // the driver banner holds neither prefilter
  CHECK(summary.scan.matches == 3);
}

TEST_CASE("RunRuleSet: a finding with its evidence and missing evidence, in the tables too") {
  Evidence evidence;
  auto summary = evidence.Run({ParseRule("xid-79", kXid79)});
  REQUIRE(summary.findings.size() == 1);
  const Finding& f = summary.findings[0];
  CHECK(f.summary == "GPU 0000:2b:00 fell off the bus");
  CHECK(f.severity == "high");
  CHECK(f.confidence == "likely");
  REQUIRE(f.evidence.size() == 3);
  CHECK(f.evidence[0].artifact == "journal.kernel[boot:0]");
  CHECK(f.evidence[0].line == 2);
  CHECK(f.evidence[0].time_ns == 1798761605000000000);
  CHECK(f.evidence[0].text == "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.");
  CHECK(f.missing_evidence ==
        std::vector<std::string>{"not available: plugin.systemd_scope (not collected)", "a line that cannot be there"});
  CHECK(f.remediation == std::vector<std::string>{"Capture first."});

  auto rows = evidence.db.Prepare("SELECT f.rule_id, f.severity, f.confidence, e.ordinal, e.selection, e.line, e.text, "
                          "(SELECT group_concat(text, '|') FROM finding_missing m WHERE m.finding_id = f.finding_id) "
                          "FROM findings f JOIN finding_evidence e USING (finding_id) ORDER BY e.ordinal LIMIT 1");
  REQUIRE(rows.ok());
  REQUIRE(rows->Step());
  CHECK(rows->ColumnText(0) == "xid-79");
  CHECK(rows->ColumnText(2) == "likely");
  CHECK(rows->ColumnInt(3) == 1);
  CHECK(rows->ColumnText(4) == "xid");
  CHECK(rows->ColumnInt(5) == 2);
  CHECK(rows->ColumnText(7) == "not available: plugin.systemd_scope (not collected)|a line that cannot be there");

  // A second run replaces the first.
  evidence.Run({ParseRule("xid-79", kXid79)});
  auto count = evidence.db.Prepare("SELECT (SELECT count(*) FROM findings), (SELECT count(*) FROM finding_evidence), "
                           "(SELECT count(*) FROM rule_runs)");
  REQUIRE(count.ok());
  REQUIRE(count->Step());
  CHECK(count->ColumnInt(0) == 1);
  CHECK(count->ColumnInt(1) == 3);
  CHECK(count->ColumnInt(2) == 1);
}

TEST_CASE("RunRuleSet: SQL sees earlier selections, SQL that fails makes only that rule an error") {
  Evidence evidence;
  auto summary = evidence.Run({ParseRule("correlated", R"(select:
  xid: {log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): (?P<xid>\d+)'}
  buses:
    sql: |
      SELECT artifact_id, line, time_ns, 'bus ' || json_extract(captures, '$.bus') AS text,
             CAST(json_extract(captures, '$.xid') AS INTEGER) + 1 AS next
      FROM matches WHERE selection = 'xid' AND text REGEXP 'fallen'
outcomes: [{when: buses, result: warn, confidence: possible, summary: '{buses.text} {buses.next}'}, {result: pass}]
)"), ParseRule("broken", R"(select: {bad: {sql: SELECT no_such_column FROM gpus}}
outcomes: [{result: pass}]
)")});
  CHECK(RunOf(summary, "correlated").outcome == "warn");
  CHECK(RunOf(summary, "correlated").reason == "bus 0000:2b:00 80");
  CHECK(RunOf(summary, "broken").outcome == "error");
  CHECK(RunOf(summary, "broken").reason == "selection 'bad': SQL: no such column: no_such_column");
}

TEST_CASE("RunRuleSet: a symptom defers to the rule that explains it") {
  Evidence evidence;
  auto summary = evidence.Run({ParseRule("xid-79", kXid79), ParseRule("gpu-gone", R"(explained_by: [xid-79]
select: {fell: {log: journal.kernel, pattern: 'fallen off the bus'}}
outcomes: [{when: fell, result: fail, confidence: possible, summary: a GPU is gone}, {result: pass}]
)")});
  REQUIRE(summary.findings.size() == 1);
  CHECK(summary.findings[0].rule_id == "xid-79");
  CHECK(RunOf(summary, "gpu-gone").outcome == "pass");
  CHECK(RunOf(summary, "gpu-gone").reason == "explained by xid-79: GPU 0000:2b:00 fell off the bus");
}

TEST_CASE("RunRules: a file that does not read is an error run, the others run") {
  test::TempDir dir;
  test::WriteFile(dir / "xid-79.yaml", RuleText("xid-79", kXid79));
  test::WriteFile(dir / "typo.yaml", "id: typo\nseverity: [high\n");
  Evidence evidence;
  auto summary = RunRules(evidence.db, evidence.bundle, {dir.path()});
  REQUIRE_MESSAGE(summary.ok(), summary.status().message());
  CHECK(RunOf(*summary, "xid-79").outcome == "fail");
  CHECK(RunOf(*summary, "typo").outcome == "error");
  CHECK(RunOf(*summary, "typo").reason == dir / "typo.yaml" + ":3: end of sequence flow not found\n\n^ near here");
  CHECK(RunRules(evidence.db, 1, {dir / "absent"}).status().code() == Status::Code::kNotFound);
}

TEST_CASE("LintRules: SQL is prepared and run against the empty schema") {
  test::TempDir dir;
  test::WriteFile(dir / "bad-sql.yaml", RuleText("bad-sql", R"(select:
  gpus_seen:
    sql: SELECT uuid, bus_id FROM gpus
outcomes: [{result: pass}]
)"));
  auto report = LintRules(dir.path());
  REQUIRE_MESSAGE(report.ok(), report.status().message());
  CHECK(report->rules == 1);
  REQUIRE(report->problems.size() == 1);
  CHECK(report->problems[0] == dir / "bad-sql.yaml" + ":8: sql of selection 'gpus_seen': SQL: no such column: bus_id\n"
                               "    sql: SELECT uuid, bus_id FROM gpus\n"
                               "         ^ near here");
}

}  // TEST_SUITE

}  // namespace gpuf
