#include "common/manifest.h"

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

namespace gpuf {

namespace {

Manifest SampleManifest() {
  Manifest m;
  m.format = "gpuforensics-bundle";
  m.format_version = 1;
  m.tool_name = "gpuforensics";
  m.tool_version = "0.1.0";
  m.node_name = m.hostname = "gpu-node-7";
  m.boot_id = "9c1d4e2a-5b6f-4a3b-8c7d-0e1f2a3b4c5d";
  m.started_at_unix_ns = 1763472600000000000LL;
  m.ended_at_unix_ns = 1763472603000000000LL;
  ManifestArtifact a;
  a.name = "host.nvidia_smi_list";
  a.kind = "command";
  a.argv = {"nvidia-smi", "-L"};
  a.executable = "/usr/bin/nvidia-smi";
  a.context = "host";
  a.phase = 4;
  a.status = ProbeStatus::kOk;
  a.exit_code = 0;
  a.outputs.push_back({"stdout", "artifacts/0001-host.nvidia_smi_list.stdout", 12, "ab", false, 0});
  m.artifacts.push_back(a);
  return m;
}

}  // namespace

TEST_SUITE("manifest") {

TEST_CASE("Manifest: serialize then parse gives the same fields") {
  Manifest m = SampleManifest();
  auto parsed = ParseManifest(SerializeManifest(m));
  REQUIRE(parsed.ok());
  CHECK(parsed->node_name == "gpu-node-7");
  CHECK(parsed->boot_id == m.boot_id);
  REQUIRE(parsed->artifacts.size() == 1);
  const ManifestArtifact& a = parsed->artifacts[0];
  CHECK(a.argv == std::vector<std::string>{"nvidia-smi", "-L"});
  CHECK(a.exit_code == 0);
  CHECK_FALSE(a.signal.has_value());
  REQUIRE(a.FindOutput("stdout") != nullptr);
  CHECK(a.FindOutput("stdout")->size_bytes == 12);
  CHECK(parsed->Find("host.nvidia_smi_list") == &parsed->artifacts[0]);
}

TEST_CASE("Manifest: a narrowed journal read round-trips, empty or not, and is absent from a whole one") {
  Manifest m = SampleManifest();
  ManifestArtifact slice = m.artifacts[0];
  slice.name = "journal.kubelet";
  slice.argv = {"journalctl", "--no-pager", "-o", "export", "-r", "-b", "0"};
  slice.journal_match = {"_SYSTEMD_UNIT=kubelet.service"};
  ManifestArtifact full = slice, narrowed = slice;
  full.instance = "boot:-1";
  full.journal_narrowed_argv.emplace();
  narrowed.instance = "boot:0";
  narrowed.journal_narrowed_argv = std::vector<std::string>{"journalctl", "--cursor=s=1;i=2", "_TRANSPORT=kernel"};
  m.artifacts = {slice, full, narrowed};
  std::string text = SerializeManifest(m);
  CHECK(nlohmann::json::parse(text)["artifacts"][0].count("journal_narrowed_argv") == 0);
  auto parsed = ParseManifest(text);
  REQUIRE(parsed.ok());
  CHECK_FALSE(parsed->artifacts[0].journal_narrowed_argv.has_value());
  CHECK(parsed->artifacts[1].journal_narrowed_argv == std::vector<std::string>{});
  CHECK(parsed->artifacts[2].journal_narrowed_argv == narrowed.journal_narrowed_argv);
  text.replace(text.find("\"_TRANSPORT=kernel\""), 19, "7");
  CHECK(ParseManifest(text).status().message() ==
        "manifest field 'artifacts[2].journal_narrowed_argv' holds a non-string");
}

TEST_CASE("Manifest: the redaction record and report round-trip, and exist only when redacted") {
  Manifest m = SampleManifest();
  CHECK(SerializeManifest(m).find("\"redaction\"") == std::string::npos);
  CHECK(SerializeManifest(m).find("redaction_counts") == std::string::npos);
  m.redaction = {true, "redact", {"hostname", "ipv4"}, 2};
  m.artifacts[0].redaction_counts = {{"hostname", 3}, {"ipv4", 1}};
  const std::string text = SerializeManifest(m);
  CHECK(text.find("\"redaction_counts\": [\n        {\n          \"class\": \"hostname\",\n          \"count\": 3\n") !=
        std::string::npos);
  auto parsed = ParseManifest(text);
  REQUIRE(parsed.ok());
  CHECK(parsed->redaction.redacted);
  CHECK(parsed->redaction.by == "redact");
  CHECK(parsed->redaction.classes == std::vector<std::string>{"hostname", "ipv4"});
  CHECK(parsed->redaction.user_patterns == 2);
  CHECK(parsed->artifacts[0].redaction_counts == std::map<std::string, int64_t>{{"hostname", 3}, {"ipv4", 1}});
}

TEST_CASE("Manifest: the Node's identity round-trips, and bundles without it read as unknown") {
  Manifest m = SampleManifest();
  m.hostname = "izbp1d5x3k8f2q7hz2e7tkz";
  m.node_name = "cn-hangzhou.10.42.7.19";
  m.node_name_source = "kubelet_flag";
  m.node_name_steps = {{"option", "", ""},
                       {"env", "", ""},
                       {"kubelet_flag", "/etc/systemd/system/kubelet.service.d/10-kubeadm.conf", "cn-hangzhou.10.42.7.19"}};
  m.node_found = false;
  m.kubeconfig = "/etc/kubernetes/kubelet.conf";
  m.kubeconfig_source = "kubelet_flag";
  m.platform = "ack";
  m.platform_evidence = "/etc/os-release: ID=alinux";
  const std::string text = SerializeManifest(m);
  CHECK(text.find("\"node_name_steps\": [\n      {\n        \"from\": null,\n        \"source\": \"option\",\n"
                  "        \"value\": null\n      },") != std::string::npos);
  auto parsed = ParseManifest(text);
  REQUIRE(parsed.ok());
  CHECK(parsed->hostname == "izbp1d5x3k8f2q7hz2e7tkz");
  CHECK(parsed->node_name_source == "kubelet_flag");
  CHECK(parsed->node_name_steps == m.node_name_steps);
  CHECK(parsed->node_found == false);
  CHECK(parsed->kubeconfig == "/etc/kubernetes/kubelet.conf");
  CHECK(parsed->kubeconfig_source == "kubelet_flag");
  CHECK(parsed->platform == "ack");
  CHECK(parsed->platform_evidence == "/etc/os-release: ID=alinux");

  nlohmann::json old = nlohmann::json::parse(SerializeManifest(SampleManifest()));
  for (const char* field : {"node_name_source", "node_name_steps", "node_found", "kubeconfig", "kubeconfig_source",
                            "platform"}) {
    REQUIRE(old["host"].erase(field) == 1);
  }
  auto older = ParseManifest(old.dump());
  REQUIRE_MESSAGE(older.ok(), older.status().message());
  CHECK(older->node_name_steps.empty());
  CHECK_FALSE(older->platform_evidence.has_value());
  CHECK(!older->node_found.has_value());
}

TEST_CASE("Manifest: bad input names the problem") {
  SUBCASE("not JSON") {
    auto r = ParseManifest("{not json");
    CHECK(r.status().message() == "manifest.json is not valid JSON");
  }
  SUBCASE("another format") {
    auto r = ParseManifest(R"({"format":"sosreport","format_version":1})");
    CHECK(r.status().message() == "manifest.json names format 'sosreport', not 'gpuforensics-bundle'");
  }
  SUBCASE("a newer format version is Unsupported") {
    auto r = ParseManifest(R"({"format":"gpuforensics-bundle","format_version":2})");
    CHECK(r.status().code() == Status::Code::kUnsupported);
    CHECK(r.status().message() ==
          "bundle format version 2 is newer than this gpuforensics understands (1); upgrade gpuforensics");
  }
  SUBCASE("a name step without its source") {
    Manifest m = SampleManifest();
    m.node_name_steps = {{"hostname", "hostname", "gpu-node-7"}};
    std::string text = SerializeManifest(m);
    text.replace(text.find("\"source\": \"hostname\""), 20, "\"source\": null");
    auto r = ParseManifest(text);
    CHECK(r.status().message() == "manifest field 'host.node_name_steps[0].source' missing");
  }
  SUBCASE("a field of the wrong type") {
    std::string text = SerializeManifest(SampleManifest());
    text.replace(text.find("\"phase\": 4"), 10, "\"phase\": \"4\"");
    auto r = ParseManifest(text);
    CHECK(r.status().message() == "manifest field 'artifacts[0].phase' not an integer of 64 bits");
  }
  SUBCASE("a time past what 64 signed bits hold, which would wrap to 1970") {
    std::string text = SerializeManifest(SampleManifest());
    const size_t at = text.find("\"started_at_unix_ns\": ") + 22;
    text.replace(at, text.find(',', at) - at, "18446744073709551615");
    auto r = ParseManifest(text);
    CHECK(r.status().message() == "manifest field 'artifacts[0].started_at_unix_ns' not an integer of 64 bits");
  }
}

TEST_CASE("Manifest::Find: by name and instance, and still right after the artifacts change") {
  Manifest m;
  for (int i = 0; i < 1000; ++i) {
    ManifestArtifact a;
    a.name = "plugin.inspect";
    a.instance = std::to_string(i);
    m.artifacts.push_back(a);
  }
  REQUIRE(m.Find("plugin.inspect", "999"));
  CHECK(m.Find("plugin.inspect", "999") == &m.artifacts[999]);
  CHECK(m.Find("plugin.inspect", "1000") == nullptr);
  m.artifacts[5].instance = "renamed";  // in place: same size, same storage
  CHECK(m.Find("plugin.inspect", "renamed") == &m.artifacts[5]);
  CHECK(m.Find("plugin.inspect", "5") == nullptr);
  std::swap(m.artifacts[0], m.artifacts[1]);
  CHECK(m.Find("plugin.inspect", "0") == &m.artifacts[1]);
  m.artifacts.push_back(m.artifacts[0]);
  m.artifacts.back().instance = "new";
  CHECK(m.Find("plugin.inspect", "new") == &m.artifacts.back());
  Manifest copy = m;
  CHECK(copy.Find("plugin.inspect", "new") == &copy.artifacts.back());
}

}  // TEST_SUITE

}  // namespace gpuf
