// analyze on bundles the collector wrote from fake nodes: what the engine
// decides from a node's real-format captures, end to end (collect ->
// bundle -> loader -> rules -> report).
#include <doctest/doctest.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/fake_journal.h"
#include "tests/fake_node.h"
#include "tests/report_json.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

using nlohmann::json;
using test::FindingOf;
using test::FakeHost;

constexpr char kGpu0[] = "GPU-5b3c8a8e-0d1f-4a43-9a8e-2b1d3c4e5f60";  // 0000:18:00.0, as the fake node's nvidia-smi
constexpr char kGpu1[] = "GPU-7d2e9f10-3a4b-4c5d-8e9f-0a1b2c3d4e5f";  // 0000:2a:00.0

// The driver's information files as a real driver writes them, UUIDs included.
void AddDriverInformation(FakeHost& host) {
  int minor = 0;
  for (auto [bus, uuid] : {std::pair{"0000:18:00.0", kGpu0}, std::pair{"0000:2a:00.0", kGpu1}}) {
    host.AddFile(std::string("/proc/driver/nvidia/gpus/") + bus + "/information",
                 std::string("Model: \t\t NVIDIA H800\nIRQ:   \t\t 0\nGPU UUID: \t ") + uuid +
                     "\nBus Type: \t PCIe\nBus Location: \t " + bus + "\nDevice Minor: \t " +
                     std::to_string(minor++) + "\nGPU Excluded:\t No\n");
  }
}

// collect on `host`, then analyze --format json of the bundle.
json CollectAndAnalyze(FakeHost& host, const std::string& name) {
  const std::string out = host.root() + "/../" + name + ".tar.zst";
  auto collect = test::RunGpuforensics({"collect", "--root", host.root(), "-o", out, "--timeout", "2"},
                                       {host.PathEnv(), "KUBECONFIG="});
  REQUIRE_MESSAGE(collect.exit_code == 0, collect.err);
  auto analyze = test::RunGpuforensics({"analyze", out, "--format", "json"});
  REQUIRE_MESSAGE((analyze.exit_code == 0 || analyze.exit_code == 1), analyze.err);
  return json::parse(analyze.out);
}

// The fake node whose previous boot's kernel named the GPU at `bus` and
// reported its Xid 79; the boot at capture loaded the driver. Collected
// and analyzed.
json AnalyzeEarlierXid79(FakeHost& host, const std::string& bus, const std::string& uuid, const std::string& name) {
  test::BuildFakeNode(host);
  AddDriverInformation(host);
  const test::FakeBoot before = test::PreviousBoot(), now = test::CurrentBoot();
  REQUIRE(test::WriteJournal(host,
      test::KernelEntry(before, 12, "NVRM: GPU at PCI:" + bus + ": " + uuid) +
      test::KernelEntry(before, 3600, "NVRM: Xid (PCI:" + bus + "): 79, pid='<unknown>', name=<unknown>, "
                                      "GPU has fallen off the bus.") +
      test::KernelEntry(now, 12, "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.161.08  Tue Mar  5 2024")));
  return CollectAndAnalyze(host, name);
}

// The fake node without its GPUs: no NVIDIA function on the PCI bus, no
// driver, no device nodes, no nvidia-smi; the plugin DaemonSet still runs
// there and logs what v0.14 and later log on such a node.
void MakeCpuNode(FakeHost& host) {
  namespace fs = std::filesystem;
  const std::string r = host.root();
  fs::remove_all(r + "/proc/driver/nvidia");
  for (const char* pci : {"0000:18:00.0", "0000:2a:00.0"}) fs::remove_all(r + "/sys/bus/pci/devices/" + pci);
  for (const char* node : {"nvidia0", "nvidia1", "nvidiactl", "nvidia-uvm"}) fs::remove(r + "/dev/" + node);
  fs::remove(host.bin() + "/nvidia-smi");
  // No plugin ever registered here, so the Node has no nvidia.com/gpu at all.
  host.AddStubPrinting("kubectl", "{\"kind\":\"Node\",\"metadata\":{\"name\":\"gpu-node-7\"},\"status\":{"
                                  "\"capacity\":{\"cpu\":\"96\"},\"allocatable\":{\"cpu\":\"95\"}}}\n");
  const std::string log =
      "/var/log/pods/kube-system_nvidia-device-plugin-gpu-node-7_0c6d4f1e-2b3a-4c5d-9e8f-7a6b5c4d3e2f/"
      "nvidia-device-plugin-ctr/0.log";
  std::string lines;
  int n = 0;
  for (const char* line :
       {"I1118 03:19:57.100000       1 main.go:279] Retrieving plugins.",
        "I1118 03:19:57.100100       1 factory.go:104] Detected non-NVML platform: could not load NVML library: "
        "libnvidia-ml.so.1: cannot open shared object file: No such file or directory",
        "I1118 03:19:57.100200       1 factory.go:104] Detected non-Tegra platform: /sys/devices/soc0/family file "
        "not found",
        "E1118 03:19:57.100300       1 factory.go:112] Incompatible platform detected",
        "E1118 03:19:57.100400       1 factory.go:113] If this is a GPU node, did you configure the NVIDIA "
        "Container Toolkit?",
        "E1118 03:19:57.100500       1 factory.go:116] If this is not a GPU node, you should set up a toleration "
        "or nodeSelector to only deploy this plugin on GPU nodes",
        "I1118 03:19:57.100600       1 main.go:308] No devices found. Waiting indefinitely."}) {
    lines += "2026-11-18T03:19:57.1" + std::to_string(n++) + "0000000Z stderr F " + std::string(line) + "\n";
  }
  host.AddFile(log, lines);
}

// The fake node made healthy under the MIG mixed strategy: GPU 0 whole,
// GPU 1 in MIG mode with two 3g.20gb devices; the plugin serves both
// resources and the Node counts one nvidia.com/gpu and two MIG devices.
void MakeHealthyMigMixedNode(FakeHost& host) {
  const std::string list =
      std::string("GPU 0: NVIDIA A100-SXM4-40GB (UUID: ") + kGpu0 + ")\n" +
      "GPU 1: NVIDIA A100-SXM4-40GB (UUID: " + kGpu1 + ")\n" +
      "  MIG 3g.20gb     Device  0: (UUID: MIG-0d5c9e1a-6f7b-5c8d-9e0f-1a2b3c4d5e6f)\n"
      "  MIG 3g.20gb     Device  1: (UUID: MIG-1e6d0f2b-7a8c-5d9e-0f1a-2b3c4d5e6f70)\n";
  test::WriteFile(host.bin() + "/nvidia-smi-L.txt", list);
  host.AddStub("nvidia-smi", "case \"$*\" in\n"
                             "  '-L') cat '" + host.bin() + "/nvidia-smi-L.txt' ;;\n"
                             "  *) echo 'Invalid combination of input arguments.'; exit 2 ;;\n"
                             "esac");
  host.AddStub("crictl", "case \"$*\" in\n"
                         "  'ps -a -o json') cat '" + host.bin() + "/crictl-ps.json' ;;\n"
                         "  'pods -o json') echo '{\"items\": []}' ;;\n"
                         "  'info -o json') echo '{\"config\": {\"containerd\": {\"defaultRuntimeName\": \"nvidia\"}}}' ;;\n"
                         "  'inspect -o json " + std::string(test::kPluginId) + "') cat '" + host.bin() +
                         "/crictl-inspect.json' ;;\n"
                         "  'exec " + test::kPluginId + " nvidia-smi -L') cat '" + host.bin() + "/nvidia-smi-L.txt' ;;\n"
                         "  '--version') echo 'crictl version v1.31.1' ;;\n"
                         "  *) exit 1 ;;\n"
                         "esac");
  host.AddFile(std::string("/sys/fs/cgroup/devices/kubepods.slice/kubepods-besteffort.slice/"
                           "kubepods-besteffort-pod0c6d4f1e_2b3a_4c5d_9e8f_7a6b5c4d3e2f.slice/cri-containerd-") +
                   test::kPluginId + ".scope/devices.list",
               "c 1:3 rwm\nc 195:* rwm\nc 508:* rwm\nc 511:* rwm\nb *:* m\n");
  std::string lines;
  int n = 0;
  for (const char* line :
       {"I1118 03:18:18.000000       1 main.go:256] Retrieving plugins.",
        "I1118 03:18:18.100000       1 server.go:216] Starting GRPC server for 'nvidia.com/gpu'",
        "I1118 03:18:18.200000       1 server.go:147] Starting to serve 'nvidia.com/gpu' on "
        "/var/lib/kubelet/device-plugins/nvidia-gpu.sock",
        "I1118 03:18:18.300000       1 server.go:154] Registered device plugin for 'nvidia.com/gpu' with Kubelet",
        "I1118 03:18:18.400000       1 server.go:216] Starting GRPC server for 'nvidia.com/mig-3g.20gb'",
        "I1118 03:18:18.500000       1 server.go:147] Starting to serve 'nvidia.com/mig-3g.20gb' on "
        "/var/lib/kubelet/device-plugins/nvidia-mig-3g.20gb.sock",
        "I1118 03:18:18.600000       1 server.go:154] Registered device plugin for 'nvidia.com/mig-3g.20gb' with "
        "Kubelet"}) {
    lines += "2025-11-18T11:18:18." + std::to_string(n++) + "00000000+08:00 stderr F " + std::string(line) + "\n";
  }
  host.AddFile("/var/log/pods/kube-system_nvidia-device-plugin-gpu-node-7_0c6d4f1e-2b3a-4c5d-9e8f-7a6b5c4d3e2f/"
               "nvidia-device-plugin-ctr/0.log",
               lines);
  host.AddStubPrinting("kubectl",
                       "{\"kind\":\"Node\",\"metadata\":{\"name\":\"gpu-node-7\"},\"status\":{\"capacity\":"
                       "{\"cpu\":\"96\",\"nvidia.com/gpu\":\"1\",\"nvidia.com/mig-3g.20gb\":\"2\"},\"allocatable\":"
                       "{\"cpu\":\"95\",\"nvidia.com/gpu\":\"1\",\"nvidia.com/mig-3g.20gb\":\"2\"}}}\n");
}

// The fake node with its device plugin as a host unit (and no plugin
// pod), whose kubelet restarted an hour after boot: the journal holds the
// kubelet's and the plugin's lines, and kubelet.sock was recreated then.
// `reregistered`: the plugin saw the new socket and registered again;
// `unit_restart_logged`: the journal holds the kubelet unit's second start
// (else only the socket's mtime shows the restart).
void MakeKubeletRestartNode(FakeHost& host, bool reregistered, bool unit_restart_logged) {
  namespace fs = std::filesystem;
  fs::remove(host.root() + "/etc/kubernetes/manifests/nvidia-device-plugin.yml");
  fs::remove_all(host.root() + "/var/log/pods");
  test::WriteFile(host.bin() + "/crictl-ps.json", "{\"containers\": []}\n");
  host.AddFile("/usr/lib/systemd/system/nvidia-k8s-device-plugin.service",
               "[Service]\nExecStart=/usr/bin/nvidia-device-plugin\n");
  const test::FakeBoot boot = test::CurrentBoot();
  auto at = [&](double seconds) { return boot.start_us + static_cast<int64_t>(seconds * 1e6); };
  auto systemd = [&](double seconds, const std::string& unit, const std::string& message) {
    return test::ExportEntry(at(seconds), "SYSLOG_IDENTIFIER=systemd\n_PID=1\n_TRANSPORT=journal\n"
                                          "_SYSTEMD_UNIT=init.scope\nUNIT=" + unit + "\n", message);
  };
  auto kubelet = [&](double seconds, const std::string& message) {
    return test::ExportEntry(at(seconds), "SYSLOG_IDENTIFIER=kubelet\n_PID=1333\n_TRANSPORT=stdout\n"
                                          "_SYSTEMD_UNIT=kubelet.service\n", message);
  };
  auto plugin = [&](double seconds, const std::string& message) {
    return test::ExportEntry(at(seconds), "SYSLOG_IDENTIFIER=nvidia-device-plugin\n_PID=1667\n_TRANSPORT=stdout\n"
                                          "_SYSTEMD_UNIT=nvidia-k8s-device-plugin.service\n", message);
  };
  const std::string registered = "I1118 03:20:00.000000    1667 server.go:154] Registered device plugin for "
                                 "'nvidia.com/gpu' with Kubelet";
  const std::string request = "I1118 03:20:00.000000    1333 server.go:144] \"Got registration request from device "
                              "plugin with resource\" resourceName=\"nvidia.com/gpu\"";
  std::string journal =
      systemd(30, "kubelet.service", "Started kubelet.service - kubelet: The Kubernetes Node Agent.") +
      systemd(40, "nvidia-k8s-device-plugin.service",
              "Started nvidia-k8s-device-plugin.service - NVIDIA k8s device plugin.") +
      kubelet(41, request) + plugin(41.001, registered);
  if (unit_restart_logged) {
    journal += systemd(3600, "kubelet.service", "Started kubelet.service - kubelet: The Kubernetes Node Agent.");
  }
  if (reregistered) {
    journal += plugin(3600.9, "I1118 04:19:20.900000    1667 main.go:246] inotify: "
                              "/var/lib/kubelet/device-plugins/kubelet.sock created, restarting.") +
               kubelet(3601.5, request) + plugin(3601.501, registered);
  }
  REQUIRE(test::WriteJournal(host, journal));
  const std::string sock = host.root() + "/var/lib/kubelet/device-plugins/kubelet.sock";
  host.AddFile("/var/lib/kubelet/device-plugins/kubelet.sock", "");
  const int64_t mtime_us = at(3600.7);
  const timespec times[2] = {{mtime_us / 1000000, (mtime_us % 1000000) * 1000},
                             {mtime_us / 1000000, (mtime_us % 1000000) * 1000}};
  REQUIRE(utimensat(AT_FDCWD, sock.c_str(), times, 0) == 0);
}

}  // namespace

TEST_SUITE("analyze_fakehost") {
TEST_CASE("analyze: an earlier boot's Xid 79 on a GPU NVML lists again is history, undone by its return") {
  if (!test::JournalWritable()) return;
  FakeHost host;
  json report = AnalyzeEarlierXid79(host, "0000:2a:00", kGpu1, "xid79-back");
  const json* xid = FindingOf(report, "xid-79-fallen-off-bus");
  REQUIRE_MESSAGE(xid, report["findings"].dump());
  CHECK((*xid)["tense"] == "history");
  CHECK((*xid)["tense_reason"] ==
        "undone before capture: the host's NVML lists the GPU at capture (0000:2a:00.0 gpu-7d2e9f10-3a4b-4c5d-8e9f-0a1b2c3d4e5f)");
}

TEST_CASE("analyze: an earlier boot's Xid 79 on a GPU the PCI bus no longer shows is current, the GPU still gone") {
  if (!test::JournalWritable()) return;
  FakeHost host;
  json report = AnalyzeEarlierXid79(host, "0000:3b:00", "GPU-3b3b3b3b-0d1f-4a43-9a8e-2b1d3c4e5f60", "xid79-gone");
  const json* xid = FindingOf(report, "xid-79-fallen-off-bus");
  REQUIRE_MESSAGE(xid, report["findings"].dump());
  CHECK((*xid)["tense"] == "current");
  CHECK((*xid)["confidence"] == "confirmed");
  CHECK(report.dump().find("GPU 0000:3b:00.0 is not on the PCI bus") != std::string::npos);
}

TEST_CASE("analyze: a CPU node that runs the plugin DaemonSet has no GPU fault, only a plugin scheduled where it has nothing to do") {
  FakeHost host;
  test::BuildFakeNode(host);
  MakeCpuNode(host);
  json report = CollectAndAnalyze(host, "cpu-node");
  for (const auto& f : report["findings"]) {
    CHECK_MESSAGE(f["id"] == "plugin-on-node-without-gpus", f.dump());
  }
  const json* here = FindingOf(report, "plugin-on-node-without-gpus");
  REQUIRE_MESSAGE(here, report["findings"].dump());
  CHECK((*here)["confidence"] == "confirmed");
  CHECK((*here)["severity"] == "low");
  for (const auto& step : report["chain"]) CHECK(step["status"] == "not_applicable");
}

TEST_CASE("analyze: a healthy node under the MIG mixed strategy has its whole GPUs and MIG devices counted") {
  FakeHost host;
  test::BuildFakeNode(host);
  AddDriverInformation(host);
  MakeHealthyMigMixedNode(host);
  json report = CollectAndAnalyze(host, "mig-mixed");
  const json& step9 = report["chain"][8];
  CHECK_MESSAGE(step9["status"] == "ok", step9.dump());
  CHECK(step9["detail"] == "nvidia.com/gpu capacity 1, allocatable 1; MIG resources present (nvidia.com/mig-*); "
                           "1 GPUs in MIG mode count as nvidia.com/mig-*");
  for (const auto& step : report["chain"]) CHECK_MESSAGE(step["status"] != "failed", step.dump());
  for (const auto& f : report["findings"]) {
    CHECK_MESSAGE((f["severity"] == "low" || f["severity"] == "info"), f.dump());
  }
}

TEST_CASE("analyze: a plugin that registered again after the kubelet restarted is not the restart race") {
  if (!test::JournalWritable()) return;
  FakeHost host;
  test::BuildFakeNode(host);
  MakeKubeletRestartNode(host, true, true);
  json report = CollectAndAnalyze(host, "reregistered");
  for (const char* rule : {"kubelet-restart-capacity-zero", "dp-kubelet-sock-restart-race"}) {
    const json* f = FindingOf(report, rule);
    CHECK_MESSAGE((f == nullptr || (*f)["tense"] == "history"), (f ? f->dump() : std::string(rule)));
  }
  CHECK_MESSAGE(report["chain"][7]["status"] == "ok", report["chain"][7].dump());
}

TEST_CASE("analyze: a host-unit plugin whose registration predates the recreated kubelet.sock is the restart race") {
  if (!test::JournalWritable()) return;
  for (bool unit_restart_logged : {true, false}) {
    CAPTURE(unit_restart_logged);
    FakeHost node;
    test::BuildFakeNode(node);
    MakeKubeletRestartNode(node, false, unit_restart_logged);
    json report = CollectAndAnalyze(node, "stale-registration");
    const json* f = FindingOf(report, "kubelet-restart-capacity-zero");
    REQUIRE_MESSAGE(f, report["findings"].dump());
    CHECK((*f)["tense"] == "current");
    CHECK((*f)["confidence"] == "confirmed");
    CHECK(report["chain"][7]["status"] == "failed");
  }
}
}

}  // namespace gpuf
