// gpuforensics diff on the real sample bundles: the seed incident against the
// healthy node and against its own recovered bundle, a bundle against
// itself, and input it must refuse. The JSON is checked against
// schema/diff.schema.json.
#include <doctest/doctest.h>

#include <algorithm>

#include <nlohmann/json.hpp>

#include "analyzer/diff/bundle_diff.h"
#include "analyzer/diff/diff_facts.h"
#include "tests/json_schema_check.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

using nlohmann::json;

const std::string kSeed = "samples/seed-incident.tar.zst";
const std::string kHealthy = "samples/healthy.tar.zst";
const std::string kRecovery = "samples/recovery.tar.zst";

json DiffJson(const std::string& a, const std::string& b) {
  auto run = test::RunGpuforensics({"diff", test::SourcePath(a), test::SourcePath(b), "--format", "json"});
  REQUIRE(run.exit_code == 0);
  CHECK(run.err == "");
  json doc = json::parse(run.out, nullptr, false);
  REQUIRE_FALSE(doc.is_discarded());
  test::CheckAgainstSchema(doc, "schema/diff.schema.json", "diff");
  return doc;
}

json FactOf(const json& doc, const std::string& section, const std::string& name) {
  for (const auto& s : doc["sections"]) {
    if (s["id"] != section) continue;
    for (const auto& f : s["facts"]) {
      if (f["name"] == name) return f;
    }
  }
  FAIL("no fact " << section << "/" << name);
  return {};
}

}  // namespace

TEST_SUITE("diff") {

TEST_CASE("diff: every fact query names a known section") {
  for (const auto& q : FactQueries()) {
    bool known = false;
    for (const auto& s : DiffSections()) known = known || std::string(s.id) == q.section;
    CHECK_MESSAGE(known, q.section);
  }
}

TEST_CASE("diff: the seed incident against the healthy node names the interval, versions and deployment") {
  json d = DiffJson(kSeed, kHealthy);
  CHECK(d["format_version"] == 1);
  CHECK(d["nodes"]["relation"] == "different_nodes");
  CHECK(d["nodes"]["reason"] == "machine-id differs");
  CHECK(d["recovery"].is_null());

  json interval = FactOf(d, "intervals", "plugin_start_after_persistenced");
  CHECK(interval["a"] == 0.748);
  CHECK(interval["b"] == 13.48);
  CHECK(interval["same"] == false);

  json kubelet = FactOf(d, "versions", "kubelet");
  CHECK(kubelet["a"] == "v1.31.1-aliyun.1");
  CHECK(kubelet["b"] == "v1.30.0-tke.5");
  CHECK(FactOf(d, "versions", "nvidia-kernel-module")["a"] == "535.161.07");
  CHECK(FactOf(d, "versions", "nvidia-kernel-module")["b"] == "535.183.01");
  CHECK(FactOf(d, "versions", "nvidia-device-plugin (image tag)")["a"] == "v0.9.1-5d4ffd0d-aliyun");
  CHECK(FactOf(d, "versions", "nvidia-device-plugin (image tag)")["b"] == "v0.17.0");
  CHECK(FactOf(d, "versions", "cuda")["same"] == true);
  CHECK(FactOf(d, "versions", "kernel")["b"] == "5.15.0-124-generic");

  CHECK(FactOf(d, "plugin", "deployment")["a"] == "static pod");
  CHECK(FactOf(d, "plugin", "deployment")["b"] == "DaemonSet");
  CHECK(FactOf(d, "plugin_config", "failOnInitError")["a"] == "false");
  CHECK(FactOf(d, "plugin_config", "failOnInitError")["b"] == "true");

  CHECK(FactOf(d, "gpu_counts", "PCI GPU functions (sysfs)")["a"] == 8);
  CHECK(FactOf(d, "gpu_counts", "nvidia-smi -L in the plugin container")["same"] == true);
  CHECK(FactOf(d, "gpu_counts", "Node allocatable")["a"] == 0);
  CHECK(FactOf(d, "gpu_counts", "Node allocatable")["b"] == 8);
  CHECK(FactOf(d, "chain", "registration with kubelet")["a"] == "failed");
  CHECK(FactOf(d, "sockets", "nvidia-gpu.sock")["a"].is_null());
  CHECK(FactOf(d, "sockets", "nvidia-gpu.sock")["b"] == "2026-11-18T03:20:17.303500000Z");
  CHECK(FactOf(d, "findings", "dp-started-before-driver-ready")["a"] == "high, confirmed");
  CHECK(FactOf(d, "findings", "dp-started-before-driver-ready")["b"].is_null());
}

TEST_CASE("diff: the seed incident against its recovered bundle confirms a new container and 8/8") {
  json d = DiffJson(kSeed, kRecovery);
  CHECK(d["nodes"]["relation"] == "same_boot");
  const json& r = d["recovery"];
  REQUIRE(r.is_object());
  CHECK(r["verdict"] == "recovered");
  CHECK(r["container_recreated"] == true);
  CHECK(r["a_container"]["id"] == "f3d0365e077f8969c9c8806b8199336bd5e5549d21d399b3e4b30e42d6668713");
  CHECK(r["a_container"]["attempt"] == 1);
  CHECK(r["b_container"]["id"] == "541677869cb8fa84b2f75f0cbe475c44678af8eb3660faf80fdddd0c02945ced");
  CHECK(r["b_container"]["attempt"] == 2);
  CHECK(r["b_container"]["created_at"] == "2026-11-18T13:32:02.606500713Z");
  CHECK(r["a_container_state_in_b"].is_null());  // crictl rm'd
  CHECK(r["registration"]["a"] == "failed");
  CHECK(r["registration"]["b"] == "ok");
  CHECK(r["allocatable"]["a"] == "0");
  CHECK(r["allocatable"]["b"] == "8");
  CHECK(r["gpus"]["b"] == 8);
  CHECK(r["summary"] ==
        "new plugin container 541677869cb8 replaced f3d0365e077f; registered 8/8, allocatable 0 -> 8");
  CHECK(FactOf(d, "versions", "kubelet")["same"] == true);

  auto text = test::RunGpuforensics({"diff", test::SourcePath(kSeed), test::SourcePath(kRecovery)});
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("  verdict           RECOVERED: new plugin container 541677869cb8 replaced f3d0365e077f; "
                      "registered 8/8, allocatable 0 -> 8\n") != std::string::npos);
}

TEST_CASE("diff: the bundles the other way round say B is the older one") {
  json d = DiffJson(kRecovery, kSeed);
  CHECK(d["recovery"]["b_collected_first"] == true);
  CHECK(d["recovery"]["verdict"] == "recreated_not_recovered");
}

TEST_CASE("diff: a bundle against itself shows no differences and the same container loudly") {
  json d = DiffJson(kSeed, kSeed);
  CHECK(d["summary"]["different"] == 0);
  CHECK(d["summary"]["same"].get<int>() > 50);
  CHECK(d["recovery"]["verdict"] == "not_recreated");
  auto text = test::RunGpuforensics({"diff", test::SourcePath(kSeed), test::SourcePath(kSeed)});
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("\n0 facts differ, ") != std::string::npos);
  CHECK(text.out.find("NOT RECREATED: SAME plugin container f3d0365e077f in both: it was NOT recreated") !=
        std::string::npos);
  CHECK(text.out.find("  * ") == std::string::npos);  // no differing line
}

TEST_CASE("diff: --all lists the same facts too, --tz moves the times") {
  auto all = test::RunGpuforensics({"diff", test::SourcePath(kSeed), test::SourcePath(kRecovery), "--all",
                                    "--tz", "node"});
  CHECK(all.exit_code == 0);
  CHECK(all.out.find("  = kubelet ") != std::string::npos);
  CHECK(all.out.find("created 2026-11-18T21:32:02.606+08:00") != std::string::npos);
  auto md = test::RunGpuforensics({"diff", test::SourcePath(kSeed), test::SourcePath(kHealthy), "--format",
                                   "markdown"});
  CHECK(md.exit_code == 0);
  CHECK(md.out.find("| plugin_start_after_persistenced | 0.748 s | 13.480 s |\n") != std::string::npos);
  CHECK(md.out.find("| deployment | static pod | DaemonSet |\n") != std::string::npos);
}

TEST_CASE("diff: a bundle with nothing in it compares as absent everywhere, control characters shown as '?'") {
  test::TempDir dir;
  test::WriteTarZst(dir / "empty.tar.zst", {{"manifest.json", R"({"format":"gpuforensics-bundle","format_version":1,
      "tool":{"name":"gpuforensics","version":"0.1.0"},"host":{"hostname":"n","node_name":"n\u001b[2J\u0007"},
      "collection":{"started_at_unix_ns":1,"ended_at_unix_ns":2,"complete":true},
      "options":{"root":"/"},"artifacts":[]})"}});
  auto run = test::RunGpuforensics({"diff", dir / "empty.tar.zst", test::SourcePath(kHealthy), "--format", "json"});
  REQUIRE(run.exit_code == 0);
  json d = json::parse(run.out);
  CHECK(d["summary"]["same"] == 0);
  CHECK(d["nodes"]["relation"] == "different_nodes");
  CHECK(d["a"]["node"] == "n?[2J?");
  CHECK(FactOf(d, "plugin", "deployment")["a"].is_null());
  CHECK(FactOf(d, "versions", "kubelet")["a"].is_null());
  auto text = test::RunGpuforensics({"diff", dir / "empty.tar.zst", test::SourcePath(kHealthy)});
  CHECK(text.exit_code == 0);
  CHECK(text.out.find('\x1b') == std::string::npos);
  CHECK(text.out.find("   node n?[2J?, machine-id unknown, boot unknown, collected 1970-01-01T00:00:00.000Z\n") !=
        std::string::npos);
}

TEST_CASE("diff: unreadable input and a bad command line get one line and their exit status") {
  test::TempDir dir;
  SUBCASE("missing A") {
    auto r = test::RunGpuforensics({"diff", dir / "nope.tar.zst", test::SourcePath(kHealthy)});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "gpuforensics diff: A: reading '" + dir / "nope.tar.zst" +
                       "': not a gpuforensics bundle (tar.zst): Failed to open '" + dir / "nope.tar.zst" + "'\n");
    CHECK(r.out == "");
  }
  SUBCASE("B is not an archive") {
    test::WriteFile(dir / "text.tar.zst", "hello, this is not an archive\n");
    auto r = test::RunGpuforensics({"diff", test::SourcePath(kSeed), dir / "text.tar.zst"});
    CHECK(r.exit_code == 2);
    CHECK(r.err == "gpuforensics diff: B: reading '" + dir / "text.tar.zst" +
                       "': not a gpuforensics bundle (tar.zst): Unrecognized archive format\n");
    CHECK(r.out == "");
  }
  SUBCASE("B's manifest is not first (hostile order)") {
    test::WriteTarZst(dir / "b.tar.zst", {{"artifacts/0001-x.stdout", "x"}, {"manifest.json", "{}"}});
    auto r = test::RunGpuforensics({"diff", test::SourcePath(kSeed), dir / "b.tar.zst"});
    CHECK(r.exit_code == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.err.rfind("gpuforensics diff: B: reading '", 0) == 0);
  }
  SUBCASE("one bundle only") {
    auto r = test::RunGpuforensics({"diff", test::SourcePath(kSeed)});
    CHECK(r.exit_code == 64);
    CHECK(r.err == "gpuforensics diff: two bundles needed: usage: gpuforensics diff A B\n");
  }
  SUBCASE("unknown format") {
    auto r = test::RunGpuforensics({"diff", test::SourcePath(kSeed), test::SourcePath(kSeed), "--format", "html"});
    CHECK(r.exit_code == 64);
    CHECK(r.err == "gpuforensics diff: --format must be text, json or markdown: see 'gpuforensics diff --help'\n");
  }
  SUBCASE("unknown zone, refused before loading") {
    auto r = test::RunGpuforensics({"diff", dir / "nope", dir / "nope", "--tz", "Mars/Base"});
    CHECK(r.exit_code == 64);
    CHECK(r.err ==
          "gpuforensics diff: --tz 'Mars/Base' is not UTC, +HH:MM, node, or a zone in /usr/share/zoneinfo\n");
  }
}

}  // TEST_SUITE

}  // namespace gpuf
