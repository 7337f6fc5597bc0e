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
  f.plugin = ChainFacts::Plugin{true, std::nullopt, 2, 2000, ""};
  f.node = ChainFacts::Node{"2", "2", false, false};
  return f;
}

std::string Statuses(const std::vector<ChainStep>& steps) {
  std::string out;
  for (const auto& s : steps) out += std::string(out.empty() ? "" : " ") + Word(s.status);
  return out;
}

}  // namespace

TEST_SUITE("chain_steps") {

TEST_CASE("JudgeChain: a hung nvidia-smi is said to have timed out, not 'other'") {
  ChainFacts f = Healthy();
  const std::string hang = "nvidia-smi did not finish in 10.0 s and was stopped (a hung driver or GPU)";
  f.host_nvml = ChainFacts::HostNvml{true, "", "timed_out", hang, 0};
  f.container_view = ChainFacts::ContainerView{"timed_out", hang, 0};
  auto steps = JudgeChain(f);
  CHECK(steps[3].status == StepStatus::kFailed);
  CHECK(steps[3].detail == "0 GPUs listed; " + hang);
  CHECK(steps[4].status == StepStatus::kFailed);
  CHECK(steps[4].detail == "plugin container 3f9a2c1d8e7b6 CONTAINER_RUNNING; default runtime not captured; "
                           "nvidia-smi in the container: " + hang);
}

TEST_CASE("JudgeChain: a healthy node is ok to the Node, metrics are outside it") {
  auto steps = JudgeChain(Healthy());
  CHECK(Statuses(steps) == "ok ok ok ok ok ok ok ok ok unknown unknown unknown");
  CHECK(steps[0].detail == "2 NVIDIA GPU functions on the PCI bus");
  CHECK(steps[1].detail == "module 570.133.20, 2 GPUs in /proc/driver/nvidia/gpus");
  CHECK(steps[4].detail == "plugin container 3f9a2c1d8e7b6 CONTAINER_RUNNING; default runtime not captured; "
                           "nvidia-smi in the container lists 2 GPUs");
  CHECK(steps[8].detail == "nvidia.com/gpu capacity 2, allocatable 2");
  CHECK(steps[9].missing == "the metrics store's record: collect with kubectl gpuforensics collect --metrics URL (or --metrics-service)");
}

TEST_CASE("JudgeChain: what a reader did not see is unknown, with what is missing") {
  auto steps = JudgeChain(ChainFacts{});
  CHECK(Statuses(steps) == "unknown unknown unknown unknown unknown unknown unknown unknown unknown unknown unknown unknown");
  CHECK(steps[0].missing == "the NVIDIA PCI functions were not captured");
  CHECK(steps[3].missing == "host nvidia-smi -L did not run");
  CHECK(steps[7].missing == "no device-plugin log of the boot at capture");
  CHECK(steps[8].missing == "the Node object was not captured (no kubeconfig or no API access)");
  ChainFacts imported;
  imported.node_missing = "the capture holds no Node object: kubectl get node or describe node was not saved";
  CHECK(JudgeChain(imported)[8].missing ==
        "the Node object was not captured (the capture holds no Node object: kubectl get node or describe node was "
        "not saved)");
}

TEST_CASE("JudgeChain: a plugin that runs as a host unit has no container step") {
  ChainFacts f = Healthy();
  f.plugin_container.reset();
  f.container_view.reset();
  CHECK(JudgeChain(f)[4].missing == "no device-plugin container found in the runtime's state");
  f.plugin.host_unit = "nvidia-k8s-device-plugin.service";
  auto steps = JudgeChain(f);
  CHECK(Statuses(steps) == "ok ok ok ok not_applicable ok ok ok ok unknown unknown unknown");
  CHECK(steps[4].detail ==
        "the plugin runs on the host as nvidia-k8s-device-plugin.service: no container between it and the GPUs");
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
  f.plugin = ChainFacts::Plugin{true, "Failed to initialize NVML: ERROR_UNKNOWN", 0, std::nullopt, ""};
  f.driver = ChainFacts::Driver{false, "", 0};
  f.node->gpu_allocatable = "1";
  auto steps = JudgeChain(f);
  CHECK(Statuses(steps) == "ok failed ok ok ok ok failed failed failed unknown unknown unknown");
  CHECK(steps[1].detail == "no /proc/driver/nvidia/version: the NVIDIA module is not loaded");
  CHECK(steps[6].detail == "Failed to initialize NVML: ERROR_UNKNOWN");
}

TEST_CASE("JudgeChain: a plugin container that exited on its NVML failure breaks step 7, not the runtime's") {
  ChainFacts f = Healthy();
  f.plugin_container = ChainFacts::PluginContainer{"CONTAINER_EXITED", "52000a7887eed"};
  f.container_view.reset();
  f.plugin = ChainFacts::Plugin{true, "failed to initialize nvml: Unknown Error", 0, std::nullopt, ""};
  f.node = ChainFacts::Node{"0", "0", false, false};
  auto steps = JudgeChain(f);
  CHECK(Statuses(steps) == "ok ok ok ok unknown ok failed failed failed unknown unknown unknown");
  CHECK(steps[4].detail == "plugin container 52000a7887eed CONTAINER_EXITED; default runtime not captured; it exited "
                           "after its NVML init failed");
  CHECK(steps[4].missing ==
        "nvidia-smi cannot run in an exited container: whether the runtime gave it the GPUs is not known");
  // Exited without an NVML failure in its log: nothing but the runtime is seen to fail.
  f.plugin.nvml_failure.reset();
  CHECK(JudgeChain(f)[4].status == StepStatus::kFailed);
}

TEST_CASE("JudgeChain: more allocatable than GPUs is sharing or MIG, fewer is a failure") {
  ChainFacts f = Healthy();
  f.node = ChainFacts::Node{"8", "8", false, false};  // time-slicing, 4 replicas per GPU on 2 GPUs
  auto steps = JudgeChain(f);
  CHECK(steps[8].status == StepStatus::kOk);
  CHECK(steps[8].detail == "nvidia.com/gpu capacity 8, allocatable 8 on 2 GPUs: shared replicas (time-slicing or "
                           "MPS) or MIG devices (single strategy)");
  f.node = ChainFacts::Node{"2", "1", false, false};
  steps = JudgeChain(f);
  CHECK(steps[8].status == StepStatus::kFailed);
  CHECK(steps[8].detail == "nvidia.com/gpu capacity 2, allocatable 1, below the 2 GPUs");
  // renameByDefault: the replicas are nvidia.com/gpu.shared and nvidia.com/gpu is gone.
  f.node = ChainFacts::Node{std::nullopt, std::nullopt, false, true};
  steps = JudgeChain(f);
  CHECK(steps[8].status == StepStatus::kOk);
  CHECK(steps[8].detail == "nvidia.com/gpu is absent from the Node; shared replicas present (nvidia.com/gpu.shared)");
  f.node = ChainFacts::Node{"0", "0", false, false};
  CHECK(JudgeChain(f)[8].status == StepStatus::kFailed);
}

TEST_CASE("JudgeChain: under the MIG mixed strategy nvidia.com/gpu counts the GPUs not in MIG mode") {
  ChainFacts f = Healthy();
  f.host_nvml->mig_gpus = 1;
  f.node = ChainFacts::Node{"1", "1", true, false};  // one whole GPU, the other's slices as nvidia.com/mig-*
  auto steps = JudgeChain(f);
  CHECK(steps[8].status == StepStatus::kOk);
  CHECK(steps[8].detail == "nvidia.com/gpu capacity 1, allocatable 1; MIG resources present (nvidia.com/mig-*); "
                           "1 GPUs in MIG mode count as nvidia.com/mig-*");
  f.node = ChainFacts::Node{"1", "0", true, false};  // the whole GPU lost
  CHECK(JudgeChain(f)[8].status == StepStatus::kFailed);
  f.node = ChainFacts::Node{"1", "1", false, false};  // no MIG resource: the sliced GPU is simply missing
  CHECK(JudgeChain(f)[8].status == StepStatus::kFailed);
  f.host_nvml->mig_gpus = 0;  // MIG resources, but -L showed no MIG device under any GPU
  f.node = ChainFacts::Node{"1", "1", true, false};
  steps = JudgeChain(f);
  CHECK(steps[8].status == StepStatus::kUnknown);
  CHECK(steps[8].missing == "which GPUs are in MIG mode (the host's nvidia-smi -L with its MIG devices)");
}

TEST_CASE("JudgeChain: without the node's own GPU count, allocatable below capacity is GPUs marked unhealthy") {
  ChainFacts f;  // a saved describe node alone
  f.node = ChainFacts::Node{"8", "7", false, false};
  auto steps = JudgeChain(f);
  CHECK(steps[8].status == StepStatus::kFailed);
  CHECK(steps[8].detail ==
        "nvidia.com/gpu capacity 8, allocatable 7: 1 of 8 advertised GPUs are not allocatable (marked unhealthy)");
  f.node = ChainFacts::Node{"8", "8", false, false};
  CHECK(JudgeChain(f)[8].status == StepStatus::kOk);
}

TEST_CASE("NotAGpuNode: a CPU worker has nothing to break, a node whose GPUs left the bus does") {
  ChainFacts cpu;
  cpu.pci_gpus = 0;
  cpu.driver = ChainFacts::Driver{false, "", 0};
  cpu.device_nodes = ChainFacts::DeviceNodes{0, false};
  cpu.node = ChainFacts::Node{std::nullopt, std::nullopt, false, false};
  CHECK(NotAGpuNode(cpu));
  auto steps = JudgeChain(cpu);
  for (const auto& step : steps) CHECK(step.status == StepStatus::kNotApplicable);
  CHECK(Word(steps[0].status) == "not_applicable");

  ChainFacts gone = cpu;
  gone.node = ChainFacts::Node{"8", "0", false, false};  // the Node still counts its GPUs
  CHECK_FALSE(NotAGpuNode(gone));
  CHECK(JudgeChain(gone)[0].status == StepStatus::kFailed);
  gone = cpu;
  gone.node = ChainFacts::Node{"0", "0", false, false};  // a plugin registered here once: it had GPUs
  CHECK_FALSE(NotAGpuNode(gone));
  ChainFacts daemonset = cpu;  // a plugin DaemonSet without a node selector runs there too
  daemonset.plugin_container = ChainFacts::PluginContainer{"CONTAINER_RUNNING", "3f9a2c1d8e7b6"};
  CHECK(NotAGpuNode(daemonset));
  gone = cpu;
  gone.driver = ChainFacts::Driver{true, "570.133.20", 0};
  CHECK_FALSE(NotAGpuNode(gone));
  ChainFacts unread;  // the PCI bus not captured: nothing says it has no GPU
  CHECK_FALSE(NotAGpuNode(unread));
}

}  // TEST_SUITE

TEST_CASE("NodeGpuResources: whole GPUs, MIG slices and shared replicas from the Node's resources") {
  ChainFacts::Node node = NodeGpuResources({{"capacity", "nvidia.com/gpu", "8"},
                                            {"allocatable", "nvidia.com/gpu", "6"},
                                            {"allocatable", "nvidia.com/mig-1g.10gb", "7"},
                                            {"allocatable", "nvidia.com/gpu.shared", "0"}});
  CHECK(node.gpu_capacity == "8");
  CHECK(node.gpu_allocatable == "6");
  CHECK(node.mig_allocatable);
  CHECK_FALSE(node.shared_allocatable);
  CHECK_FALSE(NodeGpuResources({}).gpu_allocatable.has_value());
}

TEST_CASE("StepStatus: Parse reads the words Name writes, and no other") {
  for (StepStatus s : {StepStatus::kOk, StepStatus::kFailed, StepStatus::kUnknown, StepStatus::kNotApplicable}) {
    CHECK(Parse<StepStatus>(Word(s)) == s);
  }
  CHECK_FALSE(Parse<StepStatus>("OK").has_value());
  CHECK_FALSE(Parse<StepStatus>("broken").has_value());
}

}  // namespace gpuf
