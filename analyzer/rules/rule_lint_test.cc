#include "analyzer/rules/rule_lint.h"

#include <doctest/doctest.h>

#include "analyzer/rules/sql_words.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

// A rule that lints clean but for the SQL of its one selection.
std::string RuleWithSql(const std::string& sql) {
  return "id: demo\n"
         "title: demo\n"
         "severity: low\n"
         "description: demo\n"
         "symptom: exposure\n"
         "role: cause\n"
         "references:\n"
         "  - {kind: kb, url: 'https://example.com/'}\n"
         "select:\n"
         "  picked:\n"
         "    kind: context\n"
         "    sql: |\n"
         "      SELECT e.artifact_id, e.line, e.time_ns, e.message AS text\n" +
         sql +
         "outcomes:\n"
         "  - when: picked\n"
         "    result: warn\n"
         "    catalog: none (a demo)\n"
         "    summary: picked\n"
         "  - result: pass\n"
         "confirms:\n"
         "  - {when: picked, text: nothing picked}\n"
         "remediation:\n"
         "  - nothing\n"
         "samples:\n"
         "  - name: positive\n"
         "    expect: warn possible\n"
         "    rows:\n"
         "      events: [{time_ns: 1, precision_ns: 1, timestamp_desc: x, time_source: explicit_utc, source: plugin, "
         "milestone: plugin_registered, message: m}]\n"
         "  - name: negative\n"
         "    expect: pass\n"
         "  - name: near miss, no event\n"
         "    near_miss: true\n"
         "    expect: pass\n"
         "  - name: near miss, another source\n"
         "    near_miss: true\n"
         "    expect: pass\n";
}

std::vector<std::string> Lint(const std::string& rule) {
  test::TempDir dir;
  test::WriteFile(dir / "demo.yaml", rule);
  auto report = LintRules(dir.path());
  REQUIRE_MESSAGE(report.ok(), report.status().message());
  for (auto& p : report->problems) p.replace(0, dir.path().size() + 1, "");
  return report->problems;
}

SchemaColumns Schema() {
  return {{"artifacts", {"artifact_id", "bundle_id", "name", "status", "skip_reason"}},
          {"events", {"bundle_id", "milestone", "source", "artifact_id"}},
          {"findings", {"bundle_id", "severity", "confidence"}},
          {"containers", {"bundle_id", "name", "state"}}};
}

}  // namespace

TEST_SUITE("rule_lint") {

TEST_CASE("rules lint: clean SQL has no problems") {
  CHECK(Lint(RuleWithSql("      FROM events e WHERE e.bundle_id = :bundle AND e.milestone = 'plugin_registered'\n"))
            .empty());
}

TEST_CASE("rules lint: an ordering without a window is an error, with one it is not") {
  std::string rule =
      RuleWithSql("      FROM events e WHERE e.bundle_id = :bundle AND e.milestone = 'plugin_registered'\n");
  std::string unbounded = rule;
  unbounded.replace(unbounded.find("  - when: picked\n"), 17, "  - when: picked and picked before picked\n");
  auto problems = Lint(unbounded);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] ==
        "demo.yaml: outcome 'picked and picked before picked': 'picked before picked' has no window: say how far "
        "apart the rows may be ('within 10m'; a day is 24h)");
  std::string bounded = rule;
  bounded.replace(bounded.find("  - when: picked\n"), 17, "  - when: picked after picked within 24h\n");
  CHECK(Lint(bounded).empty());
}

TEST_CASE("rules lint: a stated confidence, the older missing and a rule without confirming pieces") {
  const std::string rule =
      RuleWithSql("      FROM events e WHERE e.bundle_id = :bundle AND e.milestone = 'plugin_registered'\n");
  std::string literal = rule;
  literal.replace(literal.find("    result: warn\n"), 17, "    result: warn\n    confidence: possible\n");
  auto problems = Lint(literal);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("demo.yaml:") == 0);
  CHECK(problems[0].find("'confidence: possible' states the word the evidence should give: drop it") !=
        std::string::npos);

  std::string missing = rule;
  missing.replace(missing.find("  - {when: picked,"), 18, "  - {unless: picked,");
  missing.replace(missing.find("confirms:\n"), 10, "missing:\n");
  CHECK(Lint(missing) == std::vector<std::string>{"demo.yaml: 'missing' is the older name of 'confirms': write "
                                                  "'confirms:' with 'when:' where it says 'unless:'"});

  std::string none = rule;
  none.erase(none.find("confirms:\n"), std::string("confirms:\n  - {when: picked, text: nothing picked}\n").size());
  CHECK(Lint(none) == std::vector<std::string>{"demo.yaml: no confirming piece (confirms): every event it sees would "
                                               "be confirmed; list what the catalog says confirms the issue"});
}

TEST_CASE("rules lint: an outcome marked history is refused, the engine decides what healed") {
  std::string rule =
      RuleWithSql("      FROM events e WHERE e.bundle_id = :bundle AND e.milestone = 'plugin_registered'\n");
  rule.replace(rule.find("    summary: picked\n"), 20, "    history: true\n    summary: picked\n");
  auto problems = Lint(rule);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("demo.yaml:") == 0);
  CHECK(problems[0].find("'history: true' asserts the fault healed: drop it;") != std::string::npos);
}

TEST_CASE("rules lint: SQL comparing the times or lines of other selections' rows asks for the operators") {
  auto problems =
      Lint(RuleWithSql("      FROM events e WHERE e.bundle_id = :bundle AND e.milestone = 'plugin_registered'\n"
                       "        AND e.time_ns > (SELECT max(time_ns) FROM matches WHERE selection = 'picked')\n"));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("demo.yaml:") == 0);
  CHECK(problems[0].find("selection 'picked' compares rows' times in SQL ('time_ns >'): keep them with a rows_of "
                         "selection") != std::string::npos);
  CHECK(Lint(RuleWithSql("      FROM events e, matches m WHERE m.line BETWEEN 1 AND e.line\n")).size() == 1);
  // Picking the newest row, or times compared within one table, is no window over rows.
  CHECK(Lint(RuleWithSql("      FROM events e WHERE e.time_ns = (SELECT max(time_ns) FROM matches)\n")).empty());
  CHECK(Lint(RuleWithSql("      FROM events e WHERE e.time_ns > 0\n")).empty());
}

TEST_CASE("rules lint: SQL picking journal entries by an event kind's classification asks for the kind") {
  auto problems = Lint(
      RuleWithSql("      FROM (SELECT artifact_id, line, realtime_us * 1000 AS time_ns, message FROM journal_entries\n"
                  "            WHERE event = 'unit_started' AND event_subject = 'kubelet.service') e\n"));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].find("demo.yaml:") == 0);
  CHECK(problems[0].find("selection 'picked' reads the journal's events in SQL: ask for the kind instead "
                         "(message: unit_started") != std::string::npos);
  // The journal's text, or an event no kind reads, is the rule's own business.
  CHECK(Lint(RuleWithSql("      FROM (SELECT artifact_id, line, realtime_us * 1000 AS time_ns, message\n"
                         "            FROM journal_entries WHERE message LIKE 'NVRM: loading%') e\n"))
            .empty());
}

TEST_CASE("rules lint: a milestone no timeline writes is an error at the word") {
  auto problems = Lint(RuleWithSql("      FROM events e WHERE e.bundle_id = :bundle AND e.milestone = 'plugin_registerd'\n"));
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] ==
        "demo.yaml:14: sql of selection 'picked': unknown milestone 'plugin_registerd' (events.milestone); "
        "did you mean 'plugin_registered'?\n"
        "      FROM events e WHERE e.bundle_id = :bundle AND e.milestone = 'plugi...\n"
        "                                                                  ^ near here");
}

TEST_CASE("rules lint: a probe status, skip reason, artifact or severity off its list") {
  auto problems = Lint(RuleWithSql(
      "      FROM events e JOIN artifacts a USING (artifact_id)\n"
      "      WHERE a.status IN ('ok', 'timedout') AND skip_reason IS NOT 'missing'\n"
      "        AND a.name = 'host.nvidia_smi_lst'\n"
      "        AND EXISTS (SELECT 1 FROM findings f WHERE f.severity = 'hgih')\n"));
  REQUIRE(problems.size() == 4);
  CHECK(problems[0] ==
        "demo.yaml:15: sql of selection 'picked': unknown probe status 'timedout' (artifacts.status); "
        "did you mean 'timed_out'?\n"
        "      WHERE a.status IN ('ok', 'timedout') AND skip_reason IS NOT 'missi...\n"
        "                               ^ near here");
  CHECK(problems[1] ==
        "demo.yaml:15: sql of selection 'picked': unknown skip reason 'missing' (artifacts.skip_reason)\n"
        "      WHERE a.status IN ('ok', 'timedout') AND skip_reason IS NOT 'missi...\n"
        "                                                                  ^ near here");
  CHECK(problems[2] ==
        "demo.yaml:16: sql of selection 'picked': unknown artifact 'host.nvidia_smi_lst' (artifacts.name); "
        "did you mean 'host.nvidia_smi_list'?\n"
        "        AND a.name = 'host.nvidia_smi_lst'\n"
        "                     ^ near here");
  CHECK(problems[3] ==
        "demo.yaml:17: sql of selection 'picked': unknown severity 'hgih' (findings.severity); did you mean 'high'?\n"
        "        AND EXISTS (SELECT 1 FROM findings f WHERE f.severity = 'hgih')\n"
        "                                                                ^ near here");
}

TEST_CASE("CheckSqlWords: only columns of a closed list are checked, however they are named") {
  SchemaColumns schema = Schema();
  CHECK(CheckSqlWords("SELECT 1 FROM containers c WHERE c.name = 'anything' AND c.state = 'x'", schema).empty());
  CHECK(CheckSqlWords("SELECT 1 FROM events WHERE source = 'plugin' AND milestone LIKE 'plugin_%'", schema).empty());
  // Unqualified, and through an alias given with AS.
  auto words = CheckSqlWords("SELECT 1 FROM events AS x WHERE milestone = 'boot' OR x.milestone <> 'reboot'", schema);
  REQUIRE(words.size() == 1);
  CHECK(words[0].offset == 69);
  CHECK(words[0].message == "unknown milestone 'reboot' (events.milestone); did you mean 'boot'?");
  // A column two tables of the statement share is left alone.
  CHECK(CheckSqlWords("SELECT 1 FROM artifacts, containers WHERE name = 'nope'", schema).empty());
  // Comments and quoted quotes do not confuse the scan.
  CHECK(CheckSqlWords("SELECT 1 FROM artifacts -- status = 'x'\nWHERE status = 'it''s'", schema).size() == 1);
}

}  // TEST_SUITE

}  // namespace gpuf
