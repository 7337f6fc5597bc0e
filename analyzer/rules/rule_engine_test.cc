#include "analyzer/rules/rule_engine.h"

#include <doctest/doctest.h>

#include "analyzer/rules/engine_selections.h"
#include "analyzer/rules/rule_lint.h"
#include "analyzer/rules/rule_parser.h"
#include "analyzer/rules/sample_fixture.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

// A rule around `body` (select, outcomes and anything else), with stock
// header fields and samples.
std::string RuleText(const std::string& id, const std::string& body) {
  return "id: " + id + "\ntitle: " + id + "\nseverity: high\ndescription: test rule\nsymptom: gpu-fault\nrole: cause\n"
         "references: [{kind: kb, url: 'https://example.com/" + id + "'}]\n" + body +
         "remediation: [Drain the node.]\n"
         "samples:\n  - {name: p, expect: fail likely, logs: {journal.kernel: ['x']}}\n"
         "  - {name: n, expect: pass, near_miss: true}\n  - {name: m, expect: pass, near_miss: true}\n";
}

Rule ParseRule(const std::string& id, const std::string& body) {
  auto rule = ParseRuleText("rules/" + id + ".yaml", RuleText(id, body));
  REQUIRE_MESSAGE(rule.ok(), rule.status().message());
  return *rule;
}

// The evidence every test runs on: kernel lines, a timed-out nvidia-smi.
int64_t Bundle(Database& db) {
  auto holder = ParseRuleText("rules/evidence.yaml", RuleText("evidence", R"(select: {a: {kind: context, sql: SELECT 1}}
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
  YamlMark where;
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
    kind: event
    log: journal.kernel
    pattern: 'NVRM: Xid \(PCI:(?P<bus>[0-9a-f:]+)\): 79,'
  fell:
    kind: event
    log: journal.kernel
    pattern: 'fallen off the bus'
outcomes:
  - when: xid and fell
    result: fail
    confidence: likely
    catalog: 3.12 CONSISTENT
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
select: {lost: {kind: event, log: journal.kernel, pattern: 'GPU is lost'}}
outcomes: [{when: lost, result: fail, confidence: likely, catalog: test, summary: lost}, {result: pass}]
)"), ParseRule("xid-79", kXid79)});
  CHECK(RunOf(summary, "needs-smi").outcome == RuleOutcome::kSkipped);
  CHECK(RunOf(summary, "needs-smi").reason ==
        "missing: host.nvidia_smi_list (timed_out) or plugin.nvidia_smi_list (not collected)");
  // xid-79's two, and the engine's own wordings: the lines that name a GPU
  // ("GPU at PCI", an Xid, a fall off the bus, a failed initialisation) and
  // the plugin's registration, as many as the catalogue has.
  CHECK(summary.scan.patterns == 2 + GpuNamesSelection()->patterns.size() + RegistrationsSelection()->patterns.size());
  CHECK(summary.scan.lines == 3);       // each kernel line read once for every pattern
  CHECK(summary.scan.set_checks == 2);  // the driver banner holds neither prefilter
  CHECK(summary.scan.matches == 3 + 2);  // the Xid and fallen-off lines, for xid-79 and the engine
}

TEST_CASE("RunRuleSet: a finding with its evidence and missing evidence, in the tables too") {
  Evidence evidence;
  auto summary = evidence.Run({ParseRule("xid-79", kXid79)});
  REQUIRE(summary.findings.size() == 1);
  const Finding& f = summary.findings[0];
  CHECK(f.summary == "GPU 0000:2b:00 fell off the bus");
  CHECK(f.severity == Severity::kHigh);
  CHECK(f.confidence == Confidence::kLikely);
  REQUIRE(f.evidence.size() == 3);
  CHECK(f.evidence[0].artifact == "journal.kernel[boot:0]");
  CHECK(f.evidence[0].line == 2);
  CHECK(f.evidence[0].time_ns == 1798761605000000000);
  CHECK(f.evidence[0].text == "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.");
  CHECK(f.missing_evidence ==
        std::vector<std::string>{"not available: plugin.systemd_scope (not collected)", "a line that cannot be there"});
  CHECK(f.remediation == std::vector<std::string>{"Drain the node."});

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
  xid: {kind: event, log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): (?P<xid>\d+)'}
  buses:
    kind: event
    sql: |
      SELECT artifact_id, line, time_ns, 'bus ' || json_extract(captures, '$.bus') AS text,
             CAST(json_extract(captures, '$.xid') AS INTEGER) + 1 AS next
      FROM matches WHERE selection = 'xid' AND text REGEXP 'fallen'
outcomes: [{when: buses, result: warn, confidence: possible, catalog: test, summary: '{buses.text} {buses.next}'}, {result: pass}]
)"), ParseRule("broken", R"(select: {bad: {kind: context, sql: SELECT no_such_column FROM gpus}}
outcomes: [{result: pass}]
)")});
  CHECK(RunOf(summary, "correlated").outcome == RuleOutcome::kWarn);
  CHECK(RunOf(summary, "correlated").reason == "bus 0000:2b:00 80");
  CHECK(RunOf(summary, "broken").outcome == RuleOutcome::kError);
  CHECK(RunOf(summary, "broken").reason == "selection 'bad': SQL: no such column: no_such_column");
}

TEST_CASE("RunRuleSet: a symptom defers to the rule that explains it") {
  Evidence evidence;
  auto summary = evidence.Run({ParseRule("xid-79", kXid79), ParseRule("gpu-gone", R"(explained_by: [xid-79]
select: {fell: {kind: event, log: journal.kernel, pattern: 'fallen off the bus'}}
outcomes: [{when: fell, result: fail, confidence: possible, catalog: test, summary: a GPU is gone}, {result: pass}]
)")});
  REQUIRE(summary.findings.size() == 1);
  CHECK(summary.findings[0].rule_id == "xid-79");
  CHECK(RunOf(summary, "gpu-gone").outcome == RuleOutcome::kPass);
  CHECK(RunOf(summary, "gpu-gone").reason == "explained by xid-79: GPU 0000:2b:00 fell off the bus");
}

TEST_CASE("RunRules: a file that does not read is an error run, the others run") {
  test::TempDir dir;
  test::WriteFile(dir / "xid-79.yaml", RuleText("xid-79", kXid79));
  test::WriteFile(dir / "typo.yaml", "id: typo\nseverity: [high\n");
  Evidence evidence;
  auto summary = RunRules(evidence.db, evidence.bundle, {dir.path()});
  REQUIRE_MESSAGE(summary.ok(), summary.status().message());
  CHECK(RunOf(*summary, "xid-79").outcome == RuleOutcome::kFail);
  CHECK(RunOf(*summary, "typo").outcome == RuleOutcome::kError);
  CHECK(RunOf(*summary, "typo").reason == dir / "typo.yaml" + ":3: end of sequence flow not found\n\n^ near here");
  CHECK(RunRules(evidence.db, 1, {dir / "absent"}).status().code() == Status::Code::kNotFound);
}

TEST_CASE("LintRules: SQL is prepared and run against the empty schema") {
  test::TempDir dir;
  test::WriteFile(dir / "bad-sql.yaml", RuleText("bad-sql", R"(select:
  gpus_seen:
    kind: context
    sql: SELECT uuid, bus_id FROM gpus
outcomes: [{result: pass}]
)"));
  auto report = LintRules(dir.path());
  REQUIRE_MESSAGE(report.ok(), report.status().message());
  CHECK(report->rules == 1);
  REQUIRE(report->problems.size() == 1);
  CHECK(report->problems[0] == dir / "bad-sql.yaml" + ":11: sql of selection 'gpus_seen': SQL: no such column: bus_id\n"
                               "    sql: SELECT uuid, bus_id FROM gpus\n"
                               "         ^ near here");
}

TEST_CASE("RunRuleSet: deciding evidence not captured makes the run unknown, or a weaker outcome decide") {
  Evidence evidence;  // journal.kernel captured, no plugin log at all
  auto summary = evidence.Run({ParseRule("needs-plugin", R"(select:
  xid: {kind: event, log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): 79'}
  marked: {kind: event, log: plugin.log, pattern: 'marked unhealthy'}
outcomes:
  - {when: marked, result: fail, confidence: likely, catalog: test, summary: marked}
  - {result: pass, summary: nothing marked}
)"), ParseRule("weaker", R"(select:
  xid: {kind: event, log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): 79'}
  marked: {kind: event, log: plugin.log, pattern: 'marked unhealthy'}
outcomes:
  - {when: xid and marked, result: fail, confidence: confirmed, catalog: test, summary: marked}
  - {when: xid, result: fail, confidence: likely, catalog: test, summary: 'Xid 79 on {xid.bus}'}
  - {result: pass}
)")});
  CHECK(RunOf(summary, "needs-plugin").outcome == RuleOutcome::kUnknown);
  CHECK(RunOf(summary, "needs-plugin").reason ==
        "undecided: plugin.log not captured, and it decides whether 'marked' holds");
  REQUIRE(summary.findings.size() == 1);
  CHECK(summary.findings[0].confidence == Confidence::kLikely);
  CHECK(summary.findings[0].missing_evidence ==
        std::vector<std::string>{"not captured: plugin.log - it decides whether 'xid and marked' holds"});
}

TEST_CASE("RunRuleSet: a rows_of selection keeps the bound rows, and is unknown where its condition cannot read") {
  Evidence evidence;  // the Xid at 5 s, the fall off the bus at 6 s; no plugin log
  auto summary = evidence.Run({ParseRule("derived", R"(select:
  xid: {kind: event, log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): 79'}
  fell: {kind: event, log: journal.kernel, pattern: 'fallen off the bus'}
  xid_then_fell: {kind: event, rows_of: xid, when: xid before fell within 5s}
  fell_alone: {kind: event, rows_of: fell, when: fell and no xid before fell within 5s}
outcomes:
  - {when: fell_alone, result: fail, catalog: test, summary: 'fell alone'}
  - {when: xid_then_fell, result: fail, catalog: test, summary: 'Xid 79 on {xid_then_fell.bus}, then the fall'}
  - {result: pass}
)"),
                               ParseRule("derived-unknown", R"(select:
  xid: {kind: event, log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): 79'}
  marked: {kind: event, log: plugin.log, pattern: 'marked unhealthy'}
  marked_after: {kind: event, rows_of: marked, when: marked after xid within 1m}
outcomes:
  - {when: marked_after, result: fail, catalog: test, summary: marked}
  - {result: pass}
)")});
  CHECK(RunOf(summary, "derived").reason == "Xid 79 on 0000:2b:00, then the fall");
  CHECK(RunOf(summary, "derived-unknown").outcome == RuleOutcome::kUnknown);
  CHECK(RunOf(summary, "derived-unknown").reason ==
        "undecided: plugin.log not captured, and it decides whether 'marked_after' holds");
}

TEST_CASE(
    "RunRuleSet: a rows_of selection of several keeps the rows of each that a true branch bound and its where passes") {
  Evidence evidence;  // the Xid at 5 s, the fall off the bus at 6 s
  auto summary = evidence.Run({ParseRule("union", R"(select:
  xid: {kind: event, log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): 79'}
  fell: {kind: event, log: journal.kernel, pattern: 'NVRM: GPU [0-9a-f:.]+: GPU has fallen'}
  reset: {kind: event, log: journal.kernel, pattern: 'GPU reset'}
  either: {kind: event, rows_of: [xid, fell, reset], when: xid or fell or reset}
  any: {kind: event, rows_of: [xid, fell, reset]}
  naming_a_bus: {kind: event, rows_of: [xid, fell], where: {bus: {not: null}}}
  nvrm: {kind: event, log: journal.kernel, pattern: 'NVRM: (?:Xid|GPU [0-9a-f:.]+: GPU has fallen)'}
  once: {kind: event, rows_of: [xid, nvrm]}
outcomes:
  - {when: either, result: fail, catalog: test,
     summary: '{count(either)} signs, {count(any)} in all, {count(naming_a_bus)} naming a bus, {count(once)} lines'}
  - {result: pass}
)")});
  CHECK(RunOf(summary, "union").reason == "2 signs, 2 in all, 1 naming a bus, 2 lines");
}

TEST_CASE("RunRuleSet: a derived event that binds catalogue events runs its rule wherever they were found") {
  Evidence evidence;  // the Xid at 5 s, the fall off the bus at 6 s; no plugin log
  auto summary = evidence.Run({ParseRule("bound-events", R"(requires: [plugin.log]
select:
  xid: {kind: context, message: xid}
  fell: {kind: context, message: gpu_fallen_off_bus}
  xid_then_fell: {kind: event, rows_of: xid, when: xid before fell within 5s}
outcomes:
  - {when: xid_then_fell, result: fail, catalog: test, summary: 'Xid, then the fall'}
  - {result: pass}
)"),
                               ParseRule("one-kind-filtered", R"(requires: [plugin.log]
select:
  xid: {kind: context, message: xid}
  xid_79: {kind: event, rows_of: xid, where: {code: '79'}}
outcomes:
  - {when: xid_79, result: fail, catalog: test, summary: 'Xid 79'}
  - {result: pass}
)")});
  CHECK(RunOf(summary, "bound-events").outcome == RuleOutcome::kFail);
  // One kind the rule calls context, filtered: the rule keeps to where its evidence is.
  CHECK(RunOf(summary, "one-kind-filtered").outcome == RuleOutcome::kSkipped);
}

TEST_CASE("RunRuleSet: an SQL selection below a rows_of one reads its rows in matches") {
  Evidence evidence;  // the Xid at 5 s, the fall off the bus at 6 s
  auto summary = evidence.Run({ParseRule("derived-then-sql", R"(select:
  xid: {kind: event, log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): 79'}
  fell: {kind: event, log: journal.kernel, pattern: 'NVRM: GPU [0-9a-f:.]+: GPU has fallen'}
  xid_then_fell: {kind: event, rows_of: xid, when: xid before fell within 5s}
  seen: {kind: context, sql: "SELECT count(*) AS n, 'counted' AS text FROM matches WHERE selection = 'xid_then_fell'"}
outcomes:
  - {when: seen, result: fail, catalog: test, summary: '{seen.n} in matches'}
  - {result: pass}
)")});
  CHECK(RunOf(summary, "derived-then-sql").reason == "1 in matches");
}

TEST_CASE("RunRuleSet: an SQL selection over a table nothing captured fills is unknown, without `from`") {
  Evidence evidence;  // journal.kernel captured; no Node object, no nvidia-smi that answered
  auto summary = evidence.Run({ParseRule("node-zero", R"(select:
  has_gpus:
    kind: context
    sql: |
      SELECT n.artifact_id, n.resource AS text FROM node_resources n JOIN artifacts a USING (artifact_id)
      WHERE a.bundle_id = :bundle AND CAST(n.quantity AS INTEGER) > 0
outcomes:
  - {when: not has_gpus, result: warn, confidence: possible, catalog: test, summary: no GPUs}
  - {result: pass}
)"),
                               ParseRule("kernel-lines", R"(select:
  loaded:
    kind: context
    sql: |
      SELECT j.artifact_id, j.message AS text FROM journal_entries j JOIN artifacts a USING (artifact_id)
      WHERE a.bundle_id = :bundle AND j.message LIKE 'NVRM: nothing like this%'
outcomes:
  - {when: not loaded, result: warn, confidence: possible, catalog: test, summary: not loaded}
  - {result: pass}
)"),
                               ParseRule("timeline-only", R"(select:
  booted:
    kind: context
    sql: |
      SELECT artifact_id, message AS text FROM events WHERE bundle_id = :bundle AND milestone = 'daemon_reload'
outcomes:
  - {when: not booted, result: warn, confidence: possible, catalog: test, summary: no reload}
  - {result: pass}
)")});
  // The Node's resources come from k8s.node or k8s.node_text: neither was captured.
  CHECK(RunOf(summary, "node-zero").outcome == RuleOutcome::kUnknown);
  CHECK(RunOf(summary, "node-zero").reason ==
        "undecided: k8s.node or k8s.node_text not captured, and it decides whether 'not has_gpus' holds");
  // The journal is: an empty result is a known "none".
  CHECK(RunOf(summary, "kernel-lines").outcome == RuleOutcome::kWarn);
  // The timeline's own tables are every bundle's: always known.
  CHECK(RunOf(summary, "timeline-only").outcome == RuleOutcome::kWarn);
}

TEST_CASE("RunRuleSet: evidence against rules a finding out or lowers it, and is stored with what it found") {
  Evidence evidence;
  auto summary = evidence.Run({ParseRule("xid-79", R"(select:
  xid: {kind: event, log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): 79'}
  loaded: {kind: context, log: journal.kernel, pattern: 'loading NVIDIA'}
  scope: {kind: context, log: plugin.systemd_scope, pattern: 'DeviceAllow'}
outcomes:
  - {when: xid, result: fail, confidence: confirmed, catalog: 3.12 CONFIRMS, summary: 'Xid 79 on {xid.bus}'}
  - {result: pass}
against:
  - {when: scope, effect: rule-out, text: a scope says otherwise, catalog: 3.1 AGAINST}
  - {when: loaded, effect: lower, text: the driver loaded before it, catalog: 3.12 CONSISTENT}
)"), ParseRule("ruled", R"(select:
  xid: {kind: event, log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): 79'}
  fell: {kind: context, log: journal.kernel, pattern: 'fallen off the bus'}
outcomes:
  - {when: xid, result: fail, confidence: likely, catalog: test, summary: Xid}
  - {result: pass}
against:
  - {when: fell, effect: rule-out, text: the GPU fell off the bus, catalog: 3.12}
)")});
  REQUIRE(summary.findings.size() == 1);
  const Finding& f = summary.findings[0];
  CHECK(f.confidence_before == Confidence::kConfirmed);
  CHECK(f.confidence == Confidence::kLikely);
  REQUIRE(f.against.size() == 2);
  CHECK(f.against[0].state == "unknown");
  CHECK(f.against[0].needs == std::vector<std::string>{"plugin.systemd_scope"});
  CHECK(f.against[1].state == "held");
  REQUIRE(f.against[1].evidence.size() == 1);
  CHECK(f.against[1].evidence[0].text == "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.183.01");
  CHECK(RunOf(summary, "ruled").outcome == RuleOutcome::kRuledOut);
  CHECK(RunOf(summary, "ruled").reason == "ruled out: the GPU fell off the bus");
  REQUIRE(summary.ruled_out.size() == 1);
  CHECK(summary.ruled_out[0].tense == Tense::kRuledOut);

  auto rows = evidence.db.Prepare(
      "SELECT d.rule_id, d.place, d.confidence, d.confidence_before, ifnull(d.finding_id, 0) > 0, "
      "group_concat(a.effect || ' ' || a.state || ' ' || ifnull(a.needs, '-'), '; '), "
      "(SELECT group_concat(text, '|') FROM (SELECT e.text FROM diagnosis_evidence e WHERE e.diagnosis_id = "
      "d.diagnosis_id ORDER BY e.against_ordinal IS NULL, e.against_ordinal, e.ordinal)) "
      "FROM diagnoses d JOIN diagnosis_against a USING (diagnosis_id) GROUP BY d.diagnosis_id ORDER BY d.diagnosis_id");
  REQUIRE(rows.ok());
  REQUIRE(rows->Step());
  CHECK(rows->ColumnText(0) == "xid-79");
  CHECK(rows->ColumnText(1) == "root_cause");
  CHECK(rows->ColumnText(2) == "likely");
  CHECK(rows->ColumnText(3) == "confirmed");
  CHECK(rows->ColumnInt(4) == 1);
  CHECK(rows->ColumnText(5) == "rule-out unknown plugin.systemd_scope; lower held -");
  CHECK(rows->ColumnText(6) == "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.183.01");
  REQUIRE(rows->Step());
  CHECK(rows->ColumnText(0) == "ruled");
  CHECK(rows->ColumnText(1) == "ruled_out");
  CHECK(rows->ColumnInt(4) == 0);
  // The rows that held against it (the Xid line says "fallen off the bus" too), then those it rested on.
  CHECK(rows->ColumnText(6) == "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.|"
                               "NVRM: GPU 0000:2b:00.0: GPU has fallen off the bus.|"
                               "NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.");
}

TEST_CASE("RunRuleSet: a remediation step's {gpu} is the GPU the finding's event rows name") {
  Evidence evidence;
  Rule rule = ParseRule("xid-79", kXid79);
  REQUIRE(rule.remediation.size() == 1);
  rule.remediation[0].text = "reset it (nvidia-smi -r -i {gpu}) or reboot";
  auto summary = evidence.Run({rule});
  REQUIRE(summary.findings.size() == 1);
  const Finding& f = summary.findings[0];
  REQUIRE(f.gpus.size() == 1);
  CHECK(f.gpus[0].rfind("0000:2b:00", 0) == 0);
  CHECK(f.remediation == std::vector<std::string>{"reset it (nvidia-smi -r -i " + f.gpus[0] + ") or reboot"});
}

TEST_CASE("RunRuleSet: two held lowers, or one on a finding only possible, rule it out and say why") {
  Evidence evidence;
  auto summary = evidence.Run({ParseRule("twice", R"(select:
  xid: {kind: event, log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): 79'}
  loaded: {kind: context, log: journal.kernel, pattern: 'loading NVIDIA'}
  fell: {kind: context, log: journal.kernel, pattern: 'fallen off the bus'}
outcomes:
  - {when: xid, result: fail, confidence: confirmed, catalog: test, summary: Xid}
  - {result: pass}
against:
  - {when: loaded, effect: lower, text: the driver loaded, catalog: test}
  - {when: fell, effect: lower, text: the GPU fell off the bus, catalog: test}
)"),
                               ParseRule("possible", R"(select:
  xid: {kind: event, log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): 79'}
  loaded: {kind: context, log: journal.kernel, pattern: 'loading NVIDIA'}
outcomes:
  - {when: xid, result: warn, confidence: possible, catalog: test, summary: Xid}
  - {result: pass}
against:
  - {when: loaded, effect: lower, text: the driver loaded, catalog: test}
)")});
  CHECK(summary.findings.empty());
  REQUIRE(summary.ruled_out.size() == 2);
  CHECK(RunOf(summary, "twice").outcome == RuleOutcome::kRuledOut);
  CHECK(RunOf(summary, "possible").outcome == RuleOutcome::kRuledOut);
  for (const Finding& f : summary.ruled_out) {
    if (f.rule_id == "twice") {
      CHECK(f.confidence_steps ==
            std::vector<std::string>{"confirmed: as its outcome says", "likely: held against: the driver loaded",
                                     "ruled out: a second check against held: the GPU fell off the bus"});
    } else {
      CHECK(f.confidence_steps ==
            std::vector<std::string>{"possible: as its outcome says",
                                     "ruled out: held against a finding that was only possible: the driver loaded"});
    }
  }
}

// The bundle of the last sample of a holder rule whose samples end with `sample`.
int64_t SampleBundle(Database& db, const std::string& sample) {
  auto holder = ParseRuleText("rules/holder.yaml", RuleText("holder", R"(select: {a: {kind: context, sql: SELECT 1}}
outcomes: [{result: pass}]
)") + sample);
  REQUIRE_MESSAGE(holder.ok(), holder.status().message());
  YamlMark where;
  auto bundle = BuildSampleBundle(db, holder->samples.back(), &where);
  REQUIRE_MESSAGE(bundle.ok(), bundle.status().message());
  return *bundle;
}

// A sample: an Xid 79 in the boot before the one at capture.
constexpr char kEarlierBootXid[] = R"(  - name: an earlier boot's Xid
    expect: pass
    logs:
      journal.kernel[boot:-1]:
        - '[5] NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.'
      journal.kernel:
        - '[7200] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.183.01'
)";

TEST_CASE("RunRuleSet: a finding whose events are all of an earlier boot is history, at most low") {
  Evidence evidence;
  evidence.bundle = SampleBundle(evidence.db, kEarlierBootXid);
  auto summary = evidence.Run({ParseRule("xid-79", kXid79)});
  REQUIRE(summary.findings.size() == 1);
  const Finding& f = summary.findings[0];
  CHECK(f.tense == Tense::kHistory);
  CHECK(f.tense_reason == "all its evidence is from an earlier boot");
  CHECK(f.severity == Severity::kLow);
  CHECK(f.admissible == false);
  REQUIRE(summary.diagnosis.entries.size() == 1);
  CHECK(summary.diagnosis.entries[0].place == "history");
  CHECK(summary.diagnosis.Leader() == nullptr);
}

const char* kXidAndReading = R"(select:
  xid:
    kind: event
    log: journal.kernel
    pattern: 'NVRM: Xid \(PCI:(?P<bus>[0-9a-f:]+)\): 79,'
  missing_now:
    kind: event
    sql: SELECT a.artifact_id, NULL AS line, NULL AS time_ns, 'a GPU is missing' AS text, g.pci_bus_id AS gpu
         FROM gpus g JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle
outcomes:
  - when: xid and missing_now and same gpu
    result: fail
    confidence: confirmed
    catalog: 3.12 CONFIRMS
    summary: 'GPU {xid.bus} fell off the bus'
  - result: pass
)";

TEST_CASE("RunRuleSet: a reading at capture keeps an earlier boot's event current only about its own GPU") {
  const std::string earlier_xid = std::string(kEarlierBootXid) + "    rows:\n      gpus:\n";
  auto run = [&](const std::string& reading_row) {
    Evidence evidence;
    evidence.bundle = SampleBundle(evidence.db, earlier_xid + "        - {artifact: host.nvidia_smi_query_xml, " +
                                                    reading_row + "}\n");
    return evidence.Run({ParseRule("xid-79", kXidAndReading)});
  };
  auto same = run("pci_bus_id: '0000:2b:00.0'");
  REQUIRE(same.findings.size() == 1);
  CHECK(same.findings[0].tense == Tense::kCurrent);
  CHECK(run("pci_bus_id: '0000:5e:00.0'").findings.empty());  // another GPU's reading binds nothing
  // A reading that names no GPU goes with any, but cannot make the earlier event current.
  auto anonymous = run("name: x");
  REQUIRE(anonymous.findings.size() == 1);
  CHECK(anonymous.findings[0].tense == Tense::kHistory);
}

TEST_CASE("RunRuleSet: an outcome resting only on a permanent record is at most possible") {
  Evidence evidence;
  evidence.bundle = SampleBundle(evidence.db, R"(  - name: retired pages, no Xid
    expect: pass
    rows:
      gpus:
        - {artifact: host.nvidia_smi_query_xml, pci_bus_id: '0000:2b:00.0', retired_pages_dbe: 3}
)");
  auto summary = evidence.Run({ParseRule("xid-48", R"(select:
  retired:
    kind: event
    permanent: true
    sql: SELECT a.artifact_id, NULL AS line, NULL AS time_ns, 'pages retired' AS text, g.pci_bus_id AS gpu
         FROM gpus g JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle AND g.retired_pages_dbe > 0
outcomes:
  - when: retired
    result: fail
    confidence: likely
    catalog: 3.12 CONSISTENT
    summary: pages retired
  - result: pass
)")});
  REQUIRE(summary.findings.size() == 1);
  CHECK(summary.findings[0].confidence == Confidence::kPossible);
  CHECK(summary.findings[0].missing_evidence.back().rfind("only a record that outlives the event", 0) == 0);
}

TEST_CASE("RunRuleSet: a symptom defers only to an explanation at least as confident") {
  Evidence evidence;
  auto summary = evidence.Run({ParseRule("xid-79", kXid79), ParseRule("gpu-gone", R"(explained_by: [xid-79]
select: {fell: {kind: event, log: journal.kernel, pattern: 'fallen off the bus'}}
outcomes: [{when: fell, result: fail, confidence: confirmed, catalog: test, summary: a GPU is gone}, {result: pass}]
)")});
  // xid-79 is likely, the symptom confirmed: both stand and are ranked.
  REQUIRE(summary.findings.size() == 2);
  CHECK(RunOf(summary, "gpu-gone").outcome == RuleOutcome::kFail);
  CHECK(summary.findings[0].rule_id == "gpu-gone");
}

TEST_CASE("LintRules: every rule two near misses") {
  test::TempDir dir;
  std::string rule = RuleText("exposed-only", R"(select:
  reload:
    kind: event
    log: journal.systemd
    pattern: 'Reloading'
outcomes:
  - when: reload
    result: fail
    catalog: test
    summary: reloaded
  - result: pass
confirms:
  - {when: reload, text: no reload}
)");
  const std::string second_near_miss = "  - {name: m, expect: pass, near_miss: true}\n";
  rule.replace(rule.find(second_near_miss), second_near_miss.size(), "");
  test::WriteFile(dir / "exposed-only.yaml", rule);
  auto report = LintRules(dir.path());
  REQUIRE_MESSAGE(report.ok(), report.status().message());
  CHECK(report->problems ==
        std::vector<std::string>{dir / "exposed-only.yaml" +
                                 ": 1 near-miss sample; every rule needs at least 2 (near_miss: true - a node that "
                                 "looks like the issue but has another cause, or its precondition without the event)"});
}

TEST_CASE("RunRuleSet: a branch that holds on a precondition alone is possible, one with the event confirmed") {
  Evidence evidence;
  const std::string body = R"(select:
  xid: {kind: event, log: journal.kernel, pattern: 'Xid \(PCI:(?P<bus>[^)]+)\): 79'}
  loaded: {kind: precondition, log: journal.kernel, pattern: 'loading NVIDIA'}
  absent: {kind: event, log: journal.kernel, pattern: 'no such line'}
outcomes:
  - {when: WHEN, result: fail, catalog: test, summary: found}
  - {result: pass}
confirms:
  - {when: loaded, text: the driver's load}
)";
  auto with = [&](const std::string& when) {
    std::string text = body;
    text.replace(text.find("WHEN"), 4, when);
    return ParseRule("computed", text);
  };
  auto exposed = evidence.Run({with("absent or loaded")});
  REQUIRE(exposed.findings.size() == 1);
  CHECK(exposed.findings[0].confidence == Confidence::kPossible);
  auto observed = evidence.Run({with("xid or loaded")});
  REQUIRE(observed.findings.size() == 1);
  CHECK(observed.findings[0].confidence == Confidence::kConfirmed);
  CHECK(observed.findings[0].confidence_steps == std::vector<std::string>{"confirmed: its confirming piece observed"});
}

}  // TEST_SUITE

}  // namespace gpuf
