// Results that tell the truth: the exit status follows the verdict
// (common/exit_codes.h), a report says what it could not vouch for, a
// failed write to stdout is an error, and `sql` only reads. Each case
// builds its hostile input itself; docs/robustness.md lists them.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "common/sha256.h"
#include "tests/fake_node.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kSeed = test::SourcePath("samples/seed-incident.tar.zst");
const std::string kHealthy = test::SourcePath("samples/healthy.tar.zst");

// A copy of `bundle` whose manifest `edit` changes (members unchanged).
std::string WithManifest(const std::string& bundle, const std::string& out, const std::function<void(json&)>& edit) {
  auto members = test::ReadBundleMembers(bundle);
  json manifest = json::parse(members.at(0).second);
  edit(manifest);
  members[0].second = manifest.dump();
  test::WriteTarZst(out, members);
  return out;
}

// A copy of `bundle` whose member ending in `suffix` holds `content`, the
// manifest updated to match: a consistent bundle of another node.
std::string WithMember(const std::string& bundle, const std::string& out, const std::string& suffix,
                       const std::string& content) {
  auto members = test::ReadBundleMembers(bundle);
  json manifest = json::parse(members.at(0).second);
  for (auto& [name, data] : members) {
    if (name.size() < suffix.size() || name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0) continue;
    data = content;
    for (auto& a : manifest["artifacts"]) {
      for (auto& o : a["outputs"]) {
        if (o["member"] != name) continue;
        o["size_bytes"] = content.size();
        o["sha256"] = Sha256Hex(content);
      }
    }
  }
  members[0].second = manifest.dump();
  test::WriteTarZst(out, members);
  return out;
}

}  // namespace

TEST_SUITE("exit_status") {

TEST_CASE("exit status: a copied binary without a rules folder still knows every built-in rule") {
  test::TempDir dir;
  const std::string binary = dir / "gpuforensics";
  fs::copy_file(test::GpuforensicsBinary(), binary);
  fs::copy_file(kSeed, dir / "seed.tar.zst");
  // The source tree, where a build looked for rules/, is hidden from the copy.
  auto r = test::RunProcess({"/usr/bin/unshare", "-m", "/bin/sh", "-c",
                             "mount -t tmpfs tmpfs \"$2\" && exec \"$0\" analyze \"$1\"", binary, dir / "seed.tar.zst",
                             test::SourcePath("rules")});
  CHECK(r.exit_code == 1);
  CHECK(r.out.find("dp-null-manager-after-nvml-failure") != std::string::npos);
  CHECK(r.out.find("No known issue recognized") == std::string::npos);
}

TEST_CASE("exit status: a bundle whose members are all missing says so and is not 0") {
  test::TempDir dir;
  auto members = test::ReadBundleMembers(kHealthy);
  test::WriteTarZst(dir / "empty.tar.zst", {members.at(0)});
  auto r = test::RunGpuforensics({"analyze", dir / "empty.tar.zst"});
  CHECK(r.exit_code != 0);
  CHECK(r.out.find("of the bundle's members are missing or do not match the manifest") != std::string::npos);
  CHECK(r.out.find("Every rule had the evidence it needs") == std::string::npos);
  auto rules = test::RunGpuforensics({"rules", "run", dir / "empty.tar.zst"});
  CHECK(rules.exit_code == 3);
}

TEST_CASE("exit status: a BROKEN chain is 1 for analyze, many bundles, rules run and diff shows damage") {
  test::TempDir dir;
  SUBCASE("one bundle, chain broken without a rule finding") {
    // The healthy node with its Node's allocatable at 0: no rule fires, the chain breaks at its last step.
    auto node = test::ReadBundleMembers(kHealthy);
    std::string node_json;
    for (const auto& [name, data] : node) {
      if (name.ends_with("k8s.node.stdout")) node_json = data;
    }
    REQUIRE(!node_json.empty());
    json doc = json::parse(node_json);
    doc["status"]["allocatable"]["nvidia.com/gpu"] = "0";
    doc["status"]["capacity"]["nvidia.com/gpu"] = "0";
    const std::string broken = WithMember(kHealthy, dir / "broken.tar.zst", "k8s.node.stdout", doc.dump(2) + "\n");
    auto r = test::RunGpuforensics({"analyze", broken});
    CHECK(r.out.find("BROKEN at step") != std::string::npos);
    CHECK(r.exit_code == 1);
  }
  SUBCASE("rules run with a finding at medium or above") {
    auto r = test::RunGpuforensics({"rules", "run", kSeed});
    CHECK(r.out.find("fail high") != std::string::npos);
    CHECK(r.exit_code == 1);
  }
  SUBCASE("many bundles into a fleet database") {
    auto r = test::RunGpuforensics({"analyze", "--db", dir / "fleet.sqlite", kSeed, kHealthy});
    CHECK(r.exit_code == 1);
    CHECK(r.err.find("2 of 2 bundles analyzed into " + (dir / "fleet.sqlite")) != std::string::npos);
  }
  SUBCASE("diff and fleet against a bundle whose every hash mismatches") {
    const std::string forged = WithManifest(kHealthy, dir / "forged.tar.zst", [](json& m) {
      for (auto& a : m["artifacts"]) {
        for (auto& o : a["outputs"]) o["sha256"] = std::string(64, '0');
      }
    });
    auto diff = test::RunGpuforensics({"diff", kSeed, forged});
    CHECK(diff.exit_code == 3);
    CHECK(diff.out.find("   NOT TRUSTWORTHY: ") != std::string::npos);
    auto fleet = test::RunGpuforensics({"analyze", "--db", dir / "f.sqlite", kHealthy, forged});
    CHECK(fleet.exit_code == 3);
    auto summary = test::RunGpuforensics({"fleet", dir / "f.sqlite"});
    CHECK(summary.exit_code == 3);
    CHECK(summary.out.find("  1 of them incomplete or with members missing or not matching the manifest\n") !=
          std::string::npos);
  }
}

TEST_CASE("exit status: a failed write to stdout is 74, and a NUL in the node name does not cut the report") {
  test::TempDir dir;
  auto full = test::RunProcess({"/bin/sh", "-c", "exec \"$0\" analyze \"$1\" >/dev/full", test::GpuforensicsBinary(),
                                kSeed});
  CHECK(full.exit_code == 74);
  CHECK(full.err == "gpuforensics analyze: writing to stdout: No space left on device\n");
  // The timeline is written as it is read: the failure ends it with the same one line.
  auto timeline = test::RunProcess({"/bin/sh", "-c", "exec \"$0\" timeline --all \"$1\" >/dev/full",
                                    test::GpuforensicsBinary(), kSeed});
  CHECK(timeline.exit_code == 74);
  CHECK(timeline.err == "gpuforensics timeline: writing to stdout: No space left on device\n");

  const std::string nul = WithManifest(kHealthy, dir / "nul.tar.zst", [](json& m) {
    m["host"]["node_name"] = std::string("gpu-node\0evil", 13);
  });
  auto r = test::RunGpuforensics({"analyze", nul});
  CHECK(r.exit_code == 0);
  // Shown, not sent: a NUL is a control byte like any other (common/terminal_text.h).
  CHECK(r.out.find("gpu-node\\x00evil") != std::string::npos);
  CHECK(r.out.find("Boot timeline") != std::string::npos);
}

TEST_CASE("exit status: timeline of a bundle whose member was altered warns and is not 0") {
  test::TempDir dir;
  auto members = test::ReadBundleMembers(kSeed);
  std::string altered;
  for (auto& [name, data] : members) {
    if (name.find("journal.kernel") == std::string::npos) continue;
    data += "Dec 05 10:00:00 gpu-node-7 kernel: a line added after the capture\n";  // the manifest keeps the old hash
    altered = name;
  }
  REQUIRE(!altered.empty());
  test::WriteTarZst(dir / "altered.tar.zst", members);
  auto r = test::RunGpuforensics({"timeline", dir / "altered.tar.zst"});
  CHECK(r.exit_code == 3);
  CHECK(r.err.find("members do not match the manifest; their lines above are not evidence") != std::string::npos);
  CHECK(r.err.find("  " + altered + ": ") != std::string::npos);
  CHECK(test::RunGpuforensics({"timeline", kSeed}).exit_code == 0);
}

TEST_CASE("exit status: a --db on a full disk is 74, output into a closed pipe is 74 and quiet") {
  test::TempDir dir;
  // A file size limit: a full disk, in small.
  auto full = test::RunProcess({"/bin/sh", "-c",
                                "trap '' XFSZ; exec /usr/bin/prlimit --fsize=65536 \"$0\" analyze "
                                "\"$1\" --db \"$2\"",
                                test::GpuforensicsBinary(), kSeed, dir / "analysis.db"});
  CHECK_MESSAGE(full.exit_code == 74, full.err);
  CHECK(!fs::exists(dir / "analysis.db"));
  // `| true`: the reader goes away at once; no death by SIGPIPE (141), no complaint.
  auto closed = test::RunProcess({"/bin/bash", "-c", "\"$0\" analyze \"$1\" | true; echo \"${PIPESTATUS[0]}\" >&2",
                                  test::GpuforensicsBinary(), kSeed});
  CHECK(closed.err == "74\n");  // stderr holds only the status echoed
}

TEST_CASE("exit status: --node must be a Node's name, a bad or overridden $NODE_NAME is said") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  test::TempDir dir;
  for (const char* bad : {" ", "a/b", "node\nname", "Gpu-Node"}) {
    CAPTURE(bad);
    auto r = test::RunGpuforensics({"collect", "--root", host.root(), "-o", dir / "b.tar.zst", "--node", bad},
                                   {host.PathEnv(), "KUBECONFIG="});
    CHECK(r.exit_code == 64);
    CHECK(r.err.find("is not a Node's name") != std::string::npos);
    CHECK(!fs::exists(dir / "b.tar.zst"));
  }
  auto ignored = test::RunGpuforensics({"collect", "--root", host.root(), "-o", dir / "env.tar.zst", "--timeout", "2"},
                                       {host.PathEnv(), "KUBECONFIG=", "NODE_NAME=a/b"});
  CHECK(ignored.err.find("warning: ignoring $NODE_NAME 'a/b'") != std::string::npos);
  CHECK(json::parse(test::ReadBundleMembers(dir / "env.tar.zst").at(0).second)["host"]["node_name"] != "a/b");
  auto overridden = test::RunGpuforensics(
      {"collect", "--root", host.root(), "-o", dir / "opt.tar.zst", "--timeout", "2", "--node", "gpu-node-7"},
      {host.PathEnv(), "KUBECONFIG=", "NODE_NAME=gpu-node-8"});
  CHECK(overridden.err.find("warning: --node 'gpu-node-7' overrides $NODE_NAME 'gpu-node-8'") != std::string::npos);
}

TEST_CASE("exit status: an empty rule folder is a problem for lint and a warning for analyze") {
  test::TempDir dir;
  const std::string rules = dir / "site-rules";
  fs::create_directory(rules);
  auto lint = test::RunGpuforensics({"rules", "lint", rules});
  CHECK(lint.exit_code == 1);
  CHECK(lint.out.find(rules + ": no rule files (*.yaml) in this folder") != std::string::npos);
  auto analyzed = test::RunGpuforensics({"analyze", kHealthy, "--rules", rules});
  CHECK(analyzed.exit_code == 0);
  CHECK(analyzed.err.find("warning: --rules '" + rules + "' holds no rule files (*.yaml)") != std::string::npos);
}

TEST_CASE("exit status: rules lint never follows a link out of its folder") {
  test::TempDir dir;
  const std::string rules = dir / "site-rules";
  fs::create_directory(rules);
  test::WriteFile(dir / "secret.yaml", "id: gpufleak-outside\npassword: hunter2\n");
  fs::create_symlink(dir / "secret.yaml", rules + "/outside.yaml");
  // A link inside the folder, as a ConfigMap volume lays its files out, is read.
  fs::create_directory(rules + "/..data");
  fs::copy_file(test::SourcePath("rules/xid-79-fallen-off-bus.yaml"), rules + "/..data/xid-79-fallen-off-bus.yaml");
  fs::create_symlink(rules + "/..data/xid-79-fallen-off-bus.yaml", rules + "/xid-79-fallen-off-bus.yaml");
  auto lint = test::RunGpuforensics({"rules", "lint", rules});
  CHECK(lint.out.find("gpufleak-outside") == std::string::npos);
  CHECK(lint.out.find("hunter2") == std::string::npos);
  CHECK(lint.out.find("1 rules read") != std::string::npos);
}

TEST_CASE("sql: functions that leak an address or load code are refused") {
  for (const char* query : {"SELECT fts3_tokenizer('simple')", "SELECT load_extension('/tmp/x.so')"}) {
    CAPTURE(query);
    auto r = test::RunGpuforensics({"sql", kHealthy, query});
    CHECK(r.exit_code == 64);
    CHECK(r.out == "");
    CHECK(r.err.find("not authorized") != std::string::npos);
  }
}

TEST_CASE("sql: only reads, through a read-only connection") {
  test::TempDir dir;
  const std::string db = dir / "a.db";
  REQUIRE(test::RunGpuforensics({"analyze", kHealthy, "--db", db}).exit_code == 0);
  for (const std::string& source : {kHealthy, db}) {
    auto vacuum = test::RunGpuforensics({"sql", source, "VACUUM INTO '" + (dir / "copy.db") + "'"});
    CHECK(vacuum.exit_code == 64);
    CHECK(vacuum.err == "gpuforensics sql: SQL: only statements that read are allowed\n");
    auto attach = test::RunGpuforensics({"sql", source, "ATTACH DATABASE '" + (dir / "new.db") + "' AS x"});
    CHECK(attach.exit_code == 64);
    CHECK(attach.err == "gpuforensics sql: SQL: not authorized\n");
    auto write = test::RunGpuforensics({"sql", source, "DELETE FROM bundles"});
    CHECK(write.exit_code == 64);
    auto pragma = test::RunGpuforensics({"sql", source, "PRAGMA user_version = 7"});
    CHECK(pragma.exit_code == 64);
    auto read = test::RunGpuforensics({"sql", source, "PRAGMA table_info(bundles)"});
    CHECK(read.exit_code == 0);
  }
  CHECK(!fs::exists(dir / "copy.db"));
  CHECK(!fs::exists(dir / "new.db"));
  CHECK(test::RunGpuforensics({"sql", db, "SELECT count(*) FROM bundles"}).out == "count(*)\n1\n");
}

}  // TEST_SUITE

}  // namespace gpuf
