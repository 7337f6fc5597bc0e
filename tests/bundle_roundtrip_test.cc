// collect -> bundle -> verify/analyze, and the manifest against its written
// contract in schema/bundle.md.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "common/sha256.h"
#include "tests/fake_node.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

using nlohmann::json;

// Dotted paths of every key in the manifest, arrays written as "[]".
void CollectKeys(const json& node, const std::string& prefix, std::set<std::string>& keys) {
  if (node.is_object()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      std::string path = prefix.empty() ? it.key() : prefix + "." + it.key();
      if (!it.value().is_object()) keys.insert(path);  // objects are documented through their fields
      CollectKeys(it.value(), path, keys);
    }
  } else if (node.is_array()) {
    for (const auto& item : node) {
      if (item.is_object()) CollectKeys(item, prefix + "[]", keys);
    }
  }
}

// The first-column `names` of the field tables in schema/bundle.md; with
// `section`, only those under that "## " heading.
std::set<std::string> DocumentedFields(const std::string& section = "") {
  std::set<std::string> fields;
  std::regex row(R"(^\| `([a-z0-9_.\[\]]+)` \|)");
  std::istringstream in(test::ReadFile(test::SourcePath("schema/bundle.md")));
  std::string line, heading;
  std::smatch match;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) heading = line.substr(3);
    if (!section.empty() && heading != section) continue;
    if (std::regex_search(line, match, row)) fields.insert(match[1]);
  }
  return fields;
}

bool IsImportOnlyField(const std::string& key) {
  return key.rfind("origin.", 0) == 0 || key == "artifacts[].source_file";
}

// Written only where a journal overfills a slice's cap: tests/collect_fakehost_test.cc makes one.
bool IsBigJournalOnlyField(const std::string& key) { return key == "artifacts[].journal_narrowed_argv"; }

}  // namespace

TEST_SUITE("bundle_roundtrip") {

TEST_CASE("bundle: the manifest writes exactly the fields schema/bundle.md documents") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  const std::string out = host.root() + "/../node.tar.zst";
  auto run = test::RunGpuforensics({"collect", "--root", host.root(), "-o", out}, {host.PathEnv(), "KUBECONFIG="});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  auto members = test::ReadBundleMembers(out);
  json manifest = json::parse(members.at(0).second);
  std::set<std::string> written;
  CollectKeys(manifest, "", written);
  std::set<std::string> documented = DocumentedFields();
  REQUIRE(documented.size() > 50);
  for (const auto& key : written) CHECK_MESSAGE(documented.count(key), "undocumented field: " << key);
  const std::set<std::string> redaction_only = DocumentedFields("Redacted bundles");
  REQUIRE(redaction_only.size() == 7);
  for (const auto& key : documented) {
    if (IsImportOnlyField(key)) continue;  // written by `import`: tests/import_test.cc checks them
    if (IsBigJournalOnlyField(key)) continue;
    if (redaction_only.count(key)) {
      CHECK_MESSAGE(!written.count(key), "written without --redact: " << key);
    } else {
      CHECK_MESSAGE(written.count(key), "documented but never written: " << key);
    }
  }

  // Every output's size and hash match its member; every member but the
  // manifest is named by exactly one output; members after the manifest are sorted.
  std::map<std::string, std::string> by_name(members.begin() + 1, members.end());
  size_t outputs = 0;
  for (const auto& a : manifest["artifacts"]) {
    for (const auto& o : a["outputs"]) {
      ++outputs;
      auto it = by_name.find(o["member"]);
      REQUIRE_MESSAGE(it != by_name.end(), o["member"]);
      CHECK(static_cast<int64_t>(it->second.size()) == o["size_bytes"].get<int64_t>());
      CHECK(Sha256Hex(it->second) == o["sha256"]);
    }
  }
  CHECK(outputs == members.size() - 1);
  CHECK(std::is_sorted(members.begin() + 1, members.end()));
}

TEST_CASE("bundle: a redacted manifest writes exactly the fields schema/bundle.md documents") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  const std::string out = host.root() + "/../node.tar.zst";
  auto run = test::RunGpuforensics({"collect", "--root", host.root(), "-o", out, "--redact", "--map",
                                    host.root() + "/../node.map.json"},
                                   {host.PathEnv(), "KUBECONFIG="});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  json manifest = json::parse(test::ReadBundleMembers(out).at(0).second);
  std::set<std::string> written;
  CollectKeys(manifest, "", written);
  std::set<std::string> documented = DocumentedFields();
  for (const auto& key : written) CHECK_MESSAGE(documented.count(key), "undocumented field: " << key);
  for (const auto& key : DocumentedFields("Redacted bundles")) {
    CHECK_MESSAGE(written.count(key), "documented but never written: " << key);
  }
  CHECK(manifest["host"]["node_name"] == "node-0001");
  CHECK(test::RunGpuforensics({"verify", out}).exit_code == 0);
}

TEST_CASE("bundle: analyze and verify read what collect wrote") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  const std::string out = host.root() + "/../node.tar.zst";
  const std::string db = host.root() + "/../analysis.db";
  auto run = test::RunGpuforensics({"collect", "--root", host.root(), "-o", out}, {host.PathEnv(), "KUBECONFIG="});
  REQUIRE(run.exit_code == 0);
  auto verify = test::RunGpuforensics({"verify", out});
  CHECK(verify.exit_code == 0);
  CHECK(verify.out.find("0 problems") != std::string::npos);
  auto analyze = test::RunGpuforensics({"analyze", out, "--db", db});
  // The fake node's plugin container lost its device cgroup: a high finding, exit status 1.
  REQUIRE_MESSAGE(analyze.exit_code == 1, analyze.err);
  CHECK(analyze.err == "");
  const std::string& report = analyze.out;
  CHECK(report.find("integrity: every member matches the manifest") != std::string::npos);
  CHECK(report.find("  1  PCI devices                          ok       2 NVIDIA GPU functions on the PCI bus\n") !=
        std::string::npos);
  CHECK(report.find("  4  NVML on the host (nvidia-smi)        ok       2 GPUs listed\n") != std::string::npos);
  CHECK(report.find("  5  container runtime + NVIDIA toolkit   FAILED   plugin container 5f1d2c3b4a596 "
                    "CONTAINER_RUNNING; default runtime 'nvidia'; nvidia-smi in the container: nvml_unknown_error: "
                    "Failed to initialize NVML: Unknown Error\n") != std::string::npos);
  CHECK(report.find("  7  device plugin NVML init              FAILED   Failed to initialize NVML: could not load NVML "
                    "library.\n") != std::string::npos);
  CHECK(report.find("  9  Node capacity/allocatable            FAILED   nvidia.com/gpu capacity 0, allocatable 0\n") !=
        std::string::npos);
  // Its devices.list lost the GPUs (an observed event) while host nvidia-smi works; the node has no
  // journal at all, so the daemon-reload that would explain it is not captured, neither seen nor
  // evidence against: likely, and the root cause.
  CHECK(report.find("\n  [HIGH, likely] root cause - ctk-daemon-reload-device-cgroup-loss: ") != std::string::npos);
  CHECK(report.find("      not captured (journal.systemd): no daemon-reload in this boot's journal after the container "
                    "started\n") != std::string::npos);

  // The database is real SQLite, queryable with the sqlite3 shell.
  auto gpus = test::RunProcess({"/usr/bin/sqlite3", db, "SELECT gpu_index, uuid FROM gpus ORDER BY gpu_index"});
  CHECK(gpus.out == "0|GPU-5b3c8a8e-0d1f-4a43-9a8e-2b1d3c4e5f60\n1|GPU-7d2e9f10-3a4b-4c5d-8e9f-0a1b2c3d4e5f\n");

  // gpuforensics sql answers from the kept database and straight from the bundle, read-only.
  for (const std::string& source : {db, out}) {
    auto sql = test::RunGpuforensics({"sql", source, "SELECT role, count(*) AS n FROM pci_devices GROUP BY role"});
    CHECK(sql.exit_code == 0);
    CHECK(sql.out == "role\tn\ngpu\t2\n");
  }
  auto write = test::RunGpuforensics({"sql", db, "DELETE FROM gpus"});
  CHECK(write.exit_code == 64);
  CHECK(write.err == "gpuforensics sql: SQL: not authorized\n");
  auto two = test::RunGpuforensics({"sql", out, "SELECT 1; SELECT 2"});
  CHECK(two.exit_code == 64);
  CHECK(two.err == "gpuforensics sql: SQL: one statement at a time\n");
}

TEST_CASE("bundle: a tampered member fails verify and is flagged by analyze") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  const std::string out = host.root() + "/../node.tar.zst";
  REQUIRE(test::RunGpuforensics({"collect", "--root", host.root(), "-o", out}, {host.PathEnv(), "KUBECONFIG="})
              .exit_code == 0);
  auto members = test::ReadBundleMembers(out);
  std::string target;
  for (auto& [name, data] : members) {
    if (name.find("host.nvidia_smi_list.stdout") != std::string::npos) {
      data = "GPU 0: forged\n";
      target = name;
    }
  }
  REQUIRE(!target.empty());
  const std::string forged = host.root() + "/../forged.tar.zst";
  test::WriteTarZst(forged, members);
  auto verify = test::RunGpuforensics({"verify", forged});
  CHECK(verify.exit_code == 1);
  CHECK(verify.out.find("FAIL " + target + ": size 14 differs from manifest") != std::string::npos);
  auto analyze = test::RunGpuforensics({"analyze", forged});
  CHECK(analyze.exit_code == 1);
  CHECK(analyze.out.find("integrity: PROBLEMS") != std::string::npos);
}

TEST_CASE("bundle: re-packed as tar.gz, plain tar, re-made tar.zst or a directory, it verifies and analyzes as the tar.zst") {
  test::TempDir dir;
  const std::string seed = test::SourcePath("samples/seed-incident.tar.zst");
  // What a ticket system or a support desk does to an attachment.
  const std::string unpacked = dir / "CASE-123456 node-a";
  const std::string script = "set -e; zstd -q -dc '" + seed + "' > '" + dir / "seed.tar" + "'; mkdir '" + unpacked +
                             "'; tar -xf '" + dir / "seed.tar" + "' -C '" + unpacked + "'; cd '" + unpacked +
                             "'; tar -czf '" + dir / "seed.tar.gz" + "' artifacts manifest.json; tar --zstd -cf '" +
                             dir / "re-tarred.tar.zst" + "' artifacts manifest.json";
  auto made = test::RunProcess({"/bin/sh", "-c", script});
  REQUIRE_MESSAGE(made.exit_code == 0, made.err);
  auto reference = test::RunGpuforensics({"analyze", seed, "--format", "json"});
  const auto expected = nlohmann::json::parse(reference.out);
  // "110 of 110 members verified" as the tar.zst's own verify counts them.
  const std::string original = test::RunGpuforensics({"verify", seed}).out;
  const size_t end = original.find(" members verified");
  REQUIRE(end != std::string::npos);
  const size_t start = original.rfind(", ", end) + 2;
  const std::string members = original.substr(start, end - start);
  for (const std::string& input : {dir / "seed.tar.gz", dir / "seed.tar", dir / "re-tarred.tar.zst", unpacked}) {
    CAPTURE(input);
    auto verify = test::RunGpuforensics({"verify", input});
    CHECK(verify.exit_code == 0);
    // The same ID as the tar.zst collect wrote: a ticket can name either.
    CHECK(verify.out == input + ": bundle " + expected["bundle"]["id"].get<std::string>() + ", " + members +
                            " members verified, 0 problems (re-packed: each member read from it)\n");
    auto analyze = test::RunGpuforensics({"analyze", input, "--format", "json"});
    CHECK(analyze.exit_code == reference.exit_code);
    CHECK(analyze.err == "gpuforensics analyze: " + input +
                             " is a gpuforensics bundle re-packed; reading its members against its manifest\n");
    const auto report = nlohmann::json::parse(analyze.out);
    CHECK(report["findings"] == expected["findings"]);
    CHECK(report["chain"] == expected["chain"]);
    CHECK(report["bundle"]["node"] == expected["bundle"]["node"]);
    CHECK(report["bundle"]["id"] == expected["bundle"]["id"]);
  }
  // A member changed after unpacking is found.
  test::WriteFile(unpacked + "/artifacts/0001-boot.boot_id.content", "tampered\n");
  auto tampered = test::RunGpuforensics({"verify", unpacked});
  CHECK(tampered.exit_code == 1);
  CHECK(tampered.out.find("FAIL artifacts/0001-boot.boot_id.content: size") == 0);
  // Another tool's capture is not a bundle to verify.
  std::filesystem::create_directories(dir / "notes");
  test::WriteFile(dir / "notes/saved.txt", "Failed to initialize NVML: Unknown Error\n");
  auto other = test::RunGpuforensics({"verify", dir / "notes"});
  CHECK(other.exit_code == 2);
  CHECK(other.err.find("not a gpuforensics bundle: no manifest of ours at its root (it reads as evidence-dir") !=
        std::string::npos);
}

}  // TEST_SUITE

}  // namespace gpuf
