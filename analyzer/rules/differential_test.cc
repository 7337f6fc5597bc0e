#include "analyzer/rules/differential.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

Finding Make(const std::string& id, const std::string& role, std::string_view confidence,
             std::optional<bool> admissible = true, const std::string& symptom = "gpus-unusable") {
  Finding f;
  f.rule_id = id;
  f.role = role;
  f.confidence = *Parse<Confidence>(confidence);
  f.confidence_before = f.confidence;
  f.admissible = admissible;
  f.symptom = symptom;
  f.severity = Severity::kHigh;
  return f;
}

std::vector<std::string> Places(const Diagnosis& d) {
  std::vector<std::string> out;
  for (const auto& e : d.entries) {
    out.push_back(std::to_string(e.group) + "." + std::to_string(e.rank) + " " + e.place + " " + e.rule_id +
                  (e.under.empty() ? "" : " < " + e.under));
  }
  return out;
}

}  // namespace

TEST_SUITE("differential") {

TEST_CASE("Diagnose: the cause leads its symptom, amplifiers and consequences hang under it") {
  // The seed incident: the start race and failOnInitError=false, both confirmed.
  Diagnosis d = Diagnose({Make("dp-null-manager", "amplifier", "confirmed"), Make("dp-started", "cause", "confirmed")},
                         {});
  CHECK(Places(d) == std::vector<std::string>{"1.1 root_cause dp-started", "1.2 amplifier dp-null-manager < dp-started"});
  REQUIRE(d.Leader() != nullptr);
  CHECK(d.Leader()->rule_id == "dp-started");
  CHECK(d.decider.empty());
}

TEST_CASE("Diagnose: history the evidence cannot order lists the cause first, so its advice leads") {
  Finding amplifier = Make("a-null-manager", "amplifier", "confirmed");
  Finding cause = Make("dp-started", "cause", "confirmed");
  amplifier.tense = cause.tense = Tense::kHistory;
  Diagnosis d = Diagnose({amplifier, cause}, {});
  CHECK(Places(d) == std::vector<std::string>{"0.1 history dp-started", "0.2 history a-null-manager"});
}

TEST_CASE("Diagnose: admissible first, then confidence, then the confirming share") {
  Finding late = Make("late", "cause", "confirmed", std::nullopt);
  Finding sure = Make("sure", "cause", "likely");
  Finding surer = Make("surer", "cause", "likely");
  sure.confirming_held = 1;
  sure.confirming_total = 3;
  surer.confirming_held = 2;
  surer.confirming_total = 3;
  Diagnosis d = Diagnose({late, sure, surer}, {});
  CHECK(Places(d) == std::vector<std::string>{"1.1 root_cause surer", "1.2 alternative sure < surer",
                                              "1.3 alternative late < surer"});
}

TEST_CASE("Diagnose: causes that cannot be told apart compete, with the capture that decides") {
  Finding race = Make("dp-started", "cause", "possible");
  Finding cgroup = Make("ctk-reload", "cause", "possible");
  AgainstResult unknown;
  unknown.text = "its devices.list still allows the GPUs";
  unknown.effect = "rule-out";
  unknown.state = "unknown";
  unknown.needs = {"plugin.devices_list"};
  cgroup.against.push_back(unknown);
  Diagnosis d = Diagnose({race, cgroup}, {});
  CHECK(Places(d) == std::vector<std::string>{"1.1 root_cause ctk-reload", "1.2 competing dp-started < ctk-reload"});
  CHECK(d.decider == "capture plugin.devices_list: its devices.list still allows the GPUs rules out ctk-reload");
}

TEST_CASE("Diagnose: groups by symptom, the best leader first, history and ruled out apart") {
  Finding xid = Make("xid-79", "cause", "confirmed", true, "gpu-fault");
  Finding view = Make("view-mismatch", "consequence", "likely");
  Finding old = Make("old-race", "cause", "confirmed", false);
  old.tense = Tense::kHistory;
  Finding excluded = Make("ctk-reload", "cause", "possible");
  excluded.tense = Tense::kRuledOut;
  Diagnosis d = Diagnose({view, old, xid}, {excluded});
  CHECK(Places(d) == std::vector<std::string>{"1.1 root_cause xid-79", "2.1 lead view-mismatch",
                                              "0.1 history old-race", "0.1 ruled_out ctk-reload"});
  CHECK(d.Find("view-mismatch")->role == "consequence");
  CHECK(d.Find("absent") == nullptr);
}

TEST_CASE("Diagnose: nothing current, no leader") {
  Finding old = Make("old-race", "cause", "confirmed", false);
  old.tense = Tense::kHistory;
  Diagnosis d = Diagnose({old}, {});
  CHECK(d.Leader() == nullptr);
  CHECK(Diagnose({}, {}).entries.empty());
}

}  // TEST_SUITE

}  // namespace gpuf
