// The collector against fake nodes: stub programs first on PATH, host files
// under --root, the real journalctl. One behaviour of the collect issue per
// test case.
#include <doctest/doctest.h>
#include <re2/re2.h>

#include <map>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <filesystem>
#include <sstream>
#include <thread>

#include "collector/probe_table.h"
#include "tests/fake_journal.h"
#include "tests/fake_node.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

using nlohmann::json;
using test::FakeHost;

struct Collected {
  test::ProcessResult process;
  json manifest;
  std::vector<std::pair<std::string, std::string>> members;
};

Collected Collect(FakeHost& host, const std::string& out, std::vector<std::string> extra = {}, int exit_code = 0) {
  std::vector<std::string> args = {"collect", "--root", host.root(), "-o", out};
  if (std::find(extra.begin(), extra.end(), "--timeout") == extra.end()) extra.insert(extra.end(), {"--timeout", "2"});
  args.insert(args.end(), extra.begin(), extra.end());
  Collected c;
  c.process = test::RunGpuforensics(args, {host.PathEnv(), "KUBECONFIG="});
  REQUIRE_MESSAGE(c.process.exit_code == exit_code, c.process.err);
  c.members = test::ReadBundleMembers(out);
  REQUIRE(!c.members.empty());
  c.manifest = json::parse(c.members[0].second);
  return c;
}

const json* Artifact(const json& manifest, const std::string& name, const std::string& instance = "") {
  for (const auto& a : manifest["artifacts"]) {
    if (a["name"] == name && a["instance"] == instance) return &a;
  }
  return nullptr;
}

std::string Member(const Collected& c, const json& artifact, const std::string& stream) {
  for (const auto& o : artifact["outputs"]) {
    if (o["stream"] != stream) continue;
    for (const auto& [name, data] : c.members) {
      if (name == o["member"]) return data;
    }
  }
  return "";
}

// The fake node with the device plugin installed as a host service, whose journal slice is then read.
void BuildPluginServiceNode(FakeHost& host) {
  test::BuildFakeNode(host);
  host.AddFile("/usr/lib/systemd/system/nvidia-k8s-device-plugin.service", "[Service]\nExecStart=/bin/true\n");
}

// A line of the device plugin run as a host service.
std::string PluginServiceEntry(int64_t realtime_us, const std::string& message) {
  return test::ExportEntry(realtime_us,
                     "SYSLOG_IDENTIFIER=nvidia-device-plugin\n_PID=1667\n_TRANSPORT=stdout\n"
                     "_SYSTEMD_UNIT=nvidia-k8s-device-plugin.service\n",
                     message);
}

// PID 1's line about the plugin's unit, as journalctl -u selects it too.
std::string SystemdEntry(int64_t realtime_us, const std::string& message) {
  return test::ExportEntry(realtime_us,
                     "SYSLOG_IDENTIFIER=systemd\n_PID=1\n_TRANSPORT=journal\n_SYSTEMD_UNIT=init.scope\n"
                     "UNIT=nvidia-k8s-device-plugin.service\n",
                     message);
}

}  // namespace

TEST_SUITE("collect_fakehost") {

TEST_CASE("collect: a fake node yields a bundle with every capture the chain needs") {
  FakeHost host;
  test::BuildFakeNode(host);
  Collected c = Collect(host, host.root() + "/../node.tar.zst");
  const json& m = c.manifest;
  CHECK(c.members[0].first == "manifest.json");
  CHECK(m["host"]["node_name"] == "gpu-node-7");
  CHECK(m["host"]["boot_id"] == "9c1d4e2a-5b6f-4a3b-8c7d-0e1f2a3b4c5d");
  CHECK(m["collection"]["complete"] == true);

  const json* smi = Artifact(m, "host.nvidia_smi_list");
  REQUIRE(smi);
  CHECK((*smi)["status"] == "ok");
  CHECK((*smi)["phase"] == 4);
  CHECK(Member(c, *smi, "stdout").find("GPU 1: NVIDIA H800 (UUID: GPU-7d2e9f10") != std::string::npos);

  const json* in_container = Artifact(m, "plugin.nvidia_smi_list", test::kPluginId);
  REQUIRE(in_container);
  CHECK((*in_container)["status"] == "nonzero_exit");
  CHECK((*in_container)["exit_code"] == 255);
  CHECK(Member(c, *in_container, "stdout") == "Failed to initialize NVML: Unknown Error\n");

  const json* devices = Artifact(m, "plugin.devices_list", test::kPluginId);
  REQUIRE(devices);
  CHECK(Member(c, *devices, "content") == "c 1:3 rwm\nc 1:5 rwm\nc 136:* rwm\nc 195:* m\nb *:* m\n");

  const json* pci = Artifact(m, "pci.nvidia_functions");
  REQUIRE(pci);
  CHECK(Member(c, *pci, "content") ==
        "# gpuforensics pci v1: address vendor device class\n"
        "0000:18:00.0\t0x10de\t0x2324\t0x030200\n0000:2a:00.0\t0x10de\t0x2324\t0x030200\n");

  const json* localtime = Artifact(m, "host.localtime");
  REQUIRE(localtime);
  CHECK(Member(c, *localtime, "content").find("/etc/localtime\tl\t") != std::string::npos);
  CHECK(Member(c, *localtime, "content").find("/usr/share/zoneinfo/Asia/Shanghai\n") != std::string::npos);

  if (geteuid() == 0) {
    const json* nodes = Artifact(m, "dev.nvidia_nodes");
    REQUIRE(nodes);
    std::string listing = Member(c, *nodes, "content");
    CHECK(listing.find("/dev/nvidia0\tc\t0666\t0\t0\t195\t0\t") != std::string::npos);
    CHECK(listing.find("/dev/nvidia-uvm\tc\t0666\t0\t0\t508\t0\t") != std::string::npos);
  }

  const json* static_pods = Artifact(m, "config.static_pod", "/etc/kubernetes/manifests/nvidia-device-plugin.yml");
  CHECK(static_pods);
  CHECK_FALSE(Artifact(m, "config.static_pod", "/etc/kubernetes/manifests/etcd.yaml"));
  const json* node = Artifact(m, "k8s.node");
  REQUIRE(node);
  CHECK((*node)["argv"][2] == host.root() + "/etc/kubernetes/kubelet.conf");

  // Every artifact is a row of the one table, stored as the row says.
  for (const auto& a : m["artifacts"]) {
    const ArtifactRow* row = FindArtifact(a["name"].get<std::string>());
    REQUIRE_MESSAGE(row, a["name"] << " is not in common/artifacts.cc");
    CHECK(a["kind"] == std::string(ArtifactKindName(row->kind)));
    if (a["outputs"].empty()) continue;
    bool has_stream = false;
    for (const auto& o : a["outputs"]) has_stream = has_stream || o["stream"] == std::string(row->stream());
    CHECK_MESSAGE(has_stream, a["name"] << " lacks its " << row->stream() << " stream");
  }

  // The closing summary judges each step as analyze will (chain/chain_steps.h).
  CHECK(c.process.err.find("  PCI devices:                          ok (2 NVIDIA GPU functions on the PCI bus)\n") !=
        std::string::npos);
  CHECK(c.process.err.find("  NVML on the host (nvidia-smi):        ok (2 GPUs listed)\n") != std::string::npos);
  CHECK(c.process.err.find("  Node capacity/allocatable:            failed (nvidia.com/gpu capacity 0, allocatable 0)\n") !=
        std::string::npos);
  CHECK(c.process.err.find("  registration with kubelet:            failed (no registration since the plugin started)\n") !=
        std::string::npos);
}

TEST_CASE("collect: read-only — every command it ran is on the read-only list") {
  FakeHost host;
  test::BuildFakeNode(host);
  Collected c = Collect(host, host.root() + "/../node.tar.zst");
  std::vector<std::string> logged = host.LoggedArgv();
  std::sort(logged.begin(), logged.end());
  const std::string id = test::kPluginId;
  const std::string kubeconfig = host.root() + "/etc/kubernetes/kubelet.conf";
  std::vector<std::string> expected = {
      "containerd --version",
      "crictl --version",
      "crictl exec " + id + " nvidia-smi -L",
      "crictl info -o json",
      "crictl inspect -o json " + id,
      "crictl pods -o json",
      "crictl ps -a -o json",
      "kubectl --kubeconfig " + kubeconfig + " --request-timeout=5s get node gpu-node-7 -o json",
      "kubectl --kubeconfig " + kubeconfig +
          " --request-timeout=5s get pods -A --field-selector spec.nodeName=gpu-node-7 -o json",
      "kubectl --kubeconfig " + kubeconfig +
          " --request-timeout=5s get events -n default --field-selector "
          "involvedObject.kind=Node,involvedObject.name=gpu-node-7"
          " -o json",
      "nvidia-smi -L",
      "nvidia-smi -q -x",
      "runc --version",
      "systemctl --version",
      "systemctl show --no-pager --property=Id,LoadState,ActiveState,SubState,ActiveEnterTimestamp,"
      "ActiveEnterTimestampMonotonic,ExecMainStartTimestamp,ExecMainPID,NRestarts,NeedDaemonReload "
      "nvidia-persistenced.service nvidia-fabricmanager.service kubelet.service containerd.service crio.service",
      "systemctl show --no-pager -p DeviceAllow -p DevicePolicy -p NeedDaemonReload cri-containerd-" + id + ".scope",
  };
  std::sort(expected.begin(), expected.end());
  CHECK(logged == expected);

  // And the manifest's own record of argv: nothing that changes state.
  for (const auto& a : c.manifest["artifacts"]) {
    if (a["kind"] != "command") continue;
    std::string line;
    for (const auto& arg : a["argv"]) line += arg.get<std::string>() + " ";
    for (const char* verb : {" stop ", " rm ", " restart ", " kill ", "modprobe", "daemon-reload", " start ",
                             " delete ", " rmi ", " reset "}) {
      CHECK_MESSAGE(line.find(verb) == std::string::npos, line);
    }
  }
}

TEST_CASE("collect: no secret reaches the bundle") {
  FakeHost host;
  test::BuildFakeNode(host);
  Collected c = Collect(host, host.root() + "/../node.tar.zst");
  for (const auto& [name, data] : c.members) {
    CHECK_MESSAGE(data.find("gpuf-canary") == std::string::npos, name);
  }
  const json* inspect = Artifact(c.manifest, "plugin.inspect", test::kPluginId);
  REQUIRE(inspect);
  CHECK((*inspect)["redactions"] == 3);
  std::string text = Member(c, *inspect, "stdout");
  CHECK(text.find("\"FAIL_ON_INIT_ERROR\"") != std::string::npos);
  CHECK(text.find("\"--fail-on-init-error=false\"") != std::string::npos);
  CHECK(text.find("NVIDIA_VISIBLE_DEVICES=all") != std::string::npos);
  const json* pki = Artifact(c.manifest, "kubelet.checkpoint");
  CHECK(pki);
}

TEST_CASE("collect: a hung nvidia-smi that ignores SIGTERM is bounded by the timeout") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("nvidia-smi", "trap '' TERM\necho 'partial output'\nwhile :; do sleep 1; done");
  Collected c = Collect(host, host.root() + "/../node.tar.zst");
  const json* smi = Artifact(c.manifest, "host.nvidia_smi_list");
  REQUIRE(smi);
  CHECK((*smi)["status"] == "timed_out");
  CHECK((*smi)["timed_out"] == true);
  CHECK((*smi)["signal"] == SIGKILL);
  CHECK(Member(c, *smi, "stdout") == "partial output\n");
  CHECK((*smi)["duration_ns"].get<int64_t>() >= 2'000'000'000);
  // --timeout 2: the probe takes 2 s plus 0.5 s of SIGTERM grace; the rest
  // of the collection is quick and runs in parallel.
  CHECK(c.process.seconds < 2 + 0.5 + 3);
  CHECK(c.process.err.find("host.nvidia_smi_list timed_out") != std::string::npos);
}

TEST_CASE("collect: nothing touches the driver before the passive probes of what it can change end") {
  FakeHost host;
  test::BuildFakeNode(host);
  Collected c = Collect(host, host.root() + "/../node.tar.zst");
  std::map<int, int64_t> phase_end, phase_start;
  for (const auto& a : c.manifest["artifacts"]) {
    if (a["status"] == "skipped") continue;
    int phase = a["phase"].get<int>();
    int64_t start = a["started_at_unix_ns"].get<int64_t>();
    int64_t end = a["ended_at_unix_ns"].get<int64_t>();
    if (a["context"] == "container" && phase == 4) phase = 5;  // nvidia-smi inside the plugin container
    if (!DriverCanChange(a["name"].get<std::string>())) phase = 0;  // may run beside nvidia-smi
    phase_end[phase] = std::max(phase_end[phase], end);
    phase_start[phase] = phase_start.count(phase) ? std::min(phase_start[phase], start) : start;
  }
  REQUIRE(phase_end.count(1));
  REQUIRE(phase_start.count(4));
  REQUIRE(phase_start.count(5));
  CHECK(phase_start[4] >= phase_end[1]);
  CHECK(phase_start[2] >= phase_end[1]);
  CHECK(phase_start[3] >= phase_end[2]);
  CHECK(phase_start[5] >= phase_end[3]);
}

TEST_CASE("collect: a stub whose child keeps stdout open does not stall collection") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("nvidia-smi", "(sleep 60) &\necho 'GPU 0: NVIDIA H800 (UUID: GPU-5b3c8a8e-0d1f-4a43-9a8e-2b1d3c4e5f60)'");
  Collected c = Collect(host, host.root() + "/../node.tar.zst");
  const json* smi = Artifact(c.manifest, "host.nvidia_smi_list");
  REQUIRE(smi);
  CHECK((*smi)["status"] == "ok");
  CHECK((*smi)["duration_ns"].get<int64_t>() < 1'500'000'000);
  CHECK(c.process.seconds < 5);
}

TEST_CASE("collect: a 1 GB flood is capped and memory stays small") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("nvidia-smi", "dd if=/dev/zero bs=1048576 count=1024 2>/dev/null");
  Collected c = Collect(host, host.root() + "/../node.tar.zst", {"--timeout", "60"});
  const json* smi = Artifact(c.manifest, "host.nvidia_smi_list");
  REQUIRE(smi);
  CHECK((*smi)["status"] == "ok");
  CHECK((*smi)["truncated"] == true);
  const json& out = (*smi)["outputs"][0];
  CHECK(out["stream"] == "stdout");
  CHECK(out["size_bytes"] == 16 * 1024 * 1024);
  CHECK(out["dropped_bytes"] == 1008LL * 1024 * 1024);
#if !defined(__SANITIZE_ADDRESS__)  // AddressSanitizer's shadow memory inflates RSS
  CHECK(c.process.max_rss_kib < 64 * 1024);
#endif
}

TEST_CASE("collect: without crictl, containerd's ctr finds the plugin container") {
  FakeHost host;
  test::BuildFakeNode(host);
  test::UseCtrInsteadOfCrictl(host);
  Collected c = Collect(host, host.root() + "/../node.tar.zst");
  const json* ps = Artifact(c.manifest, "runtime.crictl_ps");
  REQUIRE(ps);
  CHECK((*ps)["status"] == "skipped");
  CHECK((*ps)["skip_reason"] == "tool_missing");
  CHECK(Artifact(c.manifest, "runtime.ctr_containers"));
  const json* info = Artifact(c.manifest, "runtime.ctr_container_info", test::kPluginId);
  REQUIRE(info);
  CHECK(Member(c, *info, "stdout").find("API_KEY=<redacted>") != std::string::npos);
  const json* smi = Artifact(c.manifest, "plugin.nvidia_smi_list", test::kPluginId);
  REQUIRE(smi);
  // ctr gives up on a socket nobody listens on after 2 s, not at the probe's timeout.
  CHECK((*smi)["argv"][1] == "--connect-timeout");
  CHECK((*smi)["argv"][2] == "2s");
  CHECK((*smi)["argv"][3] == "-n");
  CHECK((*smi)["argv"][5] == "tasks");
  CHECK(Member(c, *smi, "stdout") == "Failed to initialize NVML: Unknown Error\n");
  CHECK(Artifact(c.manifest, "plugin.proc_cgroup", test::kPluginId));
}

TEST_CASE("collect: --output - writes the bundle to stdout and nothing else, --node defaults to $NODE_NAME") {
  FakeHost host;
  test::BuildFakeNode(host);
  const std::string tmp = host.root() + "/../tmp";
  std::filesystem::create_directory(tmp);
  auto r = test::RunGpuforensics({"collect", "--root", host.root(), "--output", "-", "--timeout", "2"},
                                 {host.PathEnv(), "KUBECONFIG=", "NODE_NAME=gpu-node-7.example", "TMPDIR=" + tmp});
  REQUIRE_MESSAGE(r.exit_code == 0, r.err);
  // The last line names the bundle by the ID verify and analyze print for it.
  const std::string last = r.err.substr(r.err.rfind('\n', r.err.size() - 2) + 1);
  std::string id;
  CHECK(RE2::FullMatch(last, R"(gpuforensics collect: wrote the bundle to stdout \(bundle (gf-[0-9a-f]{12})\)\n)", &id));
  const std::string bundle = host.root() + "/../streamed.tar.zst";
  test::WriteFile(bundle, r.out);
  auto verify = test::RunGpuforensics({"verify", bundle});
  CHECK(verify.exit_code == 0);
  CHECK(verify.out.find(": bundle " + id + ", ") != std::string::npos);
  json manifest = json::parse(test::ReadBundleMembers(bundle).at(0).second);
  CHECK(manifest["host"]["node_name"] == "gpu-node-7.example");
  // Its staging in $TMPDIR is gone.
  CHECK(std::filesystem::is_empty(tmp));

  // A bundle is no text for a terminal's scrollback, and a map must have a place to go.
  auto redact = test::RunGpuforensics({"collect", "--root", host.root(), "--output", "-", "--redact"},
                                      {host.PathEnv(), "KUBECONFIG="});
  CHECK(redact.exit_code == 64);
  CHECK(redact.err == "gpuforensics collect: --output - with --redact needs --map\n");
}

TEST_CASE("collect: missing kubectl and missing files are recorded, not fatal") {
  FakeHost host;
  test::BuildFakeNode(host);
  std::filesystem::remove(host.bin() + "/kubectl");
  Collected c = Collect(host, host.root() + "/../node.tar.zst");
  const json* node = Artifact(c.manifest, "k8s.node");
  REQUIRE(node);
  CHECK((*node)["status"] == "skipped");
  CHECK((*node)["skip_reason"] == "tool_missing");
  CHECK((*node)["error"] == "'kubectl' not found on PATH");
  const json* cdi = Artifact(c.manifest, "config.cdi");
  REQUIRE(cdi);
  CHECK((*cdi)["skip_reason"] == "not_found");
  CHECK((*cdi)["outputs"].empty());
}

TEST_CASE("collect: SIGINT still leaves a valid bundle, marked incomplete") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("nvidia-smi", "trap '' TERM\nwhile :; do sleep 1; done");
  const std::string out = host.root() + "/../node.tar.zst";
  const std::string binary = test::GpuforensicsBinary();
  pid_t pid = fork();
  if (pid == 0) {
    std::string path = host.PathEnv().substr(5);
    setenv("PATH", path.c_str(), 1);
    execl(binary.c_str(), binary.c_str(), "collect", "--root", host.root().c_str(), "-o", out.c_str(), "--timeout",
          "30", static_cast<char*>(nullptr));
    _exit(127);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  kill(pid, SIGINT);
  int status = 0;
  waitpid(pid, &status, 0);
  REQUIRE(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 3);  // written, but incomplete
  auto members = test::ReadBundleMembers(out);
  json m = json::parse(members.at(0).second);
  CHECK(m["collection"]["complete"] == false);
  CHECK(m["collection"]["incomplete_reason"] == "interrupted");
  const json* smi = Artifact(m, "host.nvidia_smi_list");
  REQUIRE(smi);
  CHECK((*smi)["status"] == "interrupted");
  auto verify = test::RunGpuforensics({"verify", out});
  CHECK(verify.exit_code == 0);
}

TEST_CASE("collect: --fixed-time makes the bundle byte-identical across runs") {
  FakeHost host;
  test::BuildFakeNode(host);
  const std::string a = host.root() + "/../a.tar.zst", b = host.root() + "/../b.tar.zst";
  Collect(host, a, {"--fixed-time", "2025-11-18T13:30:00+08:00"});
  Collect(host, b, {"--fixed-time", "2025-11-18T13:30:00+08:00"});
  CHECK(test::ReadFile(a) == test::ReadFile(b));
  json m = json::parse(test::ReadBundleMembers(a).at(0).second);
  CHECK(m["collection"]["started_at"] == "2025-11-18T05:30:00.000000000Z");
}

}  // TEST_SUITE

}  // namespace gpuf

namespace gpuf {

TEST_SUITE("collect_fakehost") {

TEST_CASE("collect: the overall deadline ends a hung probe and marks the bundle incomplete") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("nvidia-smi", "trap '' TERM\nwhile :; do sleep 1; done");
  // Written, but incomplete: exit status 3.
  Collected c = Collect(host, host.root() + "/../node.tar.zst", {"--timeout", "30", "--deadline", "2"}, 3);
  CHECK(c.manifest["collection"]["complete"] == false);
  CHECK(c.manifest["collection"]["incomplete_reason"] == "deadline");
  const json* smi = Artifact(c.manifest, "host.nvidia_smi_list");
  REQUIRE(smi);
  CHECK((*smi)["status"] == "timed_out");
  CHECK(c.process.seconds < 2 + 1 + 3);
  CHECK(c.process.err.find("bundle is INCOMPLETE (deadline)") != std::string::npos);
}

TEST_CASE("collect: nvidia-smi missing from the plugin image is not called an NVML failure") {
  FakeHost host;
  test::BuildFakeNode(host);
  std::string crictl = test::ReadFile(host.bin() + "/crictl");
  std::string from = "echo 'Failed to initialize NVML: Unknown Error'; exit 255";
  crictl.replace(crictl.find(from), from.size(),
                 "echo 'time=\"2025-11-18T13:30:01+08:00\" level=fatal msg=\"execing command in container: "
                 "rpc error: code = Unknown desc = failed to exec in container: failed to start exec: OCI runtime "
                 "exec failed: exec failed: unable to start container process: exec: \\\"nvidia-smi\\\": "
                 "executable file not found in $PATH: unknown\"' >&2; exit 1");
  test::WriteFile(host.bin() + "/crictl", crictl, 0755);
  Collected c = Collect(host, host.root() + "/../node.tar.zst");
  CHECK(c.process.err.find("; nvidia-smi is not in the plugin image (no NVML check possible)") != std::string::npos);
}

TEST_CASE("collect: a device plugin run as a host service has its journal read as its log") {
  if (!test::JournalWritable()) return;
  FakeHost host;
  test::BuildFakeNode(host);
  const int64_t t = 1763436000LL * 1000000;  // 140 s after boot
  // A first start fails NVML; systemd restarts the unit, and the second one serves.
  REQUIRE(test::WriteJournal(host,
      SystemdEntry(t - 4000000, "Started nvidia-k8s-device-plugin.service - NVIDIA k8s device plugin.") +
      PluginServiceEntry(t - 3000000, "E1118 03:19:57.000000    1660 factory.go:112] Failed to initialize NVML: "
                                      "Unknown Error.") +
      SystemdEntry(t - 2000000, "nvidia-k8s-device-plugin.service: Scheduled restart job, restart counter is at 1.") +
      SystemdEntry(t - 1000000, "Started nvidia-k8s-device-plugin.service - NVIDIA k8s device plugin.") +
      PluginServiceEntry(t, "I1118 03:20:00.000000    1667 server.go:216] Starting GRPC server for 'nvidia.com/gpu'") +
      PluginServiceEntry(t + 5000, "I1118 03:20:00.005000    1667 server.go:154] Registered device plugin for "
                                   "'nvidia.com/gpu' with Kubelet") +
      PluginServiceEntry(t + 5040, "I1118 03:20:00.005040    1667 main.go:246] inotify: "
                                   "/var/lib/kubelet/device-plugins/kubelet.sock created, restarting.")));
  const std::string without = host.root() + "/../no-unit.tar.zst";
  CHECK(Artifact(Collect(host, without).manifest, "journal.nvidia_device_plugin", "boot:0") == nullptr);

  host.AddFile("/usr/lib/systemd/system/nvidia-k8s-device-plugin.service",
               "[Service]\nExecStart=/usr/bin/nvidia-device-plugin\n");
  const std::string out = host.root() + "/../host-service.tar.zst";
  Collected c = Collect(host, out);
  const json* journal = Artifact(c.manifest, "journal.nvidia_device_plugin", "boot:0");
  REQUIRE(journal);
  CHECK((*journal)["status"] == "ok");
  CHECK(Member(c, *journal, "stdout").find("Registered device plugin for 'nvidia.com/gpu'") != std::string::npos);
  // The journal holds one boot: the previous one's slices have nothing to read, not a failure.
  const json* earlier = Artifact(c.manifest, "journal.nvidia_device_plugin", "boot:-1");
  REQUIRE(earlier);
  CHECK((*earlier)["status"] == "skipped");
  CHECK((*earlier)["skip_reason"] == "not_found");
  CHECK((*earlier)["error"].get<std::string>().rfind("the journal holds no such boot: ", 0) == 0);
  CHECK((*earlier)["outputs"].empty());

  auto events = test::RunGpuforensics({"sql", out,
      "SELECT l.event FROM log_lines l JOIN artifacts a USING (artifact_id) "
      "WHERE a.name = 'journal.nvidia_device_plugin' ORDER BY l.line"});
  // PID 1's lines about the unit stay systemd's.
  CHECK(events.out == "event\nnvml_init_failed\ngrpc_server_starting\nregistered\nkubelet_socket_created\n");
  // On the timeline once each: the plugin's lines as the plugin's, PID 1's as systemd's.
  auto timeline = test::RunGpuforensics({"timeline", out, "--all", "--format", "jsonl"});
  std::string unit_lines;
  int started_lines = 0;
  std::istringstream rows(timeline.out);
  for (std::string row; std::getline(rows, row);) {
    json event = json::parse(row);
    if (event["message"].get<std::string>().rfind("Started nvidia-k8s", 0) == 0) ++started_lines;
    if (event["artifact"] != "journal.nvidia_device_plugin") continue;
    unit_lines += event["source"].get<std::string>() + " " +
                  (event["milestone"].is_null() ? "-" : event["milestone"].get<std::string>()) + "\n";
  }
  CHECK(unit_lines == "systemd plugin_service_started\nplugin plugin_nvml_init_failed\nsystemd -\n"
                      "systemd plugin_service_started\nplugin -\nplugin plugin_registered\n"
                      "plugin plugin_kubelet_restart_seen\n");
  CHECK(started_lines == 2);
  auto starts = test::RunGpuforensics({"sql", out,
      "SELECT count(*) FROM events WHERE milestone = 'plugin_service_started'"});
  CHECK(starts.out == "count(*)\n2\n");
  auto report = test::RunGpuforensics({"analyze", out, "--format", "json"});
  // The NVML failure belongs to the start before the last: the unit's restart counts as the plugin's.
  CHECK(json::parse(report.out)["chain"][6]["status"] == "ok");
  json findings = json::parse(report.out)["findings"];
  bool race = false;
  for (const auto& f : findings) race = race || f["id"] == "dp-kubelet-sock-restart-race";
  CHECK_MESSAGE(race, report.out);
}

// A slice's entries as JSON objects, without the fields of a read's own
// position (__CURSOR, __SEQNUM*): what two reads of one journal share.
std::vector<json> Entries(const std::string& json_lines) {
  std::vector<json> entries;
  std::istringstream in(json_lines);
  for (std::string line; std::getline(in, line);) {
    json e = json::parse(line);
    for (const char* position : {"__CURSOR", "__SEQNUM", "__SEQNUM_ID"}) e.erase(position);
    entries.push_back(e);
  }
  return entries;
}

// A slice as journalctl -o json -a -b N MATCH gives it on the fake node.
std::vector<json> DirectSlice(const FakeHost& host, const json& artifact) {
  std::vector<std::string> argv = {"/usr/bin/journalctl", "--root", host.root(), "--utc", "--no-pager",
                                   "-o", "json", "-a", "-b", artifact["instance"].get<std::string>().substr(5)};
  for (const auto& arg : artifact["journal_match"]) argv.push_back(arg.get<std::string>());
  auto direct = test::RunProcess(argv);
  REQUIRE_MESSAGE(direct.exit_code == 0, direct.err);
  return Entries(direct.out);
}

TEST_CASE("collect: each journal slice of the one read per boot holds what journalctl -o json gives for its match") {
  if (!test::JournalWritable()) return;
  FakeHost host;
  BuildPluginServiceNode(host);
  const int64_t t = 1763436000LL * 1000000;
  // A message journald stored as binary: a newline, a tab, bytes that are not UTF-8.
  std::string binary_message = "first line\n\tsecond \xff\xfe line";
  std::string binary = "MESSAGE\n";
  for (int i = 0; i < 8; ++i) binary += static_cast<char>(i == 0 ? binary_message.size() : 0);
  binary += binary_message + "\n";
  std::string kernel_binary = test::ExportEntry(t + 6000, "_TRANSPORT=kernel\nSYSLOG_IDENTIFIER=kernel\n", "x");
  kernel_binary.replace(kernel_binary.find("MESSAGE=x\n"), 10, binary);
  REQUIRE(test::WriteJournal(host,
      SystemdEntry(t - 4000000, "Started nvidia-k8s-device-plugin.service - NVIDIA k8s device plugin.") +
      PluginServiceEntry(t - 3000000, "E1118 03:19:57.000000    1660 factory.go:112] Failed to initialize NVML: "
                                      "Unknown Error.") +
      test::ExportEntry(t - 2500000, "SYSLOG_IDENTIFIER=kubelet\n_PID=1333\n_TRANSPORT=stdout\n_SYSTEMD_UNIT=kubelet.service\n",
                  "I1118 03:19:57.500000    1333 server.go:472] \"Kubelet version\" kubeletVersion=\"v1.29.3\"") +
      // The GPU Operator's persistenced: its identifier, a container's scope.
      test::ExportEntry(t - 2000000, "SYSLOG_IDENTIFIER=nvidia-persistenced\n_PID=4242\n_TRANSPORT=syslog\n"
                               "_SYSTEMD_UNIT=cri-containerd-5f1d2c3b.scope\n",
                  "Started (4242)") +
      test::ExportEntry(t - 1000000, "SYSLOG_IDENTIFIER=sshd\n_PID=901\n_TRANSPORT=syslog\n_SYSTEMD_UNIT=ssh.service\n",
                  "Accepted publickey for root") +
      test::ExportEntry(t, "SYSLOG_IDENTIFIER=containerd\n_PID=1294\n_TRANSPORT=stdout\n_SYSTEMD_UNIT=containerd.service\n"
                     "CONTAINER_TAG=a\nCONTAINER_TAG=b\n",
                  "time=\"2025-11-18T03:20:00Z\" level=info msg=\"shim disconnected\"") +
      kernel_binary));
  Collected c = Collect(host, host.root() + "/../node.tar.zst");
  int compared = 0;
  for (const auto& a : c.manifest["artifacts"]) {
    if (!a.contains("journal_match") || a["status"] != "ok") continue;
    CHECK_MESSAGE(Entries(Member(c, a, "stdout")) == DirectSlice(host, a), a["name"], " ", a["instance"]);
    ++compared;
  }
  CHECK(compared >= 8);  // boot 0's slices at least; the fake node's journal may lack boot -1
  const json* kernel = Artifact(c.manifest, "journal.kernel", "boot:0");
  REQUIRE(kernel);
  CHECK(Member(c, *kernel, "stdout").find("\"MESSAGE\":[102,105,114,115,116,32,108,105,110,101,10,9,115") !=
        std::string::npos);
  const json* plugin = Artifact(c.manifest, "journal.nvidia_device_plugin", "boot:0");
  REQUIRE(plugin);
  CHECK(Member(c, *plugin, "stdout").find("Failed to initialize NVML") != std::string::npos);
  for (const auto& [name, data] : c.members) CHECK(data.find("Accepted publickey") == std::string::npos);
}

TEST_CASE("collect: once the kubelet's slice is full the read narrows, and every slice is still what journalctl gives") {
  if (!test::JournalWritable()) return;
  FakeHost host;
  BuildPluginServiceNode(host);
  const int64_t t = 1763436000LL * 1000000;
  // The evidence, older than a flood of kubelet lines that overfills its 64 MiB cap.
  std::string journal =
      SystemdEntry(t, "Started nvidia-k8s-device-plugin.service - NVIDIA k8s device plugin.") +
      PluginServiceEntry(t + 1000, "E1118 03:20:00.001000    1660 factory.go:112] Failed to initialize NVML: "
                                   "Unknown Error.") +
      test::ExportEntry(t + 2000, "SYSLOG_IDENTIFIER=nvidia-persistenced\n_PID=4242\n_TRANSPORT=syslog\n",
                  "Started (4242)");
  const std::string padding(1000, 'x');
  for (int i = 0; i < 60000; ++i) {
    const int64_t at = t + 1000000 + i * 1000LL;
    journal += i % 50 == 0 ? test::ExportEntry(at, "_TRANSPORT=kernel\nSYSLOG_IDENTIFIER=kernel\n",
                                         "NVRM: Xid (PCI:0000:4c:00): 13, line " + std::to_string(i))
                           : test::ExportEntry(at, "SYSLOG_IDENTIFIER=kubelet\n_PID=1333\n_TRANSPORT=stdout\n"
                                             "_SYSTEMD_UNIT=kubelet.service\n",
                                         "I1118 03:20:01.000000    1333 flood.go:1] " + std::to_string(i) + padding);
  }
  REQUIRE(test::WriteJournal(host, journal));
  journal.clear();
  Collected c = Collect(host, host.root() + "/../node.tar.zst", {"--timeout", "60"});
  int open_slices = 0;
  for (const auto& a : c.manifest["artifacts"]) {
    if (!a.contains("journal_match") || a["instance"] != "boot:0") continue;
    CHECK_MESSAGE(a["status"] == "ok", a["name"]);
    REQUIRE_MESSAGE(a.contains("journal_narrowed_argv"), a["name"]);
    std::vector<std::string> narrower = a["journal_narrowed_argv"];
    CHECK(std::find(narrower.begin(), narrower.end(), "_TRANSPORT=kernel") != narrower.end());
    CHECK(std::find(narrower.begin(), narrower.end(), "_SYSTEMD_UNIT=kubelet.service") == narrower.end());
    CHECK(std::any_of(narrower.begin(), narrower.end(), [](const std::string& arg) { return arg.rfind("--cursor=", 0) == 0; }));
    std::vector<json> stored = Entries(Member(c, a, "stdout")), direct = DirectSlice(host, a);
    if (a["name"] == "journal.kubelet") {
      // Full: the newest of what journalctl gives, as many as the cap held.
      CHECK(a["truncated"] == true);
      REQUIRE(!stored.empty());
      REQUIRE(stored.size() < direct.size());
      CHECK(std::equal(stored.begin(), stored.end(), direct.end() - static_cast<std::ptrdiff_t>(stored.size())));
      continue;
    }
    CHECK_MESSAGE(stored == direct, a["name"]);
    ++open_slices;
  }
  CHECK(open_slices >= 6);
  const json* kernel = Artifact(c.manifest, "journal.kernel", "boot:0");
  REQUIRE(kernel);
  CHECK(Member(c, *kernel, "stdout").find("Xid (PCI:0000:4c:00): 13, line 0\"") != std::string::npos);
  const json* plugin = Artifact(c.manifest, "journal.nvidia_device_plugin", "boot:0");
  REQUIRE(plugin);
  CHECK(Member(c, *plugin, "stdout").find("Failed to initialize NVML") != std::string::npos);
}

TEST_CASE("collect: nvidia-smi of a GPU Operator driver container is run in its root") {
  if (geteuid() != 0 || !std::filesystem::exists("/usr/sbin/chroot")) {
    MESSAGE("skipped: needs root and chroot");
    return;
  }
  FakeHost host;
  test::BuildFakeNode(host);
  // The host has no nvidia-smi; the driver container's root has one, with a
  // shell and the C library to run it, as its image does.
  std::filesystem::remove(host.bin() + "/nvidia-smi");
  const std::string driver_root = host.root() + "/run/nvidia/driver";
  for (const char* lib : {"/lib/x86_64-linux-gnu/libc.so.6", "/lib64/ld-linux-x86-64.so.2"}) {
    std::filesystem::create_directories(std::filesystem::path(driver_root + lib).parent_path());
    std::filesystem::copy_file(lib, driver_root + lib);
  }
  std::filesystem::create_directories(driver_root + "/bin");
  std::filesystem::copy_file("/bin/dash", driver_root + "/bin/sh");
  test::WriteFile(driver_root + "/usr/bin/nvidia-smi",
                  "#!/bin/sh\ncase \"$*\" in\n"
                  "  '-L') echo 'GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-620668c5-7b59-fa53-aae0-3ab523142ad2)' ;;\n"
                  "  *) echo '<?xml version=\"1.0\" ?>'; echo '<nvidia_smi_log></nvidia_smi_log>' ;;\n"
                  "esac\n",
                  0755);
  std::filesystem::create_symlink("/usr/sbin/chroot", host.root() + "/../tools/chroot");

  Collected c = Collect(host, host.root() + "/../driver-container.tar.zst");
  const json* smi = Artifact(c.manifest, "host.nvidia_smi_list");
  REQUIRE(smi);
  CHECK_MESSAGE((*smi)["status"] == "ok", Member(c, *smi, "stderr") << (*smi).dump());
  CHECK((*smi)["argv"][0] == "chroot");
  CHECK((*smi)["argv"][1] == driver_root);
  CHECK(Member(c, *smi, "stdout").find("GPU 0: NVIDIA H100 80GB HBM3") != std::string::npos);
}

TEST_CASE("collect: CRI-O's configuration and drop-ins are read for the runtime rules") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddFile("/etc/crio/crio.conf", "[crio.runtime]\ndefault_runtime = \"runc\"\n");
  host.AddFile("/etc/crio/crio.conf.d/99-nvidia.conf",
               "[crio.runtime]\ndefault_runtime = \"nvidia\"\n\n[crio.runtime.runtimes.nvidia]\n"
               "runtime_path = \"/usr/bin/nvidia-container-runtime\"\nruntime_type = \"oci\"\n");
  const std::string out = host.root() + "/../crio.tar.zst";
  Collected c = Collect(host, out);
  CHECK(Artifact(c.manifest, "config.crio", "/etc/crio/crio.conf.d/99-nvidia.conf"));
  auto values = test::RunGpuforensics({"sql", out,
      "SELECT a.instance, v.key, v.value FROM config_values v JOIN artifacts a USING (artifact_id) "
      "WHERE v.key LIKE 'crio.%' ORDER BY a.instance, v.key"});
  CHECK(values.out == "instance\tkey\tvalue\n"
                      "\tcrio.default_runtime\trunc\n"  // a single file's artifact has no instance
                      "/etc/crio/crio.conf.d/99-nvidia.conf\tcrio.default_runtime\tnvidia\n"
                      "/etc/crio/crio.conf.d/99-nvidia.conf\tcrio.runtime.nvidia.runtime_path\t"
                      "/usr/bin/nvidia-container-runtime\n"
                      "/etc/crio/crio.conf.d/99-nvidia.conf\tcrio.runtime.nvidia.runtime_type\toci\n");
}

// A kubectl that knows one Node: `name` answers, any other name is NotFound
// (kubectl's own wording), the pod list is empty.
std::string KubectlKnowing(const std::string& name) {
  return "case \"$*\" in\n"
         "  *'get node " + name + " '*) echo '{\"kind\":\"Node\",\"metadata\":{\"name\":\"" + name +
         "\"},\"status\":{\"capacity\":{\"nvidia.com/gpu\":\"8\"},\"allocatable\":{\"nvidia.com/gpu\":\"8\"}}}' ;;\n"
         "  *'get node '*) echo \"Error from server (NotFound): nodes \\\"$6\\\" not found\" >&2; exit 1 ;;\n"
         "  *) echo '{\"kind\":\"List\",\"items\":[]}' ;;\n"
         "esac";
}

TEST_CASE("collect: ACK's Node is named by the kubelet's --hostname-override, not the hostname") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddFile("/etc/hostname", "iZbp1d5x3k8f2q7hz2e7tkZ\n");
  host.AddFile("/etc/systemd/system/kubelet.service.d/10-kubeadm.conf",
               "[Service]\nEnvironment=\"KUBELET_KUBECONFIG_ARGS=--kubeconfig=/etc/kubernetes/kubelet.conf\"\n"
               "Environment=\"KUBELET_EXTRA_ARGS=--hostname-override=cn-hangzhou.10.42.7.19\"\n"
               "ExecStart=\nExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_EXTRA_ARGS\n");
  host.AddStub("kubectl", KubectlKnowing("cn-hangzhou.10.42.7.19"));
  Collected c = Collect(host, host.root() + "/../ack.tar.zst");
  const json& h = c.manifest["host"];
  CHECK(h["node_name"] == "cn-hangzhou.10.42.7.19");
  CHECK(h["hostname"] == "iZbp1d5x3k8f2q7hz2e7tkZ");
  CHECK(h["node_name_source"] == "kubelet_flag");
  CHECK(h["node_name_steps"] == json::parse(R"([
      {"source": "option", "from": null, "value": null},
      {"source": "node_object", "from": null, "value": null},
      {"source": "env", "from": null, "value": null},
      {"source": "kubelet_flag", "from": "/etc/systemd/system/kubelet.service.d/10-kubeadm.conf",
       "value": "cn-hangzhou.10.42.7.19"}])"));
  CHECK(h["node_found"] == true);
  CHECK(h["kubeconfig"] == "/etc/kubernetes/kubelet.conf");
  CHECK(h["kubeconfig_source"] == "kubelet_flag");
  CHECK(h["platform"] == "kubeadm");
  CHECK(h["platform_evidence"].is_string());  // the marker that held, or "" for the fallback
  const json* node = Artifact(c.manifest, "k8s.node");
  REQUIRE(node);
  CHECK((*node)["status"] == "ok");
  CHECK((*node)["argv"][6] == "cn-hangzhou.10.42.7.19");
  CHECK(c.process.err.find("  Node:                                 cn-hangzhou.10.42.7.19 (kubelet_flag: "
                           "/etc/systemd/system/kubelet.service.d/10-kubeadm.conf; hostname iZbp1d5x3k8f2q7hz2e7tkZ)\n") !=
        std::string::npos);
  CHECK(c.process.err.find("  kubeconfig:                           /etc/kubernetes/kubelet.conf (kubelet_flag)\n") !=
        std::string::npos);
  CHECK(c.process.err.find("(nvidia.com/gpu capacity 8, allocatable 8") != std::string::npos);
}

TEST_CASE("collect: $NODE_NAME names the Node, as the watch DaemonSet and the Job pass it") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("kubectl", KubectlKnowing("gpu-node-7b"));
  const std::string out = host.root() + "/../env.tar.zst";
  auto run = test::RunGpuforensics({"collect", "--root", host.root(), "-o", out, "--timeout", "2"},
                                   {host.PathEnv(), "KUBECONFIG=", "NODE_NAME=gpu-node-7b"});
  REQUIRE_MESSAGE(run.exit_code == 0, run.err);
  json m = json::parse(test::ReadBundleMembers(out).at(0).second);
  CHECK(m["host"]["node_name"] == "gpu-node-7b");
  CHECK(m["host"]["node_name_source"] == "env");
  CHECK(m["host"]["node_found"] == true);
}

// What `kubectl get node NAME -o json` prints, as kubectl-gpuforensics pipes it
// in: another node's Node, and this fake node's.
constexpr char kGivenNode[] =
    "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Node\",\n    \"metadata\": {\"name\": \"gke-gpu-pool-k8x2\"},\n"
    "    \"status\": {\"capacity\": {\"nvidia.com/gpu\": \"4\"}, \"allocatable\": {\"nvidia.com/gpu\": \"4\"}}\n}\n";
constexpr char kThisNode[] =
    "{\n    \"apiVersion\": \"v1\",\n    \"kind\": \"Node\",\n    \"metadata\": {\"name\": \"gpu-node-7\"},\n"
    "    \"status\": {\"capacity\": {\"nvidia.com/gpu\": \"4\"}, \"allocatable\": {\"nvidia.com/gpu\": \"4\"}}\n}\n";

TEST_CASE("collect: a Node given with --node-object is k8s.node, and names the Node") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("kubectl", KubectlKnowing("gpu-node-7"));
  const std::string given = host.root() + "/../node.json";
  test::WriteFile(given, kThisNode);
  Collected c = Collect(host, host.root() + "/../given.tar.zst", {"--node-object", given});
  const json& h = c.manifest["host"];
  CHECK(h["node_name"] == "gpu-node-7");
  CHECK(h["node_name_source"] == "node_object");
  CHECK(h["node_name_steps"] == json::parse(R"([
      {"source": "option", "from": null, "value": null},
      {"source": "node_object", "from": "--node-object", "value": "gpu-node-7"}])"));
  CHECK(h["node_found"] == true);
  const json* node = Artifact(c.manifest, "k8s.node");
  REQUIRE(node);
  CHECK((*node)["status"] == "ok");
  CHECK((*node)["kind"] == "file");
  CHECK((*node)["context"] == "cluster");
  CHECK((*node)["path"] == given);
  const std::string member = (*node)["outputs"][0]["member"];
  auto stored = std::find_if(c.members.begin(), c.members.end(), [&](const auto& m) { return m.first == member; });
  REQUIRE(stored != c.members.end());
  CHECK(stored->second == kThisNode);
  // The host's kubectl still lists the Node's pods, and is never asked for the Node.
  bool asked_for_node = false, asked_for_pods = false;
  for (const auto& argv : host.LoggedArgv()) {
    asked_for_node = asked_for_node || argv.find(" get node ") != std::string::npos;
    asked_for_pods = asked_for_pods || argv.find("spec.nodeName=gpu-node-7") != std::string::npos;
  }
  CHECK(!asked_for_node);
  CHECK(asked_for_pods);
  CHECK(c.process.err.find("(nvidia.com/gpu capacity 4, allocatable 4") != std::string::npos);
  auto report = test::RunGpuforensics({"analyze", host.root() + "/../given.tar.zst"});
  CHECK(report.out.find("Node capacity/allocatable            ok       nvidia.com/gpu capacity 4, allocatable 4") !=
        std::string::npos);
}

TEST_CASE("collect: the EventList handed in a List with the Node is k8s.events, on the timeline as the cluster's") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("kubectl", KubectlKnowing("gpu-node-7"));
  const std::string given = host.root() + "/../node-and-events.json";
  json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", json::array({json::parse(kThisNode)})}};
  list["items"].push_back(json::parse(R"({"apiVersion": "v1", "kind": "EventList", "items": [{"kind": "Event",
      "type": "Normal", "reason": "NodeNotReady", "message": "Node gpu-node-7 status is now: NodeNotReady",
      "count": 1, "involvedObject": {"kind": "Node", "name": "gpu-node-7"},
      "lastTimestamp": "2026-11-18T03:21:05Z"}]})"));
  test::WriteFile(given, list.dump());
  Collected c = Collect(host, host.root() + "/../events.tar.zst", {"--node-object", given});
  const json* events = Artifact(c.manifest, "k8s.events");
  REQUIRE(events);
  CHECK((*events)["status"] == "ok");
  CHECK((*events)["context"] == "cluster");
  // The host's kubectl is asked neither for the Node nor for its events.
  for (const auto& argv : host.LoggedArgv()) {
    CHECK(argv.find(" get node ") == std::string::npos);
    CHECK(argv.find(" get events ") == std::string::npos);
  }
  auto timeline = test::RunGpuforensics({"timeline", host.root() + "/../events.tar.zst", "--format", "jsonl"});
  CHECK(timeline.out.find(R"("message":"Normal NodeNotReady node/gpu-node-7: Node gpu-node-7 status is now: )"
                          R"(NodeNotReady")") != std::string::npos);
  CHECK(timeline.out.find(R"("milestone":"cluster_event")") != std::string::npos);
}

TEST_CASE("collect: the pods and the plugin's DaemonSet handed with the Node, and the report says a rollout is under way") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("kubectl", KubectlKnowing("gpu-node-7"));
  const std::string given = host.root() + "/../node-pods-daemonset.json";
  json list = {{"apiVersion", "v1"}, {"kind", "List"}, {"items", json::array({json::parse(kThisNode)})}};
  list["items"].push_back(json::parse(R"({"apiVersion": "v1", "kind": "PodList", "items": [{"metadata": {
      "name": "nvidia-device-plugin-daemonset-7xk2p", "namespace": "gpu-operator"}, "status": {"phase": "Running"}}]})"));
  // As the API serves a DaemonSet mid-rollout (numberUnavailable present, 3 of 10 updated).
  list["items"].push_back(json::parse(R"({"apiVersion": "apps/v1", "kind": "DaemonSet", "metadata": {
      "name": "nvidia-device-plugin-daemonset", "namespace": "gpu-operator", "generation": 4},
      "spec": {"updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1}},
               "template": {"spec": {"containers": [{"name": "nvidia-device-plugin",
                                                     "image": "nvcr.io/nvidia/k8s-device-plugin:v0.17.0"}]}}},
      "status": {"currentNumberScheduled": 10, "desiredNumberScheduled": 10, "numberAvailable": 8,
                 "numberMisscheduled": 0, "numberReady": 8, "numberUnavailable": 2, "observedGeneration": 4,
                 "updatedNumberScheduled": 3}})"));
  test::WriteFile(given, list.dump());
  Collected c = Collect(host, host.root() + "/../rollout.tar.zst", {"--node-object", given});
  for (const char* name : {"k8s.node_pods", "k8s.plugin_daemonset"}) {
    const json* a = Artifact(c.manifest, name);
    REQUIRE_MESSAGE(a, name);
    CHECK((*a)["context"] == "cluster");
  }
  for (const auto& argv : host.LoggedArgv()) CHECK(argv.find(" get pods ") == std::string::npos);
  auto report = test::RunGpuforensics({"analyze", host.root() + "/../rollout.tar.zst"});
  CHECK(report.out.find("  The device plugin's DaemonSet gpu-operator/nvidia-device-plugin-daemonset: a rollout under "
                        "way, 3 of 10 pods updated, 2 unavailable\n") != std::string::npos);
  auto rows = test::RunGpuforensics({"sql", host.root() + "/../rollout.tar.zst",
                                     "SELECT images, update_strategy, generation FROM daemonset_rollouts"});
  CHECK(rows.out == "images\tupdate_strategy\tgeneration\nnvcr.io/nvidia/k8s-device-plugin:v0.17.0\tRollingUpdate\t4\n");
}

TEST_CASE("collect: a --node-object that is not one named Node, or not the --node, is refused before any probe") {
  FakeHost host;
  test::BuildFakeNode(host);
  const std::string list = host.root() + "/../list.json";
  test::WriteFile(list, R"({"kind":"NodeList","items":[]})");
  const std::string out = host.root() + "/../refused.tar.zst";
  auto run = test::RunGpuforensics({"collect", "--root", host.root(), "-o", out, "--node-object", list},
                                   {host.PathEnv(), "KUBECONFIG="});
  CHECK(run.exit_code == 64);
  CHECK(run.err == "gpuforensics collect: --node-object " + list +
                       " holds a 'NodeList', not a Node (kubectl get node NAME -o json)\n");
  const std::string node = host.root() + "/../node.json";
  test::WriteFile(node, kGivenNode);
  run = test::RunGpuforensics({"collect", "--root", host.root(), "-o", out, "--node-object", node, "--node", "gpu-b"},
                              {host.PathEnv(), "KUBECONFIG="});
  CHECK(run.exit_code == 64);
  CHECK(run.err == "gpuforensics collect: --node 'gpu-b' but --node-object is Node 'gke-gpu-pool-k8x2'\n");
  CHECK(!std::filesystem::exists(out));
  CHECK(host.LoggedArgv().empty());
  // Another node's Node: this node's kubelet names itself otherwise (its mirror pods).
  run = test::RunGpuforensics({"collect", "--root", host.root(), "-o", out, "--node-object", node},
                              {host.PathEnv(), "KUBECONFIG="});
  CHECK(run.exit_code == 64);
  CHECK(run.err.find("gpuforensics collect: --node-object is Node 'gke-gpu-pool-k8x2', but this node's kubelet calls "
                     "itself 'gpu-node-7'") == 0);
  CHECK(!std::filesystem::exists(out));
}

TEST_CASE("collect: a Node the API does not know is a wrong name, not missing access") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddStub("kubectl", KubectlKnowing("cn-hangzhou.10.42.7.19"));
  Collected c = Collect(host, host.root() + "/../notfound.tar.zst");
  CHECK(c.manifest["host"]["node_name"] == "gpu-node-7");
  CHECK(c.manifest["host"]["node_name_source"] == "mirror_pod");
  CHECK(c.manifest["host"]["node_found"] == false);
  CHECK(c.process.err.find("Node capacity/allocatable:            unknown (the API has no Node named 'gpu-node-7' "
                           "(a wrong node name, not missing access; pass --node))\n") != std::string::npos);
  auto report = test::RunGpuforensics({"analyze", host.root() + "/../notfound.tar.zst"});
  CHECK(report.out.find("Node capacity/allocatable            unknown  the Node object was not captured (the API has "
                        "no Node of that name: a wrong node name, not missing API access)") != std::string::npos);
}

TEST_CASE("collect: without a Node name the API is not asked at all") {
  FakeHost host;
  test::BuildFakeNode(host);
  std::filesystem::remove(host.root() + "/etc/hostname");
  std::filesystem::remove(host.root() + "/etc/kubernetes/manifests/nvidia-device-plugin.yml");
  Collected c = Collect(host, host.root() + "/../nameless.tar.zst");
  CHECK(c.manifest["host"]["node_name"] == "");
  CHECK(c.manifest["host"]["node_name_source"].is_null());
  const json* node = Artifact(c.manifest, "k8s.node");
  REQUIRE(node);
  CHECK((*node)["status"] == "skipped");
  CHECK((*node)["error"] == "no node name: --node, $NODE_NAME, the kubelet's flags and config, mirror pods, its "
                            "journal and the hostname gave none");
  for (const auto& argv : host.LoggedArgv()) CHECK_MESSAGE(argv.rfind("kubectl", 0) != 0, argv);
  CHECK(c.process.err.find("  Node:                                 none found (pass --node): the API was not asked\n") !=
        std::string::npos);
  auto report = test::RunGpuforensics({"analyze", host.root() + "/../nameless.tar.zst"});
  CHECK(report.out.find("the Node object was not captured (no node name: --node, $NODE_NAME,") != std::string::npos);
}

TEST_CASE("collect: OpenShift's kubelet.conf is a KubeletConfiguration and never goes to kubectl") {
  FakeHost host;
  test::BuildFakeNode(host);
  host.AddFile("/etc/os-release", "NAME=\"Red Hat Enterprise Linux CoreOS\"\nID=\"rhcos\"\nOPENSHIFT_VERSION=\"4.16\"\n");
  host.AddFile("/etc/kubernetes/kubelet.conf", "kind: KubeletConfiguration\napiVersion: kubelet.config.k8s.io/v1beta1\n");
  host.AddFile("/var/lib/kubelet/kubeconfig", "apiVersion: v1\nclusters:\n");
  Collected c = Collect(host, host.root() + "/../openshift.tar.zst");
  CHECK(c.manifest["host"]["platform"] == "openshift");
  CHECK(c.manifest["host"]["platform_evidence"].get<std::string>().find("/etc/os-release") == 0);
  CHECK(c.manifest["host"]["kubeconfig"] == "/var/lib/kubelet/kubeconfig");
  CHECK(c.manifest["host"]["kubeconfig_source"] == "platform");
  const json* node = Artifact(c.manifest, "k8s.node");
  REQUIRE(node);
  CHECK((*node)["argv"][2] == host.root() + "/var/lib/kubelet/kubeconfig");
}

}  // TEST_SUITE

}  // namespace gpuf
