#include "analyzer/render/report_lines.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

Report WithSteps(std::initializer_list<StepStatus> statuses) {
  Report r;
  int n = 0;
  for (StepStatus s : statuses) r.verdict.push_back({ChainStepId::kPci, "step " + std::to_string(++n), s, "", "", ""});
  return r;
}

}  // namespace

TEST_SUITE("report_lines") {

TEST_CASE("ChainVerdictLine: the first failed step, or what is unknown") {
  using S = StepStatus;
  CHECK(ChainVerdictLine(WithSteps({S::kOk, S::kFailed, S::kFailed, S::kFailed})) ==
        "BROKEN at step 2, step 2 (2 later steps fail with it); no known issue explains it");
  CHECK(ChainVerdictLine(WithSteps({S::kOk, S::kFailed})) == "BROKEN at step 2, step 2; no known issue explains it");
  CHECK(ChainVerdictLine(WithSteps({S::kOk, S::kOk, S::kUnknown})) == "no step failed, 1 of 3 unknown from this bundle");
  CHECK(ChainVerdictLine(WithSteps({S::kOk})) == "every step ok");  // no rule ran: not called healthy
  Report node = WithSteps({S::kOk, S::kOk, S::kUnknown, S::kUnknown, S::kUnknown});
  node.verdict[2] = {ChainStepId::kKubeStateMetrics, "kube-state-metrics", S::kUnknown, "", "", ""};
  node.verdict[3] = {ChainStepId::kMetricsStore, "metrics store", S::kUnknown, "", "", ""};
  node.verdict[4] = {ChainStepId::kAlerting, "alerting", S::kUnknown, "", "", ""};
  node.complete = true;
  node.rule_runs = {{.rule_id = "xid-79", .outcome = RuleOutcome::kPass}};
  CHECK(ChainVerdictLine(node) ==
        "HEALTHY: all 2 steps on the node ok; steps 3 to 5 (kube-state-metrics, metrics "
        "store, alerting) are outside it and not checked");
  Report checked = node;
  for (size_t i = 2; i < 5; ++i) checked.verdict[i].status = S::kOk;
  CHECK(ChainVerdictLine(checked) ==
        "HEALTHY: all 2 steps on the node ok; outside it, kube-state-metrics, metrics store, alerting ok");
  checked.verdict[4].status = S::kUnknown;
  CHECK(ChainVerdictLine(checked) ==
        "HEALTHY: all 2 steps on the node ok; outside it, kube-state-metrics, metrics store ok; alerting not checked");
  Report skipped_rule = node;
  skipped_rule.rule_runs.push_back({.rule_id = "xid-48", .outcome = RuleOutcome::kSkipped});
  CHECK(ChainVerdictLine(skipped_rule) == "no step failed, 3 of 5 unknown from this bundle");
  Finding serious;
  serious.severity = Severity::kMedium;
  node.findings.push_back(serious);
  CHECK(ChainVerdictLine(node) == "no step failed, 3 of 5 unknown from this bundle");
  CHECK(ChainVerdictLine(Report{}) == "not computed");
}

TEST_CASE("ChainVerdictLine: the headline names the root cause, and causes that compete with it") {
  using S = StepStatus;
  Report r = WithSteps({S::kOk, S::kFailed});
  Finding race, cgroup;
  race.rule_id = "dp-started-before-driver-ready";
  race.confidence = Confidence::kPossible;
  cgroup.rule_id = "ctk-daemon-reload-device-cgroup-loss";
  cgroup.confidence = Confidence::kPossible;
  r.findings = {race, cgroup};
  r.diagnosis.entries = {{race.rule_id, "gpus-unusable", "cause", "root_cause", 1, 1, ""},
                         {cgroup.rule_id, "gpus-unusable", "cause", "competing", 1, 2, race.rule_id}};
  CHECK(ChainVerdictLine(r) == "BROKEN at step 2, step 2; root cause: dp-started-before-driver-ready (possible) or "
                               "ctk-daemon-reload-device-cgroup-loss (possible)");
  r.diagnosis.entries = {{cgroup.rule_id, "gpus-unusable", "consequence", "lead", 1, 1, ""}};
  CHECK(RootCauseLine(r) == "leading finding (consequence): ctk-daemon-reload-device-cgroup-loss (possible)");
  CHECK(PlaceWords(r.diagnosis.entries[0]) == "leading finding (consequence)");
}

TEST_CASE("NextActionLine and AgainstStateWords: what the report says of them") {
  Report r;
  CHECK(NextActionLine(r) == "");
  r.next_action = {"prevent", "dp-started-before-driver-ready", "Make the plugin wait for the driver.", ""};
  CHECK(NextActionLine(r) == "nothing to restart, no current fault; to keep dp-started-before-driver-ready from "
                             "recurring: Make the plugin wait for the driver.");
  AgainstResult a;
  a.effect = "rule-out";
  a.state = "held";
  CHECK(AgainstStateWords(a) == "HELD (rules it out)");
  a.state = "unknown";
  a.needs = {"plugin.devices_list", "journal.systemd"};
  CHECK(AgainstStateWords(a) == "not captured (plugin.devices_list, journal.systemd)");
}

TEST_CASE("NoFindingsCaveat: no finding is never silently 'healthy'") {
  Report r;
  r.artifacts_total = 10;
  r.rule_runs = {{"a", RuleOutcome::kPass, "", 0}, {"b", RuleOutcome::kPass, "", 0}};
  CHECK(NoFindingsCaveat(r) == "");
  CHECK(FindingsLine(r) == "no known issue recognized among 2 checked");

  r.artifacts_failed = 2;
  r.artifacts_skipped = 1;
  CHECK(NoFindingsCaveat(r) == "Every rule had the evidence it needs, but 3 of 10 artifacts are missing or failed "
                               "(see Coverage).");

  r.rule_runs.push_back({"c", RuleOutcome::kSkipped, "needs plugin.log", 0});
  CHECK(NoFindingsCaveat(r) == "1 of 3 rules could not be checked for lack of evidence (see Coverage): this is not a "
                               "statement that the node is healthy.");

  r.complete = false;
  r.incomplete_reason = "deadline";
  CHECK(NoFindingsCaveat(r).rfind("The collection was cut short (deadline). 1 of 3 rules", 0) == 0);
}

TEST_CASE("FindingsLine: counts by severity, most severe first") {
  Report r;
  r.rule_runs.resize(28);
  Finding high, medium;
  high.severity = Severity::kHigh;
  medium.severity = Severity::kMedium;
  r.findings = {high, medium, high};
  CHECK(FindingsLine(r) == "3 findings (2 high, 1 medium) of 28 known issues checked");
  Finding old;
  old.severity = Severity::kLow;
  old.tense = Tense::kHistory;
  r.findings.push_back(old);
  r.ruled_out = {medium};
  CHECK(FindingsLine(r) == "3 findings (2 high, 1 medium), 1 from history, 1 ruled out of 28 known issues checked");
  r.findings = {old};
  CHECK(FindingsLine(r) == "no current known issue among 28 checked, 1 from history, 1 ruled out");
}

TEST_CASE("RolloutLine: settled, under way, pending, or held by OnDelete") {
  PluginRollout d{"gpu-operator/nvidia-device-plugin-daemonset", 4, 4, 10, 10, 10, 0, "RollingUpdate"};
  const std::string head = "The device plugin's DaemonSet gpu-operator/nvidia-device-plugin-daemonset: ";
  CHECK(RolloutLine(d) == head + "rolled out, 10 of 10 pods updated and available");
  d.updated = 3;
  d.unavailable = 2;
  CHECK(RolloutLine(d) == head + "a rollout under way, 3 of 10 pods updated, 2 unavailable");
  d.update_strategy = "OnDelete";
  d.unavailable = 0;
  CHECK(RolloutLine(d) == head + "pods of an older template stay until deleted (OnDelete), 3 of 10 pods updated");
  d.generation = 5;
  CHECK(RolloutLine(d) ==
        head + "generation 5 not yet acted on by its controller (it has 4): a change to it is pending");
}

}  // TEST_SUITE

TEST_CASE("NodeEventsWindow: how far back the captured events reach, in the zone shown") {
  auto utc = DisplayZone::Parse("UTC", "");
  REQUIRE(utc.ok());
  CHECK(NodeEventsWindow(1794997800LL * 1000000000LL, *utc) ==
        "The Node's events (k8s.events) go back to about 2026-11-18T10:30:00.000Z: the API server keeps events 1 h "
        "by default, so an earlier NodeNotReady may be gone, not absent.");
}

}  // namespace gpuf
