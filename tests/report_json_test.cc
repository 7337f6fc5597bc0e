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
  CHECK(report["findings"][0]["id"] == "dp-null-manager-after-nvml-failure");
  CHECK(report["findings"][1]["id"] == "dp-started-before-driver-ready");
  CHECK(report["findings"][1]["confidence"] == "confirmed");
  CHECK(report["chain"][6]["status"] == "failed");
  CHECK(report["chain_summary"] == "BROKEN at step 7, device plugin NVML init (2 later steps fail with it)");
  CHECK(report["coverage"]["artifacts_timed_out"] == 0);
  REQUIRE(report["coverage"]["empty"].size() == 2);
  CHECK(report["coverage"]["empty"][0]["artifact"] == "journal.nvidia_fabricmanager[boot:-1]");
  bool containerd = false;
  for (const auto& v : report["versions"]) containerd = containerd || (v["component"] == "containerd" && v["version"] == "v1.6.34");
  CHECK(containerd);
}

TEST_CASE("analyze: the healthy node exits 0 with no findings") {
  auto run = test::RunGpuforensics({"analyze", test::SourcePath("samples/healthy.tar.zst"), "--format", "json"});
  CHECK(run.exit_code == 0);
  json report = json::parse(run.out);
  CHECK(report["findings"].empty());
}

}  // TEST_SUITE

}  // namespace gpuf
