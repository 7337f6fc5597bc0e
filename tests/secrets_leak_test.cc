// Secrets never reach a bundle, whatever their form or source: environment
// values in static pod manifests (block and flow YAML) and in pods' JSON,
// the last-applied-configuration annotation, a checkpoint linked to a
// kubeconfig, a probe output whose redaction failed, the forms `redact`
// must know, and what `import` reads. Each case plants canaries
// ("gpufleak...") and searches every member for them.
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

// Every member and the manifest, as bytes.
std::string AllBytes(const std::string& bundle) {
  std::string all;
  for (const auto& [name, data] : test::ReadBundleMembers(bundle)) all += name + "\n" + data + "\n";
  return all;
}

std::vector<std::string> Leaks(const std::string& bytes, const std::vector<std::string>& canaries) {
  std::vector<std::string> found;
  for (const auto& c : canaries) {
    if (bytes.find(c) != std::string::npos) found.push_back(c);
  }
  return found;
}

json ManifestOf(const std::string& bundle) { return json::parse(test::ReadBundleMembers(bundle).at(0).second); }

const json* Artifact(const json& manifest, const std::string& name) {
  for (const auto& a : manifest["artifacts"]) {
    if (a["name"] == name) return &a;
  }
  return nullptr;
}

test::ProcessResult Collect(test::FakeHost& host, const std::string& out, std::vector<std::string> extra = {}) {
  std::vector<std::string> args = {"collect", "--root", host.root(), "-o", out, "--timeout", "5"};
  args.insert(args.end(), extra.begin(), extra.end());
  return test::RunGpuforensics(args, {host.PathEnv(), "KUBECONFIG="});
}

constexpr char kStaticPod[] = R"(apiVersion: v1
kind: Pod
metadata:
  name: nvidia-device-plugin
  namespace: kube-system
  annotations:
    kubectl.kubernetes.io/last-applied-configuration: |
      {"apiVersion":"v1","kind":"Pod","metadata":{"name":"nvidia-device-plugin"},"spec":{"containers":[{"env":[{"name":"MIRROR","value":"gpufleak-lastapplied"}]}]}}
spec:
  containers:
  - name: nvidia-device-plugin-ctr
    image: nvcr.io/nvidia/k8s-device-plugin:v0.16.2
    env:
    - name: REGISTRY_TOKEN
      value: gpufleak-block
    - {name: REGISTRY_MIRROR, value: "gpufleak-flow"}
    - name: MIRROR_CA
      value: |
        gpufleak-multiline
    - name: FAIL_ON_INIT_ERROR
      value: "false"
)";

constexpr char kPods[] = R"({"apiVersion":"v1","kind":"List","items":[{"metadata":{"name":"nvidia-device-plugin-x",
"namespace":"kube-system","annotations":{"kubectl.kubernetes.io/last-applied-configuration":
"{\"spec\":{\"containers\":[{\"env\":[{\"name\":\"A\",\"value\":\"gpufleak-podjson-annotation\"}]}]}}\n"}},
"spec":{"containers":[{"name":"nvidia-device-plugin-ctr","env":[{"name":"REGISTRY_MIRROR","value":"gpufleak-podjson-env"},
{"name":"MIG_STRATEGY","value":"single"}]}]}}]})";

}  // namespace

TEST_SUITE("secrets_leak") {

TEST_CASE("secrets: env values and last-applied-configuration never reach a bundle, redacted or not") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  host.AddFile("/etc/kubernetes/manifests/nvidia-device-plugin.yml", kStaticPod);
  host.AddStub("kubectl", "case \"$*\" in\n  *pods*) cat <<'EOF'\n" + std::string(kPods) +
                              "\nEOF\n  ;;\n  *) echo '{\"kind\":\"Node\",\"metadata\":{\"name\":\"gpu-node-7\"}}' ;;\nesac");
  const std::vector<std::string> canaries = {"gpufleak-lastapplied", "gpufleak-block", "gpufleak-flow",
                                             "gpufleak-multiline", "gpufleak-podjson-annotation",
                                             "gpufleak-podjson-env"};
  for (bool redact : {false, true}) {
    test::TempDir out;
    auto r = Collect(host, out / "b.tar.zst", redact ? std::vector<std::string>{"--redact"} : std::vector<std::string>{});
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string bytes = AllBytes(out / "b.tar.zst");
    CHECK(Leaks(bytes, canaries) == std::vector<std::string>{});
    // The GPU stack's settings stay readable.
    CHECK(bytes.find("- name: FAIL_ON_INIT_ERROR\n      value: \"false\"") != std::string::npos);
    CHECK(bytes.find("\"MIG_STRATEGY\"") != std::string::npos);
  }
}

TEST_CASE("secrets: a checkpoint linked to the kubelet's kubeconfig is never read") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  fs::remove(host.root() + "/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint");
  host.AddSymlink("/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint", "/etc/kubernetes/kubelet.conf");
  test::TempDir out;
  auto r = Collect(host, out / "b.tar.zst");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(AllBytes(out / "b.tar.zst").find("gpuf-canary-kubeconfig") == std::string::npos);
  json m = ManifestOf(out / "b.tar.zst");
  const json* checkpoint = Artifact(m, "kubelet.checkpoint");
  REQUIRE(checkpoint);
  CHECK((*checkpoint)["status"] == "skipped");
  CHECK((*checkpoint)["skip_reason"] == "denied_by_policy");
  CHECK((*checkpoint)["error"] == "'/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint' leads to "
                                  "'/etc/kubernetes/kubelet.conf', which may hold secrets and is never read");
}

TEST_CASE("secrets: a probe output whose redaction cannot be written is dropped, and the bundle says it lacks it") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  // crictl inspect in compact JSON; redacted, it is printed indented and grows
  // past the file size limit the collector runs under (a full disk, in small).
  std::string envs;
  for (int i = 0; i < 2000; ++i) {
    envs += std::string(i ? "," : "") + "{\"key\":\"MIRROR_" + std::to_string(i) + "\",\"value\":\"gpufleak-" +
            std::to_string(i) + "\"}";
  }
  test::WriteFile(host.bin() + "/crictl-inspect.json", "{\"info\":{\"config\":{\"envs\":[" + envs + "]}}}\n");
  test::TempDir out;
  auto r = test::RunProcess({"/bin/sh", "-c",
                             "trap '' XFSZ; exec /usr/bin/prlimit --fsize=131072 \"$0\" collect --root \"$1\" -o \"$2\" "
                             "--timeout 5",
                             test::GpuforensicsBinary(), host.root(), out / "b.tar.zst"},
                            {host.PathEnv(), "KUBECONFIG="});
  // The bundle lacks a member: it says so, and collect exits 3 (incomplete).
  REQUIRE_MESSAGE(r.exit_code == 3, r.err);
  CHECK(ManifestOf(out / "b.tar.zst")["collection"]["incomplete_reason"] == "members_not_written");
  json m = ManifestOf(out / "b.tar.zst");
  const json* inspect = Artifact(m, "plugin.inspect");
  REQUIRE(inspect);
  CHECK((*inspect)["status"] == "error");
  CHECK((*inspect)["error"].get<std::string>().rfind("output dropped: redaction failed: ", 0) == 0);
  CHECK((*inspect)["outputs"].empty());
  CHECK(AllBytes(out / "b.tar.zst").find("gpufleak-") == std::string::npos);
}

// Every kubeconfig user credential, env entries value first, a secret as the
// next argument, cookies and tokens known by their shape.
constexpr char kMoreShapes[] =
    "users:\n"
    "- name: admin\n"
    "  user:\n"
    "    client-key-data: gpufleakKEYDATA\n"
    "    token: gpufleakTOKEN\n"
    "    password: gpufleakPASSWORD\n"
    "    auth-provider:\n"
    "      config:\n"
    "        id-token: gpufleakIDTOKEN\n"
    "        refresh-token: gpufleakREFRESH\n"
    "    exec:\n"
    "      env:\n"
    "      - value: gpufleakVALUEFIRST\n"
    "        name: AWS_PROFILE\n"
    "{\"value\":\"gpufleakJSONVALUEFIRST\",\"name\":\"API_TOKEN\"}\n"
    "    args: [\"--token\", \"gpufleakNEXTARG\"]\n"
    "    - --client-secret\n"
    "    - gpufleakLISTARG\n"
    "Cookie: session=gpufleakCOOKIE\n"
    "Set-Cookie: sid=gpufleakSETCOOKIE; Path=/; HttpOnly\n"
    "Dec 05 10:00:00 node-a app[12]: pushing with ghp_gpufleakGITHUB0123456789abcdefghijkl\n"
    "Dec 05 10:00:00 node-a app[12]: notify xoxb-123456789012-gpufleakSLACK\n";

const std::vector<std::string> kMoreShapeCanaries = {
    "gpufleakKEYDATA",    "gpufleakTOKEN",          "gpufleakPASSWORD", "gpufleakIDTOKEN", "gpufleakREFRESH",
    "gpufleakVALUEFIRST", "gpufleakJSONVALUEFIRST", "gpufleakNEXTARG",  "gpufleakLISTARG", "gpufleakCOOKIE",
    "gpufleakSETCOOKIE",  "gpufleakGITHUB",         "gpufleakSLACK"};

TEST_CASE("secrets: redact knows every form of secret the collector does, and more") {
  test::TempDir dir;
  const std::string plugin_log =
      "redis://:gpufleak1@cache.example:6379/0\n"
      "X-Api-Key: gpufleak2\n"
      "Authorization: Basic Z3B1ZmxlYWszOnB3\n"
      "exec app --password gpufleak4 --verbose\n"
      "DB_PASS=gpufleak5\n"
      "passphrase: gpufleak6\n"
      "token eyJhbGciOiJub25lIn0.eyJzdWIiOiJncHVmbGVhazcifQ. accepted\n"
      "{\"key\":\"REGISTRY_MIRROR\",\"value\":\"gpufleak8\"}\n"
      "- name: REGISTRY_MIRROR\n  value: gpufleak9\n" +
      std::string(kMoreShapes);
  auto members = test::ReadBundleMembers(test::SourcePath("samples/healthy.tar.zst"));
  json manifest = json::parse(members.at(0).second);
  // Planted into the first plugin log, its manifest entry kept consistent.
  bool planted = false;
  for (auto& a : manifest["artifacts"]) {
    if (planted || a["name"] != "plugin.log") continue;
    for (auto& o : a["outputs"]) {
      for (auto& [name, data] : members) {
        if (name != o["member"]) continue;
        data += plugin_log;
        o["size_bytes"] = data.size();
        o["sha256"] = Sha256Hex(data);
        planted = true;
      }
    }
  }
  REQUIRE(planted);
  members[0].second = manifest.dump();
  test::WriteTarZst(dir / "in.tar.zst", members);
  auto r = test::RunGpuforensics({"redact", dir / "in.tar.zst", dir / "out.tar.zst"});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  const std::string bytes = AllBytes(dir / "out.tar.zst");
  CHECK(Leaks(bytes, {"gpufleak1", "gpufleak2", "Z3B1ZmxlYWszOnB3", "gpufleak4", "gpufleak5", "gpufleak6",
                      "eyJzdWIiOiJncHVmbGVhazcifQ", "gpufleak8", "gpufleak9"}) == std::vector<std::string>{});
  const std::vector<std::string> more_leaks = Leaks(bytes, kMoreShapeCanaries);
  CHECK_MESSAGE(more_leaks.empty(), more_leaks.front());
  CHECK(bytes.find("exec app --password <redacted> --verbose") != std::string::npos);
}

TEST_CASE("secrets: import scrubs like collect, and a redacted import keeps no host name in its origin") {
  test::TempDir dir;
  const std::string report = dir / "nvidia-bug-report-gpu-leak-host-10.9.8.7.log";
  test::WriteFile(report,
                  "Start of NVIDIA bug report log file.  Please include this file, along\n"
                  "with a detailed description of your problem, when reporting a graphics\n"
                  "driver bug via the NVIDIA Linux forum (see forums.developer.nvidia.com)\n"
                  "or by sending email to 'linux-bugs@nvidia.com'.\n\n"
                  "nvidia-bug-report.sh Version: 34097204\n\n"
                  "Date: Wed Nov 18 21:30:00 CST 2026\n"
                  "uname: Linux gpu-leak-host 5.15.0-91-generic #101-Ubuntu SMP x86_64 GNU/Linux\n\n"
                  "____________________________________________\n\n"
                  "*** /proc/driver/nvidia/version\n"
                  "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.161.07  Sat Feb 17 22:55:48 UTC 2024\n\n"
                  "____________________________________________\n\n"
                  "*** /proc/cmdline\n"
                  "BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro db_password=gpufleak-import1 --token gpufleak-import2\n");
  auto imported = test::RunGpuforensics({"import", report, "-o", dir / "i.tar.zst"});
  REQUIRE_MESSAGE(imported.exit_code == 0, imported.err);
  CHECK(Leaks(AllBytes(dir / "i.tar.zst"), {"gpufleak-import1", "gpufleak-import2"}) == std::vector<std::string>{});
  auto redacted = test::RunGpuforensics({"redact", dir / "i.tar.zst", dir / "r.tar.zst"});
  REQUIRE_MESSAGE(redacted.exit_code == 0, redacted.err);
  json m = ManifestOf(dir / "r.tar.zst");
  const std::string source = m["origin"]["source"];
  CHECK(source.find("gpu-leak-host") == std::string::npos);
  CHECK(source.find("10.9.8.7") == std::string::npos);
}

TEST_CASE("secrets: a hard link to a kubeconfig, or a credential copied anywhere, is never read") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  const std::string checkpoint = "/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint";
  SUBCASE("a hard link to kubelet.conf") {
    fs::remove(host.root() + checkpoint);
    fs::create_hard_link(host.root() + "/etc/kubernetes/kubelet.conf", host.root() + checkpoint);
  }
  SUBCASE("a kubeconfig with a user's key, copied") {
    host.AddFile(checkpoint,
                 "apiVersion: v1\nkind: Config\nusers:\n- name: kubelet\n  user:\n"
                 "    client-key-data: gpuf-canary-kubeconfig\n");
  }
  SUBCASE("a private key, copied") {
    host.AddFile(checkpoint,
                 "-----BEGIN RSA PRIVATE KEY-----\ngpuf-canary-kubeconfig\n-----END RSA PRIVATE KEY-----\n");
  }
  test::TempDir out;
  auto r = Collect(host, out / "b.tar.zst");
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  CHECK(AllBytes(out / "b.tar.zst").find("gpuf-canary-kubeconfig") == std::string::npos);
  const json manifest = ManifestOf(out / "b.tar.zst");
  const json* artifact = Artifact(manifest, "kubelet.checkpoint");
  REQUIRE(artifact);
  CHECK((*artifact)["status"] == "skipped");
  CHECK((*artifact)["skip_reason"] == "denied_by_policy");
  CHECK((*artifact)["error"].get<std::string>().find("never read") != std::string::npos);
}

TEST_CASE(
    "secrets: kubeconfig credentials, value-first env, next-argument secrets and cookies, in collect and import") {
  test::FakeHost host;
  test::BuildFakeNode(host);
  // A static pod manifest is read when it names the device plugin.
  host.AddFile("/etc/kubernetes/manifests/nvidia-device-plugin.yml",
               std::string("# nvidia-device-plugin, with what a hurried edit left in it\n") + kMoreShapes);
  test::TempDir out;
  auto collected = Collect(host, out / "b.tar.zst");
  REQUIRE_MESSAGE(collected.exit_code == 0, collected.err);
  const std::string bytes = AllBytes(out / "b.tar.zst");
  REQUIRE(bytes.find("client-key-data: <redacted>") != std::string::npos);  // the file was read
  CHECK(Leaks(bytes, kMoreShapeCanaries) == std::vector<std::string>{});

  const std::string evidence = out / "case";
  fs::create_directory(evidence);
  test::WriteFile(evidence + "/kubeconfig-and-logs.txt", kMoreShapes);
  auto imported = test::RunGpuforensics({"import", evidence, "-o", out / "i.tar.zst"});
  REQUIRE_MESSAGE(imported.exit_code == 0, imported.err);
  const std::string imported_bytes = AllBytes(out / "i.tar.zst");
  REQUIRE(imported_bytes.find("client-key-data: <redacted>") != std::string::npos);
  CHECK(Leaks(imported_bytes, kMoreShapeCanaries) == std::vector<std::string>{});
}

}  // TEST_SUITE

}  // namespace gpuf
