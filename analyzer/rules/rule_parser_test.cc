#include "analyzer/rules/rule_parser.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

// A small complete rule; tests replace one line of it.
const std::string kRule = R"(id: xid-79-demo
title: GPU fell off the bus
severity: critical
description: Xid 79 in the kernel log.
symptom: gpu-fault
role: cause
references:
  - {kind: vendor-doc, url: 'https://docs.nvidia.com/deploy/xid-errors/', title: Xid catalog}
requires:
  - journal.kernel
select:
  xid:
    kind: event
    log: journal.kernel
    pattern: 'NVRM: Xid \((?:PCI:)?(?P<bus>[0-9a-fA-F:.]+)\): 79,'
  mapped:
    kind: context
    sql: SELECT artifact_id, line, time_ns, text FROM matches WHERE selection = 'xid'
outcomes:
  - when: xid and mapped
    result: fail
    confidence: confirmed
    catalog: 3.12 CONFIRMS
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
  CHECK(rule->severity == Severity::kCritical);
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
  CHECK(rule->symptom == "gpu-fault");
  CHECK(rule->role == Role::kCause);
  CHECK(rule->selections[0].shows == SelectionKind::kEvent);
  CHECK(rule->selections[1].shows == SelectionKind::kContext);
  CHECK(rule->outcomes[0].catalog == "3.12 CONFIRMS");
  CHECK_FALSE(rule->outcomes[0].history);
}

TEST_CASE("ParseRuleText: against, recovery steps, from and near misses") {
  std::string text = kRule;
  auto replace = [&](const std::string& from, const std::string& to) {
    size_t at = text.find(from);
    REQUIRE_MESSAGE(at != std::string::npos, from);
    text.replace(at, from.size(), to);
  };
  replace("    sql: SELECT", "    from: [driver.gpu_information, host.nvidia_smi_list]\n    sql: SELECT");
  replace("remediation:\n  - Reboot the node.\n",
          "against:\n"
          "  - when: not mapped\n"
          "    effect: lower\n"
          "    text: no GPU behind the bus\n"
          "    catalog: 3.12 CONSISTENT\n"
          "remediation:\n"
          "  - recover: 'Restart the plugin: {restart-plugin}'\n"
          "  - Reboot the node.\n");
  text += "  - name: an earlier boot's Xid\n    expect: history likely\n    near_miss: true\n";
  auto rule = ParseRuleText("rules/xid-79-demo.yaml", text);
  REQUIRE_MESSAGE(rule.ok(), rule.status().message());
  REQUIRE(rule->against.size() == 1);
  CHECK(rule->against[0].effect == AgainstEffect::kLower);
  CHECK(rule->against[0].text == "no GPU behind the bus");
  CHECK(rule->against[0].catalog == "3.12 CONSISTENT");
  REQUIRE(rule->remediation.size() == 2);
  CHECK(rule->remediation[0].recover);
  CHECK(rule->remediation[0].text == "Restart the plugin: {restart-plugin}");
  CHECK_FALSE(rule->remediation[1].recover);
  CHECK(rule->selections[1].from == std::vector<std::string>{"driver.gpu_information", "host.nvidia_smi_list"});
  REQUIRE(rule->samples.size() == 3);
  CHECK(rule->samples[2].near_miss);
  CHECK(rule->samples[2].expect_result == "history");
  CHECK(rule->samples[2].expect_confidence == "likely");
}

TEST_CASE("ParseRuleText: the diagnosis fields are checked") {
  CHECK(ErrorOf(With("symptom: gpu-fault", "symptom: gpu-broken")) ==
        "rules/xid-79-demo.yaml:5: unknown symptom 'gpu-broken' (one of gpus-unusable, gpu-fault, exposure)\n"
        "symptom: gpu-broken\n"
        "         ^ near here");
  CHECK(ErrorOf(With("role: cause", "role: culprit")) ==
        "rules/xid-79-demo.yaml:6: unknown role 'culprit' (cause, trigger, amplifier, consequence)\n"
        "role: culprit\n"
        "      ^ near here");
  CHECK(ErrorOf(With("    kind: event\n", "")) ==
        "rules/xid-79-demo.yaml:13: a selection lacks the field 'kind'\n"
        "    log: journal.kernel\n"
        "    ^ near here");
  CHECK(ErrorOf(With("    catalog: 3.12 CONFIRMS\n", "")) ==
        "rules/xid-79-demo.yaml:20: a fail or warn outcome cites the catalog entry it follows (catalog)\n"
        "  - when: xid and mapped\n"
        "    ^ near here");
  CHECK(ErrorOf(With("    kind: event\n", "    kind: event\n    from: [journal.kernel]\n")) ==
        "rules/xid-79-demo.yaml:14: from is for sql selections; a log selection reads its log artifacts\n"
        "    from: [journal.kernel]\n"
        "          ^ near here");
  CHECK(ErrorOf(kRule + "  - name: looks like it\n    expect: fail likely\n    near_miss: true\n") ==
        "rules/xid-79-demo.yaml:38: a near miss is not the issue: it expects pass, ruled-out or history\n"
        "    near_miss: true\n"
        "               ^ near here");
}

TEST_CASE("ParseRuleText: a selection may keep only what stands at capture, or hold records that outlive it") {
  auto rule =
      ParseRuleText("rules/xid-79-demo.yaml", With("    kind: event\n", "    kind: event\n    current: true\n"));
  REQUIRE_MESSAGE(rule.ok(), rule.status().message());
  CHECK(rule->selections[0].current);
  CHECK_FALSE(rule->selections[0].permanent);
  CHECK_FALSE(rule->selections[1].current);
  CHECK(ErrorOf(With("    kind: event\n", "    kind: event\n    current: yes\n")) ==
        "rules/xid-79-demo.yaml:14: unknown current 'yes' (true, false)\n"
        "    current: yes\n"
        "             ^ near here");
}

TEST_CASE("ParseRuleText: a selection may keep the rows of one above it that a condition binds") {
  const std::string mapped =
      "    kind: context\n    sql: SELECT artifact_id, line, time_ns, text FROM matches WHERE selection = 'xid'\n";
  auto rule = ParseRuleText(
      "rules/xid-79-demo.yaml",
      With(mapped, "    kind: context\n    rows_of: xid\n    when: xid and no xid before xid within 10s\n"));
  REQUIRE_MESSAGE(rule.ok(), rule.status().message());
  const Selection& derived = rule->selections[1];
  CHECK(derived.kind == Selection::Kind::kDerived);
  CHECK(derived.rows_of == std::vector<std::string>{"xid"});
  REQUIRE(derived.condition);
  CHECK(derived.when == "xid and no xid before xid within 10s");
  CHECK(ErrorOf(With(mapped, "    kind: context\n    rows_of: xdi\n    when: xid\n")) ==
        "rules/xid-79-demo.yaml:18: rows_of names 'xdi', which is not a selection above it\n"
        "    rows_of: xdi\n"
        "             ^ near here");
  CHECK(ErrorOf(With(mapped, "    kind: context\n    rows_of: xid\n    when: not xid\n")) ==
        "rules/xid-79-demo.yaml:19: the condition does not bind rows of xid (rows_of)\n"
        "    when: not xid\n"
        "          ^ near here");
  CHECK(
      ErrorOf(With(mapped, "    kind: context\n    rows_of: []\n    when: xid\n")).find("rows_of names no selection") !=
      std::string::npos);
  CHECK(ErrorOf(With(mapped, "    kind: context\n    rows_of: [xid, xdi]\n    when: xid\n"))
            .find("rows_of names 'xdi'") != std::string::npos);
  CHECK(ErrorOf(With(mapped, "    kind: context\n    when: xid\n")).find("when belongs to a selection with rows_of") !=
        std::string::npos);
  auto filtered = ParseRuleText("rules/xid-79-demo.yaml",
                                With(mapped, "    kind: context\n    rows_of: xid\n    where: {bus: {not: null}}\n"));
  REQUIRE_MESSAGE(filtered.ok(), filtered.status().message());
  CHECK(filtered->selections[1].when == "xid");
  CHECK(filtered->selections[1].where.size() == 1);
  CHECK(ErrorOf(With(mapped, "    kind: context\n    rows_of: xid\n    when: xid\n    current: true\n"))
            .find("it is current or permanent as that one is") != std::string::npos);
  // Its condition sees only the selections above it.
  CHECK(ErrorOf(With(mapped, "    kind: context\n    rows_of: xid\n    when: xid and mapped\n"))
            .find("unknown selection 'mapped'") != std::string::npos);
}

TEST_CASE("ParseRuleText: a bad value, with the line and a caret") {
  CHECK(ErrorOf(With("severity: critical", "severity: hgih")) ==
        "rules/xid-79-demo.yaml:3: unknown severity 'hgih' (critical, high, medium, low, info)\n"
        "severity: hgih\n"
        "          ^ near here");
}

TEST_CASE("ParseRuleText: an unknown field") {
  CHECK(ErrorOf(With("title: GPU", "titel: GPU")) ==
        "rules/xid-79-demo.yaml:2: unknown field 'titel' in a rule (id, title, description, severity, symptom, role, "
        "references, requires, optional, select, outcomes, confirms, missing, against, remediation, explained_by, "
        "applies_to, samples)\n"
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
        "rules/xid-79-demo.yaml:15: pattern does not compile: missing ): "
        "NVRM: Xid \\((?:PCI:)?(?P<bus>[0-9a-fA-F:.]+)\\): 79,(\n"
        "    pattern: 'NVRM: Xid \\((?:PCI:)?(?P<bus>[0-9a-fA-F:.]+)\\): 79,('\n"
        "             ^ near here");
}

TEST_CASE("ParseRuleText: a condition error points into the condition") {
  CHECK(ErrorOf(With("when: xid and mapped", "when: xid and maped")) ==
        "rules/xid-79-demo.yaml:20: unknown selection 'maped'\n"
        "  - when: xid and maped\n"
        "                  ^ near here");
}

TEST_CASE("ParseRuleText: a summary reads only what its condition guarantees") {
  CHECK(ErrorOf(With("when: xid and mapped", "when: xid or mapped")) ==
        "rules/xid-79-demo.yaml:24: the summary reads 'xid', which the outcome's condition does not require\n"
        "    summary: 'GPU {xid.bus} fell off the bus ({count(mapped)} rows)'\n"
        "                  ^ near here");
}

TEST_CASE("ParseRuleText: samples need a positive and a negative") {
  CHECK(ErrorOf(With("    expect: pass\n", "    expect: fail possible\n")) ==
        "rules/xid-79-demo.yaml:29: samples need at least one positive (fail or warn) and one negative (pass, "
        "ruled-out or history) sample\n"
        "  - name: positive\n"
        "  ^ near here");
}

TEST_CASE("ParseRuleText: SQL must be a SELECT") {
  CHECK(ErrorOf(With("sql: SELECT artifact_id", "sql: DELETE FROM findings; SELECT artifact_id")) ==
        "rules/xid-79-demo.yaml:18: sql must be one SELECT statement (or WITH ... SELECT)\n"
        "    sql: DELETE FROM findings; SELECT artifact_id, line, time_ns, text F...\n"
        "         ^ near here");
}

TEST_CASE("ParseRuleText: an unknown artifact in log: is an error, with the nearest name") {
  CHECK(ErrorOf(With("log: journal.kernel", "log: [journal.kernel, journal.kernal]")) ==
        "rules/xid-79-demo.yaml:14: unknown artifact 'journal.kernal' in log; did you mean 'journal.kernel'?\n"
        "    log: [journal.kernel, journal.kernal]\n"
        "                          ^ near here");
  CHECK(ErrorOf(With("log: journal.kernel", "log: jornal.*")) ==
        "rules/xid-79-demo.yaml:14: unknown artifact 'jornal.*' in log\n"
        "    log: jornal.*\n"
        "         ^ near here");
}

TEST_CASE("ParseRuleText: a message selection takes the catalogue's wordings of its event kind") {
  const std::string log = "    log: journal.kernel\n    pattern: 'NVRM: Xid \\((?:PCI:)?(?P<bus>[0-9a-fA-F:.]+)\\): 79,'\n";
  auto rule = ParseRuleText("rules/xid-79-demo.yaml",
                            With(log, "    message: nvml_init_failed\n    where: {reason: lib_mismatch}\n"));
  REQUIRE_MESSAGE(rule.ok(), rule.status().message());
  const Selection* xid = rule->FindSelection("xid");
  CHECK(xid->kind == Selection::Kind::kLog);
  CHECK(xid->message == "nvml_init_failed");
  CHECK(xid->sources == std::vector<std::string>{"*"});
  REQUIRE(xid->patterns.size() >= 2);
  for (const auto& p : xid->patterns) {
    CHECK_FALSE(p.entry.empty());
    CHECK(p.set == std::vector<std::pair<std::string, std::string>>{{"reason", "lib_mismatch"}});
  }
}

TEST_CASE("ParseRuleText: a message selection's kind and fields are checked") {
  const std::string log = "    log: journal.kernel\n    pattern: 'NVRM: Xid \\((?:PCI:)?(?P<bus>[0-9a-fA-F:.]+)\\): 79,'\n";
  CHECK(ErrorOf(With(log, "    message: nvml_init_faild\n")) ==
        "rules/xid-79-demo.yaml:14: unknown event kind 'nvml_init_faild' (common/event_kinds.cc); did you mean "
        "'nvml_init_failed'?\n"
        "    message: nvml_init_faild\n"
        "             ^ near here");
  CHECK(ErrorOf(With(log, "    message: nvml_init_failed\n    where: {cause: lib_mismatch}\n")) ==
        "rules/xid-79-demo.yaml:15: 'cause' is not a field of nvml_init_failed (reason error)\n"
        "    where: {cause: lib_mismatch}\n"
        "            ^ near here");
  CHECK(ErrorOf(With(log, "    message: nvml_init_failed\n    where: {reason: no_such_reason}\n")) ==
        "rules/xid-79-demo.yaml:14: no catalogue entry says nvml_init_failed with those fields (messages/)\n"
        "    message: nvml_init_failed\n"
        "             ^ near here");
  CHECK(ErrorOf(With(log, "    message: gpu_init_failed\n    pattern: 'x'\n")) ==
        "rules/xid-79-demo.yaml:13: a message selection reads every artifact with the catalogue's patterns: no log, "
        "pattern or sql\n"
        "    kind: event\n"
        "    ^ near here");
}

TEST_CASE("ParseRuleText: where keeps a value, one of several, none of them, or the field absent or present") {
  const std::string log =
      "    log: journal.kernel\n    pattern: 'NVRM: Xid \\((?:PCI:)?(?P<bus>[0-9a-fA-F:.]+)\\): 79,'\n";
  auto rule = ParseRuleText(
      "rules/xid-79-demo.yaml",
      With(log,
           "    message: gpu_unhealthy\n    where: {code: ['79', '48'], device: {not: null}, scope: null, "
           "error: {not: [a, b]}}\n"));
  REQUIRE_MESSAGE(rule.ok(), rule.status().message());
  const FieldFilters& where = rule->selections[0].where;
  REQUIRE(where.size() == 4);
  CHECK(where[0].Describe() == "code in 79,48");
  CHECK(where[1].Describe() == "device present");
  CHECK(where[2].Describe() == "scope absent");
  CHECK(where[3].Describe() == "error not in a,b");
  CHECK(ErrorOf(With(log, "    message: xid\n    where: {code: {but: '79'}}\n")) ==
        "rules/xid-79-demo.yaml:15: a field's filter is a value, a list, null, {matches: RE2}, or {not: ...} of one\n"
        "    where: {code: {but: '79'}}\n"
        "                  ^ near here");
  CHECK(ErrorOf(With(log, "    message: xid\n    where: {code: []}\n"))
            .find("an empty list passes nothing: write null for an absent field") != std::string::npos);
  auto matching = ParseRuleText("rules/xid-79-demo.yaml",
                                With(log, "    message: xid\n    where: {code: {not: {matches: '^4'}}}\n"));
  REQUIRE_MESSAGE(matching.ok(), matching.status().message());
  CHECK(matching->selections[0].where[0].Describe() == "code not matching ^4");
  CHECK(ErrorOf(With(log, "    message: xid\n    where: {code: {matches: '('}}\n")).find("matches does not compile") !=
        std::string::npos);
}

TEST_CASE("ParseRuleText: from: names artifacts and groups like log:, and a typo is an error") {
  CHECK(ErrorOf(With("    kind: context\n    sql:", "    kind: context\n    from: [plugin.devices_lst]\n    sql:")) ==
        "rules/xid-79-demo.yaml:18: unknown artifact 'plugin.devices_lst' in from; did you mean 'plugin.devices_list'?\n"
        "    from: [plugin.devices_lst]\n"
        "           ^ near here");
  auto rule = ParseRuleText("rules/xid-79-demo.yaml", With("    kind: context\n    sql:", "    kind: context\n    from: plugin_logs\n    sql:"));
  REQUIRE(rule.ok());
  CHECK(rule->FindSelection("mapped")->from.size() == 3);
}

TEST_CASE("ParseRuleText: an unknown artifact or group in requires and optional") {
  CHECK(ErrorOf(With("  - journal.kernel\nselect", "  - [plugin.log, plugin_log]\nselect")) ==
        "rules/xid-79-demo.yaml:10: unknown artifact group 'plugin_log' in requires; did you mean 'plugin_logs'?\n"
        "  - [plugin.log, plugin_log]\n"
        "                 ^ near here");
  CHECK(ErrorOf(With("requires:\n", "optional:\n  - k8s.nodes\nrequires:\n")) ==
        "rules/xid-79-demo.yaml:10: unknown artifact 'k8s.nodes' in optional; did you mean 'k8s.node'?\n"
        "  - k8s.nodes\n"
        "    ^ near here");
}

TEST_CASE("ParseRuleText: a group stands for its members, in log: and requires") {
  auto rule = ParseRuleText("rules/xid-79-demo.yaml",
                            With("  - journal.kernel\nselect:\n  xid:\n    kind: event\n    log: journal.kernel",
                                 "  - [journal.kernel, plugin_logs]\nselect:\n  xid:\n    kind: event\n    log: plugin_logs"));
  REQUIRE_MESSAGE(rule.ok(), rule.status().message());
  CHECK(rule->required_artifacts ==
        std::vector<std::vector<std::string>>{
            {"journal.kernel", "plugin.log", "plugin.crictl_logs", "journal.nvidia_device_plugin"}});
  CHECK(rule->selections[0].sources ==
        std::vector<std::string>{"plugin.log", "plugin.crictl_logs", "journal.nvidia_device_plugin"});
}

TEST_CASE("ParseRuleText: a sample's artifacts are names of the table too") {
  CHECK(ErrorOf(With("      journal.kernel:\n", "      journal.kernl:\n")) ==
        "rules/xid-79-demo.yaml:32: unknown artifact 'journal.kernl' in a sample's logs; "
        "did you mean 'journal.kernel'?\n"
        "      journal.kernl:\n"
        "      ^ near here");
}

}  // TEST_SUITE

}  // namespace gpuf
