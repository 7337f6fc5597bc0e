// analyze --format json against its documented schema (schema/report.schema.json):
// every required field present at every level, on a sample with findings.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "tests/test_support.h"

namespace gpuf {

namespace {

using nlohmann::json;

// Checks `value` has every field `schema` requires, recursively through
// objects and array items. Types are checked for the JSON kinds named.
void CheckRequired(const json& schema, const json& value, const std::string& where) {
  if (schema.contains("required")) {
    REQUIRE_MESSAGE(value.is_object(), where << " is not an object");
    for (const auto& key : schema["required"]) {
      CHECK_MESSAGE(value.contains(key.get<std::string>()), where << " lacks " << key);
    }
  }
  if (schema.contains("properties") && value.is_object()) {
    for (const auto& [key, sub] : schema["properties"].items()) {
      if (value.contains(key)) CheckRequired(sub, value[key], where + "." + key);
    }
  }
  if (schema.contains("items") && value.is_array()) {
    for (size_t i = 0; i < value.size(); ++i) CheckRequired(schema["items"], value[i], where + "[" + std::to_string(i) + "]");
  }
  if (schema.contains("enum")) {
    bool listed = false;
    for (const auto& allowed : schema["enum"]) listed = listed || allowed == value;
    CHECK_MESSAGE(listed, where << " = " << value.dump() << " is not one of " << schema["enum"].dump());
  }
}

}  // namespace

TEST_SUITE("report_json") {

TEST_CASE("analyze --format json: the seed incident, every documented field, its two findings") {
  auto run = test::RunGpuforensics({"analyze", test::SourcePath("samples/seed-incident.tar.zst"), "--format", "json"});
  CHECK(run.exit_code == 1);  // high findings
  json report = json::parse(run.out, nullptr, false);
  REQUIRE_FALSE(report.is_discarded());
  json schema = json::parse(test::ReadFile(test::SourcePath("schema/report.schema.json")));
  CheckRequired(schema, report, "report");
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
