#include "collector/watch_check.h"

#include <doctest/doctest.h>
#include <re2/re2.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <filesystem>

#include "common/bundle_layout.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

// A unix socket file with the given mtime (seconds), as kubelet and the plugin leave them.
void MakeSocket(const std::string& path, int64_t mtime_s) {
  std::filesystem::create_directories(std::filesystem::path(path).parent_path());
  int fd = socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path.c_str());
  REQUIRE(bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0);
  close(fd);
  timespec times[2] = {{mtime_s, 0}, {mtime_s, 0}};
  utimensat(AT_FDCWD, path.c_str(), times, AT_SYMLINK_NOFOLLOW);
}

void AddGpuNode(test::FakeHost& host, int gpus) {
  for (int i = 0; i < gpus; ++i) {
    std::string pci = "/sys/bus/pci/devices/0000:1" + std::to_string(i) + ":00.0";
    host.AddFile(pci + "/vendor", "0x10de\n");
    host.AddFile(pci + "/class", "0x030200\n");
    host.AddFile("/proc/driver/nvidia/gpus/0000:1" + std::to_string(i) + ":00.0/information", "Model: x\n");
  }
  host.AddFile("/proc/driver/nvidia/version",
               "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.133.20  Fri Mar 14 01:32:45 UTC 2025\n");
  host.AddFile("/proc/sys/kernel/random/boot_id", "9c1d4e2a-5b6f-4a3b-8c7d-0e1f2a3b4c5d\n");
}

const std::string kLog = "/var/log/pods/kube-system_nvidia-device-plugin-x_uid/nvidia-device-plugin-ctr/0.log";

ChainCheck Check(test::FakeHost& host) {
  auto root = HostRoot::Open(host.root());
  REQUIRE(root.ok());
  re2::RE2::Options options;
  options.set_case_sensitive(false);
  re2::RE2 pattern(std::string(kDefaultPluginPattern), options);
  return CheckChain(*root, pattern);
}

}  // namespace

TEST_SUITE("watch_check") {

TEST_CASE("CheckChain: a registered plugin whose socket is newer than kubelet.sock is healthy") {
  test::FakeHost host;
  AddGpuNode(host, 2);
  MakeSocket(host.root() + "/var/lib/kubelet/device-plugins/kubelet.sock", 1000);
  MakeSocket(host.root() + "/var/lib/kubelet/device-plugins/nvidia-gpu.sock", 1010);
  host.AddFile(kLog, "2025-11-18T03:20:17.3Z stderr F I1118 03:20:17.306000 1 server.go:146] Registered device "
                     "plugin for 'nvidia.com/gpu' with Kubelet\n");
  ChainCheck check = Check(host);
  CHECK(check.pci_gpus == 2);
  CHECK(check.driver_gpus == 2);
  CHECK(check.registered == true);
  CHECK(check.healthy());
}

TEST_CASE("CheckChain: the seed incident's signs") {
  test::FakeHost host;
  AddGpuNode(host, 2);
  MakeSocket(host.root() + "/var/lib/kubelet/device-plugins/kubelet.sock", 1000);
  host.AddFile(kLog, "2025-11-18T03:18:17.1Z stderr F 2025/11/18 03:18:17 Loading NVML\n"
                     "2025-11-18T03:18:17.2Z stderr F 2025/11/18 03:18:17 Failed to initialize NVML: nvml: "
                     "Unknown Error.\n"
                     "2025-11-18T03:18:17.3Z stderr F 2025/11/18 03:18:17 No devices found. Waiting indefinitely.\n");
  ChainCheck check = Check(host);
  CHECK(check.problems ==
        std::vector<std::string>{"plugin_nvml_init_failed", "plugin_socket_missing", "plugin_not_registered"});
  CHECK(check.registered == false);
  CHECK(check.IncidentKey() == "9c1d4e2a-5b6f-4a3b-8c7d-0e1f2a3b4c5d|plugin_nvml_init_failed|plugin_socket_missing|"
                               "plugin_not_registered|kubelet.sock@1000000000000");
}

TEST_CASE("CheckChain: kubelet restarted after the plugin last registered") {
  test::FakeHost host;
  AddGpuNode(host, 1);
  // Registered at 03:20:17 UTC; kubelet restarted at 04:00:00 and the plugin did not serve again.
  MakeSocket(host.root() + "/var/lib/kubelet/device-plugins/nvidia-gpu.sock", 1763436017);
  MakeSocket(host.root() + "/var/lib/kubelet/device-plugins/kubelet.sock", 1763438400);
  host.AddFile(kLog, "2025-11-18T03:20:17.306Z stderr F I1118 03:20:17.306000 1 server.go:146] Registered device "
                     "plugin for 'nvidia.com/gpu' with Kubelet\n"
                     "2025-11-18T04:00:00.001Z stderr F I1118 04:00:00.001000 1 main.go:246] inotify: "
                     "/var/lib/kubelet/device-plugins/kubelet.sock created, restarting.\n");
  ChainCheck check = Check(host);
  CHECK(check.problems ==
        std::vector<std::string>{"plugin_socket_older_than_kubelet_sock", "plugin_not_registered"});
}

TEST_CASE("CheckChain: GKE's plugin registers in its own words, and a kubelet restart undoes it") {
  // GoogleCloudPlatform/container-engine-accelerators pkg/gpu/nvidia/manager.go; its plugin socket is
  // nvidiaGPU-<unix time>.sock, its logs under the nvidia-gpu-device-plugin pod.
  test::FakeHost host;
  AddGpuNode(host, 2);
  MakeSocket(host.root() + "/var/lib/kubelet/device-plugins/kubelet.sock", 1000);
  MakeSocket(host.root() + "/var/lib/kubelet/device-plugins/nvidiaGPU-1794994857.sock", 1010);
  const std::string log =
      "/var/log/pods/kube-system_nvidia-gpu-device-plugin-small-cos-b4c64_uid/nvidia-gpu-device-plugin/0.log";
  host.AddFile(log, "2026-11-18T09:40:57.461766547Z stderr F I1118 09:40:57.461766       1 manager.go:447] "
                    "registered with kubelet, will use beta API\n"
                    "2026-11-18T09:40:58.465566164Z stderr F I1118 09:40:58.465566       1 manager.go:501] "
                    "device-plugin registered with the kubelet\n");
  ChainCheck check = Check(host);
  CHECK(check.registered == true);
  CHECK(check.healthy());

  host.AddFile(log, "2026-11-18T09:40:57.461766547Z stderr F I1118 09:40:57.461766       1 manager.go:447] "
                    "registered with kubelet, will use beta API\n");
  CHECK(Check(host).registered == false);
}

TEST_CASE("CheckChain: a node without NVIDIA GPUs has nothing to break") {
  test::FakeHost host;
  host.AddFile("/sys/bus/pci/devices/0000:00:00.0/vendor", "0x8086\n");
  host.AddFile("/sys/bus/pci/devices/0000:00:00.0/class", "0x060000\n");
  CHECK(Check(host).healthy());
}

TEST_CASE("CheckAllocatable: below the GPUs is a problem, MIG resources in its place are not") {
  // As CheckChain leaves a node with 8 GPUs and a serving plugin.
  auto checked = [] {
    ChainCheck c;
    c.pci_gpus = c.driver_gpus = 8;
    c.facts.pci_gpus = 8;
    c.plugin_sock_mtime_ns = 1;
    return c;
  };
  ChainCheck check = checked();
  CheckAllocatable(check, R"({"status":{"allocatable":{"nvidia.com/gpu":"0"}}})");
  CHECK(check.problems == std::vector<std::string>{"allocatable_below_gpus"});
  CHECK(check.allocatable == "0");
  ChainCheck mig = checked();
  CheckAllocatable(mig, R"({"status":{"allocatable":{"nvidia.com/gpu":"0","nvidia.com/mig-1g.10gb":"56"}}})");
  CHECK(mig.healthy());
}

}  // TEST_SUITE

}  // namespace gpuf
