#include "chain/chain_steps.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

// A healthy two-GPU node as every reader could see it.
ChainFacts Healthy() {
  ChainFacts f;
  f.pci_gpus = 2;
  f.driver = ChainFacts::Driver{true, "570.133.20", 2};
  f.device_nodes = ChainFacts::DeviceNodes{2, true};
  f.host_nvml = ChainFacts::HostNvml{true, "", "ok", "", 2};
  f.plugin_container = ChainFacts::PluginContainer{"CONTAINER_RUNNING", "3f9a2c1d8e7b6"};
  f.container_view = ChainFacts::ContainerView{"ok", "", 2};
  f.kubelet_sock = true;
  f.kubelet_starts = 1;
  f.kubelet_restarted_ns = 1000;
  f.plugin = ChainFacts::Plugin{true, std::nullopt, 2, 2000};
  f.node = ChainFacts::Node{"2", "2", false};
  return f;
}

std::string Statuses(const std::vector<ChainStep>& steps) {
  std::string out;
  for (const auto& s : steps) out += std::string(out.empty() ? "" : " ") + StepStatusName(s.status);
  return out;
}

}  // namespace

TEST_SUITE("chain_steps") {

TEST_CASE("JudgeChain: a healthy node is ok to the Node, metrics are outside it") {
  auto steps = JudgeChain(Healthy());
  CHECK(Statuses(steps) == "ok ok ok ok ok ok ok ok ok unknown");
  CHECK(steps[0].detail == "2 NVIDIA GPU functions on the PCI bus");
  CHECK(steps[1].detail == "module 570.133.20, 2 GPUs in /proc/driver/nvidia/gpus");
  CHECK(steps[4].detail == "plugin container 3f9a2c1d8e7b6 CONTAINER_RUNNING; default runtime not captured; "
                           "nvidia-smi in the container lists 2 GPUs");
  CHECK(steps[8].detail == "nvidia.com/gpu capacity 2, allocatable 2");
  CHECK(steps[9].missing == "outside the node: check kube_node_status_allocatable and the alert rule separately");
}

TEST_CASE("JudgeChain: what a reader did not see is unknown, with what is missing") {
  auto steps = JudgeChain(ChainFacts{});
  CHECK(Statuses(steps) == "unknown unknown unknown unknown unknown unknown unknown unknown unknown unknown");
  CHECK(steps[0].missing == "the NVIDIA PCI functions were not captured");
  CHECK(steps[3].missing == "host nvidia-smi -L did not run");
  CHECK(steps[7].missing == "no device-plugin log of the boot at capture");
}

TEST_CASE("JudgeChain: a registration older than kubelet's last start does not count") {
  ChainFacts f = Healthy();
  f.kubelet_restarted_ns = 3000;
  auto steps = JudgeChain(f);
  CHECK(steps[7].status == StepStatus::kFailed);
  CHECK(steps[7].detail == "registered, but kubelet (re)started after the last registration");
  f.plugin.registered_ns.reset();
  CHECK(JudgeChain(f)[7].detail == "no registration since the plugin started");
}

TEST_CASE("JudgeChain: the plugin's NVML failure, a module not loaded, fewer GPUs allocatable") {
  ChainFacts f = Healthy();
  f.plugin = ChainFacts::Plugin{true, "Failed to initialize NVML: ERROR_UNKNOWN", 0, std::nullopt};
  f.driver = ChainFacts::Driver{false, "", 0};
  f.node->gpu_allocatable = "1";
  auto steps = JudgeChain(f);
  CHECK(Statuses(steps) == "ok failed ok ok ok ok failed failed failed unknown");
  CHECK(steps[1].detail == "no /proc/driver/nvidia/version: the NVIDIA module is not loaded");
  CHECK(steps[6].detail == "Failed to initialize NVML: ERROR_UNKNOWN");
}

}  // TEST_SUITE

}  // namespace gpuf
