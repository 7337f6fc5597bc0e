// analyze --format json against its documented schema (schema/report.schema.json):
// every required field present at every level, on a sample with findings.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/json_schema_check.h"
#include "tests/test_support.h"

namespace gpuf {

using nlohmann::json;

TEST_SUITE("report_json") {

TEST_CASE("analyze --format json: the seed incident, every documented field, its two findings") {
  auto run = test::RunGpuforensics({"analyze", test::SourcePath("samples/seed-incident.tar.zst"), "--format", "json"});
  CHECK(run.exit_code == 1);  // high findings
  json report = json::parse(run.out, nullptr, false);
  REQUIRE_FALSE(report.is_discarded());
  test::CheckAgainstSchema(report, "schema/report.schema.json", "report");
  REQUIRE(report["findings"].size() == 2);
  // The root cause first, its amplifier under it.
  CHECK(report["findings"][0]["id"] == "dp-started-before-driver-ready");
  CHECK(report["findings"][0]["confidence"] == "confirmed");
  CHECK(report["findings"][0]["role"] == "cause");
  CHECK(report["findings"][0]["tense"] == "current");
  CHECK(report["findings"][0]["admissible"] == true);
  CHECK(report["findings"][1]["id"] == "dp-null-manager-after-nvml-failure");
  CHECK(report["findings"][1]["role"] == "amplifier");
  CHECK(report["chain"][6]["status"] == "failed");
  CHECK(report["chain_summary"] == "BROKEN at step 7, device plugin NVML init (2 later steps fail with it); root cause: "
                                   "dp-started-before-driver-ready (confirmed)");
  const json& diagnosis = report["diagnosis"];
  CHECK(diagnosis["root_cause"] == "dp-started-before-driver-ready");
  REQUIRE(diagnosis["entries"].size() == 2);
  CHECK(diagnosis["entries"][1]["place"] == "amplifier");
  CHECK(diagnosis["entries"][1]["under"] == "dp-started-before-driver-ready");
  CHECK(diagnosis["next_action"]["kind"] == "fix");
  CHECK(diagnosis["next_action"]["command"] == "crictl stop f3d0365e077f8 && crictl rm f3d0365e077f8");
  CHECK(diagnosis["ruled_out"].empty());
  CHECK(report["coverage"]["artifacts_timed_out"] == 0);
  // Fabric Manager (no NVSwitch) and journald (nothing dropped) logged nothing, in either boot.
  REQUIRE(report["coverage"]["empty"].size() == 4);
  CHECK(report["coverage"]["empty"][0]["artifact"] == "journal.journald[boot:-1]");
  CHECK(report["coverage"]["empty"][2]["artifact"] == "journal.nvidia_fabricmanager[boot:-1]");
  bool containerd = false;
  for (const auto& v : report["versions"]) containerd = containerd || (v["component"] == "containerd" && v["version"] == "v1.6.34");
  CHECK(containerd);
}

TEST_CASE("analyze --format json: the worked example rules the daemon-reload issue out, devices.list against it") {
  auto run = test::RunGpuforensics(
      {"analyze", test::SourcePath("samples/unknown-error-devices-kept.tar.zst"), "--format", "json"});
  CHECK(run.exit_code == 1);
  json report = json::parse(run.out, nullptr, false);
  REQUIRE_FALSE(report.is_discarded());
  test::CheckAgainstSchema(report, "schema/report.schema.json", "report");
  for (const auto& f : report["findings"]) CHECK(f["id"] != "ctk-daemon-reload-device-cgroup-loss");
  const json& ruled_out = report["diagnosis"]["ruled_out"];
  REQUIRE(ruled_out.size() == 1);
  CHECK(ruled_out[0]["id"] == "ctk-daemon-reload-device-cgroup-loss");
  CHECK(ruled_out[0]["confidence_before"] == "possible");
  CHECK(ruled_out[0]["tense"] == "ruled_out");
  const json& against = ruled_out[0]["against"];
  REQUIRE(against.size() == 4);
  CHECK(against[0]["effect"] == "rule-out");
  CHECK(against[0]["state"] == "held");
  REQUIRE(against[0]["evidence"].size() == 1);
  CHECK(against[0]["evidence"][0]["text"] ==
        "devices.list of 552f83dc405c0 still allows c 195:255 rw, c 195:0 rw, c 195:1 rw, c 195:2 rw, c 195:3 rw");
  CHECK(against[1]["state"] == "held");  // no daemon-reload after the container started
  CHECK(against[2]["state"] == "not_seen");  // the kubelet's CPU manager policy is not static
  CHECK(against[3]["state"] == "not_seen");
}

TEST_CASE("analyze: the healthy node exits 0 with no findings") {
  auto run = test::RunGpuforensics({"analyze", test::SourcePath("samples/healthy.tar.zst"), "--format", "json"});
  CHECK(run.exit_code == 0);
  json report = json::parse(run.out);
  CHECK(report["findings"].empty());
}

}  // TEST_SUITE

}  // namespace gpuf
