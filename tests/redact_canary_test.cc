// Redaction end to end: a fake node full of planted names, addresses and
// secrets (tests/fixtures/redact-canary, built by samples/tools) collected
// with and without --redact and redacted offline. No planted original may
// remain in any member (a byte search of what `zstd -dc | tar -x` gives),
// and analyze must report the same findings and chain verdict.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <iterator>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "common/sha256.h"
#include "tests/fake_node.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr char kCollectAt[] = "2026-11-18T21:30:00+08:00";

// Planted in tests/fixtures/redact-canary/scenario.toml (and derived by the
// fake-host kit from its [host] and [k8s] tables).
const std::vector<std::string> kPlanted = {
    // host and node names, a domain (as a keyword), addresses, MACs
    "gpu-canary-17", "corp-canary.example", "10.77.31.47", "10.77.8.9", "10.77.0.50", "10.77.0.60",
    "192.168.77.1", "192.168.77.10", "fd00:77:31::47", "2a05:d014:77:ca::17", "0c:42:a1:77:ca:fe",
    "0c:42:a1:77:ca:ff",
    // a user, secrets, cloud ids
    "canaryalice", "Sup3rS3cretCanary", "AKIACANARY7EXAMPLE12", "gpufcanaryBearer0123456789", "123456789012",
    "8c2f0e0a-1b2c-4d3e-9f8a-7b6c5d4e3f2a", "canary-rg", "i-uf6canary2c1hbd1sqk3m",
    // a keyword and a --redact-pattern match
    "bluebird", "CASE-77123",
    // every other form of secret: a URL password without a user, an API key header, Basic credentials, a
    // flag's value, a *_PASS variable, a passphrase, an unsigned JWT, a {"key":..,"value":..} env entry
    "gpufcanaryRedis77", "gpufcanaryApiKey77", "Z3B1ZmNhbmFyeUJhc2ljNzc=", "gpufcanaryFlag77", "gpufcanaryDbPass77",
    "gpufcanaryPhrase77", "eyJzdWIiOiJncHVmY2FuYXJ5Snd0NzcifQ", "gpufcanaryEnvKey77"};
// Collect's own scrubber already removes these from a plain bundle.
const std::set<std::string> kScrubbedAtCollect = {
    "gpufcanaryBearer0123456789", "Sup3rS3cretCanary",  "gpufcanaryRedis77",  "gpufcanaryApiKey77",
    "Z3B1ZmNhbmFyeUJhc2ljNzc=",   "gpufcanaryFlag77",   "gpufcanaryDbPass77", "gpufcanaryPhrase77",
    "eyJzdWIiOiJncHVmY2FuYXJ5Snd0NzcifQ", "gpufcanaryEnvKey77"};
// Only with --redact-classes +k8s_name.
const std::vector<std::string> kPlantedK8s = {"ml-team"};

const std::vector<std::string> kRedactFlags = {"--redact-keyword", "corp-canary.example", "--redact-keyword", "bluebird"};

struct CanaryHost {
  test::TempDir dir;
  std::string out = dir / "host";
  std::string Path() const { return "PATH=" + out + "/bin:" + out + "/sysbin"; }
};

bool CanBuildFakeHosts() {
  return geteuid() == 0 && fs::exists("/lib/systemd/systemd-journal-remote") && fs::exists("/usr/bin/python3");
}

void BuildCanaryHost(CanaryHost& host) {
  auto built = test::RunProcess({"/usr/bin/python3", test::SourcePath("samples/tools/build_fakehost.py"),
                                 test::SourcePath("tests/fixtures/redact-canary"), host.out});
  REQUIRE_MESSAGE(built.exit_code == 0, built.err);
}

void CollectCanary(const CanaryHost& host, const std::string& bundle, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"collect", "--root", host.out + "/root", "-o", bundle, "--fixed-time", kCollectAt};
  args.insert(args.end(), extra.begin(), extra.end());
  auto run = test::RunGpuforensics(args, {host.Path()});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
}

// Every file of the bundle as `zstd -dc | tar -x` leaves it.
std::vector<std::pair<std::string, std::string>> Extract(const std::string& bundle, const std::string& dir) {
  fs::create_directories(dir);
  auto run = test::RunProcess({"/bin/sh", "-c", "zstd -q -dc \"$0\" | tar -x -C \"$1\"", bundle, dir});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    if (entry.is_regular_file()) files.emplace_back(entry.path().string(), test::ReadFile(entry.path().string()));
  }
  REQUIRE(files.size() > 50);
  return files;
}

bool IsWordByte(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

// An occurrence not glued to a longer word or number ("10.0.0.1" inside
// "10.0.0.15" is another address, itself an original).
bool ContainsBounded(const std::string& data, const std::string& needle) {
  for (size_t at = data.find(needle); at != std::string::npos; at = data.find(needle, at + 1)) {
    size_t end = at + needle.size();
    bool glued_before = at > 0 && IsWordByte(data[at - 1]) && IsWordByte(needle.front());
    bool glued_after = end < data.size() && IsWordByte(data[end]) && IsWordByte(needle.back());
    if (!glued_before && !glued_after) return true;
  }
  return false;
}

std::vector<std::string> Leftovers(const std::vector<std::pair<std::string, std::string>>& files,
                                   const std::vector<std::string>& originals, bool bounded) {
  std::vector<std::string> found;
  for (const auto& original : originals) {
    for (const auto& [path, data] : files) {
      if (bounded ? ContainsBounded(data, original) : data.find(original) != std::string::npos) {
        found.push_back(original + " in " + path);
        break;
      }
    }
  }
  return found;
}

std::vector<std::string> MapOriginals(const json& map) {
  std::vector<std::string> originals;
  for (const auto& e : map["entries"]) originals.push_back(e["original"]);
  return originals;
}

// What must not change: the chain verdict, and each finding with its evidence count.
struct Verdict {
  int exit_code;
  json chain;
  json findings;
  bool operator==(const Verdict&) const = default;
};

Verdict Analyze(const std::string& bundle) {
  auto run = test::RunGpuforensics({"analyze", bundle, "--format", "json"});
  REQUIRE_MESSAGE((run.exit_code == 0 || run.exit_code == 1), run.err);
  json report = json::parse(run.out);
  json findings = json::array();
  for (const auto& f : report["findings"]) {
    findings.push_back({f["id"], f["severity"], f["confidence"], f["summary"], f["evidence"].size()});
  }
  return {run.exit_code, report["chain"], findings};
}

std::string Join(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += "\n  " + item;
  return text;
}

json ManifestOf(const std::string& bundle) { return json::parse(test::ReadBundleMembers(bundle).at(0).second); }

void CheckRedactedBundle(const std::string& bundle, const std::string& map_path, const std::string& work,
                         const std::vector<std::string>& planted, const Verdict& original) {
  CHECK(test::RunGpuforensics({"verify", bundle}).exit_code == 0);
  auto files = Extract(bundle, work);
  json map = json::parse(test::ReadFile(map_path));
  CHECK(map["entries"].size() > 10);
  std::vector<std::string> left = Leftovers(files, planted, false);
  CHECK_MESSAGE(left.empty(), "planted originals left: " << Join(left));
  left = Leftovers(files, MapOriginals(map), true);
  CHECK_MESSAGE(left.empty(), "mapped originals left: " << Join(left));
  CHECK(Analyze(bundle) == original);
}

int64_t TotalCount(const json& manifest, const std::string& class_name) {
  int64_t total = 0;
  for (const auto& a : manifest["artifacts"]) {
    for (const auto& c : a["redaction_counts"]) {
      if (c["class"] == class_name) total += c["count"].get<int64_t>();
    }
  }
  return total;
}

}  // namespace

TEST_SUITE("redact") {

TEST_CASE("redact: no planted original survives collect --redact or offline redact, and analyze says the same") {
  if (!CanBuildFakeHosts()) {
    MESSAGE("skipped: needs root, python3 and systemd-journal-remote to build the fake host");
    return;
  }
  CanaryHost host;
  BuildCanaryHost(host);
  const std::string plain = host.dir / "plain.tar.zst";
  CollectCanary(host, plain);
  const Verdict original = Analyze(plain);
  CHECK(original.exit_code == 1);  // the seed incident's findings, so the comparison means something

  // The plain bundle does hold the canaries: the search below is not vacuous.
  auto plain_files = Extract(plain, host.dir / "plain");
  for (const auto& c : kPlanted) {
    if (kScrubbedAtCollect.count(c)) continue;
    CHECK_MESSAGE(!Leftovers(plain_files, {c}, false).empty(), c << " was never planted");
  }
  CHECK(!Leftovers(plain_files, kPlantedK8s, false).empty());

  const std::string patterns = host.dir / "patterns.txt";
  test::WriteFile(patterns, "# support tickets\nCASE-[0-9]{5}\n");

  SUBCASE("offline, default classes") {
    const std::string out = host.dir / "redacted.tar.zst", map = host.dir / "case.map.json";
    std::vector<std::string> args = {"redact", plain, out, "--map", map, "--redact-pattern", patterns};
    args.insert(args.end(), kRedactFlags.begin(), kRedactFlags.end());
    auto run = test::RunGpuforensics(args);
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(run.out == out + "\n");
    CheckRedactedBundle(out, map, host.dir / "redacted", kPlanted, original);

    json manifest = ManifestOf(out);
    CHECK(manifest["redaction"]["redacted"] == true);
    CHECK(manifest["redaction"]["by"] == "redact");
    CHECK(manifest["redaction"]["classes"] ==
          json({"cloud_id", "hostname", "ipv4", "ipv6", "keyword", "mac", "machine_id", "secret", "username"}));
    CHECK(manifest["redaction"]["user_patterns"] == 3);
    for (const char* c : {"cloud_id", "hostname", "ipv4", "ipv6", "keyword", "mac", "machine_id", "secret", "username"}) {
      CHECK_MESSAGE(TotalCount(manifest, c) > 0, c);
    }
    CHECK(manifest["host"]["node_name"] == "node-0001");
    CHECK(manifest["host"]["boot_id"] == ManifestOf(plain)["host"]["boot_id"]);  // evidence, kept

    // Provenance lives in the map only: the input's hash and each original
    // member hash; none of the changed members' original hashes is in the bundle.
    json map_doc = json::parse(test::ReadFile(map));
    const json& record = map_doc["bundles"].back();
    CHECK(record["input_sha256"] == *Sha256OfFile(plain));
    CHECK(record["output_sha256"] == *Sha256OfFile(out));
    json plain_manifest = ManifestOf(plain);
    std::map<std::string, std::string> plain_sha;
    for (const auto& a : plain_manifest["artifacts"]) {
      for (const auto& o : a["outputs"]) plain_sha[o["member"]] = o["sha256"];
    }
    size_t changed = 0;
    const std::string redacted_manifest = test::ReadBundleMembers(out).at(0).second;
    for (const auto& m : record["members"]) {
      CHECK(m["original_sha256"] == plain_sha.at(m["member"]));
      if (m["original_sha256"] != m["sha256"]) {
        ++changed;
        CHECK(redacted_manifest.find(m["original_sha256"].get<std::string>()) == std::string::npos);
      }
    }
    CHECK(changed > 20);

    // The same input and map give the same bytes again: nothing new to map.
    const std::string again = host.dir / "again.tar.zst";
    args[2] = again;
    REQUIRE(test::RunGpuforensics(args).exit_code == 0);
    CHECK(*Sha256OfFile(again) == *Sha256OfFile(out));
    CHECK(json::parse(test::ReadFile(map))["entries"] == map_doc["entries"]);
  }

  SUBCASE("on the node, with the optional classes: GPU ids, namespaces and pod names go too") {
    const std::string out = host.dir / "collected.tar.zst", map = host.dir / "node.map.json";
    std::vector<std::string> extra = {"--redact", "--map", map, "--redact-classes", "+gpu_id,+k8s_name",
                                      "--redact-pattern", patterns};
    extra.insert(extra.end(), kRedactFlags.begin(), kRedactFlags.end());
    CollectCanary(host, out, extra);
    std::vector<std::string> planted = kPlanted;
    planted.insert(planted.end(), kPlantedK8s.begin(), kPlantedK8s.end());
    CheckRedactedBundle(out, map, host.dir / "collected", planted, original);
    json manifest = ManifestOf(out);
    CHECK(manifest["redaction"]["by"] == "collect");
    CHECK(TotalCount(manifest, "gpu_id") > 0);
    CHECK(TotalCount(manifest, "k8s_name") > 0);
    json map_doc = json::parse(test::ReadFile(map));
    std::map<std::string, int> families;
    for (const auto& e : map_doc["entries"]) ++families[e["family"]];
    CHECK(families["gpu_uuid"] == 8);
    CHECK(families["gpu_serial"] == 8);
    CHECK(families["namespace"] >= 1);
    CHECK(families["pod"] >= 1);

    // Redacting it again with its map finds nothing new: pseudonyms are never
    // taken for originals, and the classes applied before are still recorded.
    const std::string twice = host.dir / "twice.tar.zst";
    auto again = test::RunGpuforensics({"redact", out, twice, "--map", map});
    REQUIRE_MESSAGE(again.exit_code == 0, again.err);
    CHECK(again.err.find("gpuforensics redact: replaced nothing (no original found)\n") == 0);
    CHECK(json::parse(test::ReadFile(map))["entries"] == map_doc["entries"]);
    json twice_manifest = ManifestOf(twice);
    CHECK(twice_manifest["redaction"]["by"] == "redact");
    CHECK(twice_manifest["redaction"]["classes"] == manifest["redaction"]["classes"]);
    for (size_t i = 0; i < manifest["artifacts"].size(); ++i) {
      CHECK(twice_manifest["artifacts"][i]["outputs"] == manifest["artifacts"][i]["outputs"]);
    }
  }
}

TEST_CASE("redact: two bundles of one case redacted with the same map share pseudonyms") {
  // seed-incident and recovery are the same node, hours apart.
  test::TempDir dir;
  const std::string map = dir / "case.map.json";
  const std::string first = dir / "seed.tar.zst", second = dir / "recovery.tar.zst";
  REQUIRE(test::RunGpuforensics({"redact", test::SourcePath("samples/seed-incident.tar.zst"), first, "--map", map})
              .exit_code == 0);
  json after_first = json::parse(test::ReadFile(map));
  // -o names the output as every command that writes a file does.
  REQUIRE(test::RunGpuforensics({"redact", test::SourcePath("samples/recovery.tar.zst"), "-o", second, "--map", map})
              .exit_code == 0);
  json after_second = json::parse(test::ReadFile(map));

  // Every pseudonym of the first run is kept as it was; nothing is mapped twice.
  for (size_t i = 0; i < after_first["entries"].size(); ++i) {
    CHECK(after_second["entries"][i] == after_first["entries"][i]);
  }
  std::set<std::pair<std::string, std::string>> originals;
  for (const auto& e : after_second["entries"]) {
    auto key = std::make_pair(e["family"].get<std::string>(), e["original"].get<std::string>());
    CHECK(originals.insert(key).second);
  }
  CHECK(after_second["bundles"].size() == 2);

  // The node, its address and its machine id read the same in both bundles.
  json a = ManifestOf(first), b = ManifestOf(second);
  CHECK(a["host"]["node_name"] == b["host"]["node_name"]);
  CHECK(a["host"]["machine_id"] == b["host"]["machine_id"]);
  CHECK(a["host"]["node_name"].get<std::string>().rfind("node-", 0) == 0);
  auto node_json = [](const std::string& bundle) {
    for (const auto& [name, data] : test::ReadBundleMembers(bundle)) {
      if (name.find("-k8s.node.stdout") != std::string::npos) return json::parse(data);
    }
    return json();
  };
  json node_a = node_json(first), node_b = node_json(second);
  CHECK(node_a["metadata"]["name"] == a["host"]["node_name"]);
  CHECK(node_a["status"]["addresses"] == node_b["status"]["addresses"]);
  CHECK(node_a["status"]["addresses"][0]["address"].get<std::string>().rfind("192.0.2.", 0) == 0);

  // A fresh map numbers from the start: consistency comes from the map.
  const std::string alone = dir / "alone.tar.zst";
  REQUIRE(test::RunGpuforensics({"redact", test::SourcePath("samples/recovery.tar.zst"), alone, "--map",
                                 dir / "other.map.json"}).exit_code == 0);
  CHECK(ManifestOf(alone)["host"]["node_name"] == a["host"]["node_name"]);
}

TEST_CASE("redact: every sample bundle keeps its findings and chain verdict") {
  test::TempDir dir;
  int samples = 0;
  for (const auto& entry : fs::directory_iterator(test::SourcePath("samples"))) {
    const std::string path = entry.path().string();
    if (!path.ends_with(".tar.zst")) continue;
    ++samples;
    const std::string name = entry.path().filename().string();
    const std::string out = dir / ("redacted-" + name);
    auto run = test::RunGpuforensics({"redact", path, out, "--map", dir / (name + ".map.json")});
    REQUIRE_MESSAGE(run.exit_code == 0, name << ": " << run.err);
    CHECK_MESSAGE(test::RunGpuforensics({"verify", out}).exit_code == 0, name);
    Verdict before = Analyze(path), after = Analyze(out);
    CHECK_MESSAGE(after.exit_code == before.exit_code, name);
    CHECK_MESSAGE(after.chain == before.chain, name << "\n" << before.chain.dump() << "\n" << after.chain.dump());
    CHECK_MESSAGE(after.findings == before.findings, name << "\n" << before.findings.dump() << "\n" << after.findings.dump());
  }
  CHECK(samples >= 13);
}

TEST_CASE("redact: redactions run at once on one map lose none of each other's pseudonyms") {
  const std::vector<std::string> names = {"seed-incident", "healthy", "recovery", "xid-79-fallen-off-bus"};
  test::TempDir dir;
  std::set<std::string> expected;  // what each bundle adds to a map of its own
  for (const auto& name : names) {
    const std::string map = dir / (name + ".alone.map.json");
    auto run = test::RunGpuforensics({"redact", test::SourcePath("samples/" + name + ".tar.zst"),
                                      dir / (name + ".alone.tar.zst"), "--map", map});
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    for (const auto& original : MapOriginals(json::parse(test::ReadFile(map)))) expected.insert(original);
  }

  const std::string shared = dir / "case.map.json";
  std::vector<test::ProcessResult> runs(names.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < names.size(); ++i) {
    threads.emplace_back([&, i] {
      runs[i] = test::RunGpuforensics({"redact", test::SourcePath("samples/" + names[i] + ".tar.zst"),
                                       dir / (names[i] + ".shared.tar.zst"), "--map", shared});
    });
  }
  for (auto& t : threads) t.join();
  for (const auto& run : runs) CHECK_MESSAGE(run.exit_code == 0, run.err);

  json map = json::parse(test::ReadFile(shared));
  CHECK(map["bundles"].size() == names.size());
  std::vector<std::string> originals = MapOriginals(map);
  std::set<std::string> kept(originals.begin(), originals.end());
  std::vector<std::string> lost;
  std::set_difference(expected.begin(), expected.end(), kept.begin(), kept.end(), std::back_inserter(lost));
  CHECK_MESSAGE(lost.empty(), "originals missing from the shared map: " << Join(lost));
}

TEST_CASE("redact: analyze says a bundle was redacted, and how") {
  test::TempDir dir;
  const std::string plain = test::SourcePath("samples/healthy.tar.zst"), out = dir / "redacted.tar.zst";
  auto run = test::RunGpuforensics({"redact", plain, out, "--map", dir / "map.json"});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);

  auto text = test::RunGpuforensics({"analyze", out});
  CHECK(text.out.find(", redacted afterwards (gpuforensics redact)") != std::string::npos);
  CHECK(test::RunGpuforensics({"analyze", plain}).out.find("redacted") == std::string::npos);
  CHECK(json::parse(test::RunGpuforensics({"analyze", out, "--format", "json"}).out)["bundle"]["redacted_by"] ==
        "redact");
  CHECK(json::parse(test::RunGpuforensics({"analyze", plain, "--format", "json"}).out)["bundle"]["redacted_by"] ==
        nullptr);
  CHECK(test::RunGpuforensics({"sql", out, "SELECT redacted_by FROM bundles"}).out == "redacted_by\nredact\n");
}

TEST_CASE("redact: without --map the map goes beside the output, readable by its owner only") {
  test::TempDir dir;
  const std::string out = dir / "case-redacted.tar.zst";
  auto run = test::RunGpuforensics({"redact", test::SourcePath("samples/healthy.tar.zst"), out});
  REQUIRE(run.exit_code == 0);
  const std::string map = dir / "case-redacted.map.json";
  CHECK(run.err.find("gpuforensics redact: map (keep it private) " + map + "\n") != std::string::npos);
  CHECK(run.err.find("gpuforensics redact: replaced ") == 0);
  REQUIRE(fs::exists(map));
  CHECK((fs::status(map).permissions() & fs::perms::all) == (fs::perms::owner_read | fs::perms::owner_write));
  json doc = json::parse(test::ReadFile(map));
  CHECK(doc["format"] == "gpuforensics-redaction-map");
  CHECK(doc["bundles"][0]["input_sha256"] == *Sha256OfFile(test::SourcePath("samples/healthy.tar.zst")));
  for (const auto& [name, data] : test::ReadBundleMembers(out)) CHECK(name.find("map") == std::string::npos);
}

TEST_CASE("redact: collect --redact names the bundle and its map after the pseudonym, not the node") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  test::TempDir out;
  auto run = test::RunProcess({"/bin/sh", "-c", "cd \"$0\" && exec \"$1\" collect --root \"$2\" --redact --timeout 2",
                               out.path(), test::GpuforensicsBinary(), host.root()},
                              {host.PathEnv(), "KUBECONFIG="});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(out.path())) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  REQUIRE(names.size() == 2);
  CHECK(names[0].rfind("gpuforensics-node-0001-", 0) == 0);
  CHECK(names[0].ends_with(".map.json"));
  CHECK(names[1] == names[0].substr(0, names[0].size() - 9) + ".tar.zst");
  CHECK(run.out == names[1] + "\n");
  CHECK(run.err.find("gpuforensics collect: redacted; map (keep it private) " + names[0] + "\n") != std::string::npos);
  CHECK(ManifestOf(out / names[1])["host"]["node_name"] == "node-0001");
}

TEST_CASE("redact: refuses to overwrite its input, bad patterns, unknown classes and damaged bundles") {
  test::TempDir dir;
  const std::string input = dir / "b.tar.zst";
  fs::copy_file(test::SourcePath("samples/healthy.tar.zst"), input);
  const std::string before = *Sha256OfFile(input);
  auto listing = [&] {
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(dir.path())) names.insert(e.path().filename().string());
    return names;
  };
  const std::set<std::string> files = listing();

  SUBCASE("the output is the input, however spelled") {
    fs::create_directories(dir / "sub");
    for (const std::string& out : {input, dir / "sub/../b.tar.zst", dir / "./b.tar.zst"}) {
      auto run = test::RunGpuforensics({"redact", input, out});
      CHECK(run.exit_code == 73);
      CHECK(run.err == "gpuforensics redact: output '" + out +
                           "' exists: name a new file, or pass --force to replace it\n");
      run = test::RunGpuforensics({"redact", input, out, "--force"});
      CHECK(run.exit_code == 64);
      CHECK(run.err == "gpuforensics redact: the output is the input '" + input + "': never replaced\n");
    }
    fs::remove(dir / "sub");
  }
  SUBCASE("a bad pattern is named by file and line before anything is written") {
    test::WriteFile(dir / "p.txt", "# ok\nCASE-[0-9]{5}\nticket (\n");
    auto run = test::RunGpuforensics({"redact", input, dir / "out.tar.zst", "--redact-pattern", dir / "p.txt"});
    CHECK(run.exit_code == 64);
    CHECK(run.err == "gpuforensics redact: " + (dir / "p.txt") + ":3: invalid RE2 pattern 'ticket (': missing ): ticket (\n");
    fs::remove(dir / "p.txt");
    auto collect = test::RunGpuforensics({"collect", "--redact-pattern", dir / "absent.txt", "-o", dir / "c.tar.zst"});
    CHECK(collect.exit_code == 64);
    CHECK(collect.err.find("gpuforensics collect: --redact-pattern '" + (dir / "absent.txt") + "'") == 0);
  }
  SUBCASE("a map that could not be written is found before the work, not after") {
    auto run = test::RunGpuforensics({"redact", input, dir / "out.tar.zst", "--map", dir / "absent/case.map.json"});
    CHECK(run.exit_code == 74);
    CHECK(run.err == "gpuforensics redact: the map file '" + (dir / "absent/case.map.json") +
                         "' cannot be written: No such file or directory\n");
    auto collect = test::RunGpuforensics({"collect", "--map", dir / "absent/case.map.json", "-o", dir / "c.tar.zst"});
    CHECK(collect.exit_code == 74);
  }
  SUBCASE("an unknown class") {
    auto run = test::RunGpuforensics({"redact", input, dir / "out.tar.zst", "--redact-classes", "+serials"});
    CHECK(run.exit_code == 64);
    CHECK(run.err.find("gpuforensics redact: --redact-classes: unknown class 'serials': known: secret,") == 0);
  }
  SUBCASE("a member that does not match its manifest is not laundered into fresh hashes") {
    auto members = test::ReadBundleMembers(input);
    for (auto& [name, data] : members) {
      if (name.find("host.nvidia_smi_list.stdout") != std::string::npos) data = "GPU 0: forged\n";
    }
    const std::string forged = dir / "forged.tar.zst";
    test::WriteTarZst(forged, members);
    auto run = test::RunGpuforensics({"redact", forged, dir / "out.tar.zst"});
    CHECK(run.exit_code == 2);
    CHECK(run.err.find("does not match the manifest: the bundle is damaged or altered") != std::string::npos);
    fs::remove(forged);
  }
  SUBCASE("not a bundle at all") {
    test::WriteFile(dir / "x.tar.zst", "hello");
    auto run = test::RunGpuforensics({"redact", dir / "x.tar.zst", dir / "out.tar.zst"});
    CHECK(run.exit_code == 2);
    fs::remove(dir / "x.tar.zst");
  }
  CHECK(*Sha256OfFile(input) == before);
  CHECK(listing() == files);  // no output, no staging directory, no map left behind
}

}  // TEST_SUITE

}  // namespace gpuf
