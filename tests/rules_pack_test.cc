// The built-in rule pack against every sample bundle: each scenario yields
// exactly the findings its expected_findings lists, with the confidence the
// evidence in it supports, and the healthy node yields nothing at medium or
// above. Also the pack lints clean and every rule's samples pass.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "analyzer/analysis.h"
#include "analyzer/rule_samples.h"
#include "analyzer/rules/rule_engine.h"
#include "analyzer/rules/rule_lint.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

// rule id -> confidence ("history ..." for a fault of an earlier boot or one
// that healed), per scenario.
const std::map<std::string, std::map<std::string, std::string>> kExpected = {
    {"dp-426-reload-kubelet-restart",
     {{"ctk-daemon-reload-device-cgroup-loss", "confirmed"}, {"dp-unhealthy-after-daemon-reload", "confirmed"}}},
    {"driver-library-mismatch", {{"driver-library-version-mismatch", "confirmed"}}},
    {"fabric-manager-down", {{"fabric-manager-not-running", "confirmed"}}},
    {"gpu-wedged-xid119", {{"xid-119-gsp-rpc-timeout", "confirmed"}}},
    {"healthy", {}},
    {"kubelet-restart-no-reregister", {{"kubelet-restart-capacity-zero", "confirmed"}}},
    {"mig-mixed", {{"mig-strategy-mismatch", "possible"}}},  // the mixed layout, no pod seen asking for nvidia.com/gpu
    {"nct-251-daemon-reload", {{"ctk-daemon-reload-device-cgroup-loss", "confirmed"}}},
    {"recovery",
     {{"dp-started-before-driver-ready", "history confirmed"},
      {"dp-null-manager-after-nvml-failure", "history confirmed"}}},
    {"runtime-not-nvidia-v012",
     {{"runtime-not-nvidia", "confirmed"}, {"dp-null-manager-after-nvml-failure", "confirmed"}}},
    {"runtime-not-nvidia-v016", {{"runtime-not-nvidia", "confirmed"}}},
    {"seed-incident",
     {{"dp-started-before-driver-ready", "confirmed"}, {"dp-null-manager-after-nvml-failure", "confirmed"}}},
    {"unknown-error-devices-kept",
     {{"dp-started-before-driver-ready", "possible"},
      {"dp-null-manager-after-nvml-failure", "confirmed"},
      {"container-gpu-view-mismatch", "confirmed"}}},
    {"xid-79-fallen-off-bus", {{"xid-79-fallen-off-bus", "confirmed"}}},
};

// The diagnosis's order, "place rule" from the report's first line on.
const std::map<std::string, std::vector<std::string>> kExpectedOrder = {
    {"seed-incident", {"root_cause dp-started-before-driver-ready", "amplifier dp-null-manager-after-nvml-failure"}},
    {"runtime-not-nvidia-v012", {"root_cause runtime-not-nvidia", "amplifier dp-null-manager-after-nvml-failure"}},
    {"dp-426-reload-kubelet-restart",
     {"root_cause ctk-daemon-reload-device-cgroup-loss", "consequence dp-unhealthy-after-daemon-reload"}},
    {"recovery", {"history dp-started-before-driver-ready", "history dp-null-manager-after-nvml-failure"}},
    {"unknown-error-devices-kept",
     {"root_cause dp-started-before-driver-ready", "amplifier dp-null-manager-after-nvml-failure",
      "consequence container-gpu-view-mismatch", "ruled_out ctk-daemon-reload-device-cgroup-loss"}},
};

std::set<std::string> ExpectedFindingsFile(const std::string& scenario) {
  std::istringstream in(test::ReadFile(test::SourcePath("samples/scenarios/" + scenario + "/expected_findings")));
  std::set<std::string> ids;
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line[0] != '#') ids.insert(line);
  }
  return ids;
}

}  // namespace

TEST_SUITE("rules_pack") {

TEST_CASE("Rule pack: every scenario yields its expected findings with the expected confidence") {
  for (const auto& [scenario, expected] : kExpected) {
    CAPTURE(scenario);
    std::set<std::string> ids;
    for (const auto& [id, confidence] : expected) ids.insert(id);
    CHECK(ids == ExpectedFindingsFile(scenario));

    auto db = Database::Create(":memory:");
    REQUIRE(db.ok());
    auto loaded = PrepareBundle(test::SourcePath("samples/" + scenario + ".tar.zst"), *db);
    REQUIRE_MESSAGE(loaded.ok(), loaded.status().message());
    auto summary = RunRules(*db, loaded->bundle_id, {test::SourcePath("rules")});
    REQUIRE_MESSAGE(summary.ok(), summary.status().message());
    std::map<std::string, std::string> found;
    for (const auto& f : summary->findings) {
      found[f.rule_id] = (f.tense == Tense::kHistory ? "history " : "") + Word(f.confidence);
      CHECK_MESSAGE(!f.evidence.empty(), f.rule_id << " has no evidence");
      if (scenario == "healthy") CHECK_FALSE(Serious(f.severity));
    }
    CHECK(found == expected);
    for (const auto& run : summary->runs) CHECK_MESSAGE(run.outcome != RuleOutcome::kError, run.rule_id << ": " << run.reason);
    if (!kExpectedOrder.count(scenario)) continue;
    std::vector<std::string> order;
    for (const auto& e : summary->diagnosis.entries) order.push_back(e.place + " " + e.rule_id);
    CHECK(order == kExpectedOrder.at(scenario));
  }
}

TEST_CASE("Rule pack: lints clean, and every rule's samples pass") {
  auto lint = LintRules(test::SourcePath("rules"));
  REQUIRE_MESSAGE(lint.ok(), lint.status().message());
  // Every rule file of the folder is linted: the count is the folder's, not a number kept here.
  size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::SourcePath("rules"))) {
    files += entry.path().extension() == ".yaml";
  }
  CHECK(static_cast<size_t>(lint->rules) == files);
  // Every rule says where its confidences come from and how it is told from its near misses.
  auto pack = LoadRules({test::SourcePath("rules")});
  REQUIRE(pack.ok());
  for (const auto& rule : pack->rules) {
    CAPTURE(rule.id);
    int near_misses = 0;
    for (const auto& sample : rule.samples) near_misses += sample.near_miss;
    CHECK(near_misses >= 2);
    for (const auto& o : rule.outcomes) {
      if (o.result != RuleOutcome::kPass) CHECK_MESSAGE(!o.catalog.empty(), o.when);
    }
  }
  for (const auto& problem : lint->problems) FAIL_CHECK(problem);

  auto set = LoadRules({test::SourcePath("rules")});
  REQUIRE(set.ok());
  auto checks = RunRuleSamples(*set);
  REQUIRE_MESSAGE(checks.ok(), checks.status().message());
  for (const auto& c : *checks) {
    CHECK_MESSAGE(c.passed, c.rule_id << ": " << c.sample << ": expected " << c.expected << ", got " << c.actual
                                      << " (" << c.detail << ")");
  }
}

TEST_CASE("Rule samples: a sample can name text its outcome's summary must say") {
  test::TempDir dir;
  test::WriteFile(dir / "tiny-xid.yaml", R"(id: tiny-xid
title: an Xid
severity: low
description: any Xid in the kernel log
symptom: gpu-fault
role: cause
references:
  - {kind: kb, url: 'https://example.invalid/xid', title: Xid}
requires:
  - journal.kernel
select:
  xid:
    log: journal.kernel
    pattern: 'NVRM: Xid \((?P<bus>[^)]+)\): (?P<n>\d+),'
    kind: event
outcomes:
  - when: xid
    result: warn
    confidence: possible
    summary: 'Xid {xid.n} on {xid.bus}'
    evidence: [xid]
    catalog: 3.12 CONSISTENT
  - result: pass
    summary: no Xid in the kernel log
remediation:
  - Drain the node.
samples:
  - name: the Xid it says
    expect: warn possible
    summary: Xid 79 on PCI:0000:3b:00
    logs:
      journal.kernel: ['[1] NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.']
  - name: another Xid than it says
    expect: warn possible
    summary: Xid 48
    logs:
      journal.kernel: ['[1] NVRM: Xid (PCI:0000:3b:00): 79, GPU has fallen off the bus.']
  - name: why it passed
    expect: pass
    summary: no Xid
    logs:
      journal.kernel: ['[1] NVRM: loading NVIDIA UNIX x86_64 Kernel Module  550.127.05']
)");
  auto set = LoadRules({dir.path()});
  REQUIRE_MESSAGE(set.ok(), set.status().message());
  auto checks = RunRuleSamples(*set);
  REQUIRE(checks.ok());
  REQUIRE(checks->size() == 3);
  CHECK((*checks)[0].passed);
  CHECK_FALSE((*checks)[1].passed);
  CHECK((*checks)[1].expected == "warn possible, saying 'Xid 48'");
  CHECK((*checks)[1].actual == "warn possible, saying 'Xid 79 on PCI:0000:3b:00'");
  CHECK((*checks)[2].passed);
}

}  // TEST_SUITE

}  // namespace gpuf
