#include "chain/chain_steps.h"

#include "chain/cluster_steps.h"
#include "common/artifacts.h"
#include "common/parse_int.h"

namespace gpuf {

namespace {

using Facts = ChainFacts;

std::string Evidence(std::initializer_list<std::string_view> names) {
  std::string out;
  for (auto name : names) out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

ChainStep Pci(const Facts& f) {
  ChainStep step{ChainStepId::kPci, "PCI devices", StepStatus::kUnknown, "", Evidence({artifact::kPciNvidiaFunctions}),
                 ""};
  if (!f.pci_gpus) {
    step.missing = "the NVIDIA PCI functions were not captured";
    return step;
  }
  step.status = *f.pci_gpus > 0 ? StepStatus::kOk : StepStatus::kFailed;
  step.detail = std::to_string(*f.pci_gpus) + " NVIDIA GPU functions on the PCI bus";
  return step;
}

ChainStep Driver(const Facts& f) {
  ChainStep step{ChainStepId::kDriver, "kernel driver", StepStatus::kUnknown, "",
                 Evidence({artifact::kDriverVersion, artifact::kDriverGpuInformation}), ""};
  if (!f.driver) {
    step.missing = "/proc/driver/nvidia/version was not captured";
    return step;
  }
  if (!f.driver->loaded) {
    step.status = StepStatus::kFailed;
    step.detail = "no /proc/driver/nvidia/version: the NVIDIA module is not loaded";
    return step;
  }
  step.detail = "module " + f.driver->version + ", " + std::to_string(f.driver->gpus) +
                " GPUs in /proc/driver/nvidia/gpus";
  step.status = f.pci_gpus && f.driver->gpus < *f.pci_gpus ? StepStatus::kFailed : StepStatus::kOk;
  return step;
}

ChainStep DeviceNodes(const Facts& f) {
  ChainStep step{ChainStepId::kDeviceNodes, "/dev/nvidia* nodes", StepStatus::kUnknown, "",
                 Evidence({artifact::kDevNvidiaNodes}), ""};
  if (!f.device_nodes) {
    step.missing = "the /dev/nvidia* listing was not captured";
    return step;
  }
  const auto& n = *f.device_nodes;
  step.detail = std::to_string(n.gpus) + " /dev/nvidiaN" + (n.ctl ? ", /dev/nvidiactl present" : ", no /dev/nvidiactl");
  step.status = n.ctl && n.gpus > 0 && n.gpus >= f.pci_gpus.value_or(0) ? StepStatus::kOk : StepStatus::kFailed;
  return step;
}

ChainStep HostNvml(const Facts& f) {
  ChainStep step{ChainStepId::kHostNvml, "NVML on the host (nvidia-smi)", StepStatus::kUnknown, "",
                 Evidence({artifact::kHostNvidiaSmiList}), ""};
  if (!f.host_nvml || !f.host_nvml->ran) {
    step.missing = "host nvidia-smi -L did not run" + (f.host_nvml ? " (" + f.host_nvml->skip_reason + ")" : "");
    return step;
  }
  const auto& n = *f.host_nvml;
  step.detail = std::to_string(n.gpus) + " GPUs listed";
  if (n.result == "timed_out") {
    step.detail += "; " + n.message;
  } else if (n.result != "ok") {
    step.detail += "; " + n.result + (n.message.empty() ? "" : ": " + n.message);
  }
  bool all = !f.pci_gpus || n.gpus >= *f.pci_gpus;
  step.status = n.result == "ok" && n.gpus > 0 && all ? StepStatus::kOk : StepStatus::kFailed;
  if (n.result == "ok" && !all) step.detail += " of " + std::to_string(*f.pci_gpus) + " on PCI";
  return step;
}

ChainStep Runtime(const Facts& f) {
  ChainStep step{ChainStepId::kRuntime, "container runtime + NVIDIA toolkit", StepStatus::kUnknown, "",
                 "runtime.*, " + std::string(artifact::kPluginInspect), ""};
  std::string runtime_note =
      f.default_runtime ? "default runtime '" + *f.default_runtime + "'" : "default runtime not captured";
  if (!f.plugin_container && !f.plugin.host_unit.empty()) {
    step.status = StepStatus::kNotApplicable;
    step.detail = "the plugin runs on the host as " + f.plugin.host_unit + ": no container between it and the GPUs";
    return step;
  }
  if (!f.plugin_container) {
    step.missing = "no device-plugin container found in the runtime's state";
    step.detail = runtime_note;
    return step;
  }
  step.detail = "plugin container " + f.plugin_container->id + " " + f.plugin_container->state + "; " + runtime_note;
  const bool running = f.plugin_container->state == "CONTAINER_RUNNING";
  if (!running && f.plugin.nvml_failure && !f.container_view) {
    // The runtime started it, and it ended on its own NVML failure (step 7):
    // whether the runtime had given it the GPUs no exited container can show.
    step.detail += "; it exited after its NVML init failed";
    step.missing = "nvidia-smi cannot run in an exited container: whether the runtime gave it the GPUs is not known";
    return step;
  }
  step.status = running ? StepStatus::kOk : StepStatus::kFailed;
  // What NVML says inside the container is the toolkit's and the device
  // cgroup's work; nvidia-smi missing from the image tells nothing either way.
  if (!f.container_view) {
    step.missing = "nvidia-smi was not run inside the plugin container";
    return step;
  }
  const auto& v = *f.container_view;
  if (v.outcome == "ok") {
    step.detail += "; nvidia-smi in the container lists " + std::to_string(v.gpus) + " GPUs";
  } else if (v.outcome == "executable_missing") {
    step.detail += "; nvidia-smi is not in the plugin image (no NVML check possible)";
  } else {
    step.status = StepStatus::kFailed;
    step.detail += "; nvidia-smi in the container: " +
                   (v.outcome == "timed_out" ? v.detail : v.outcome + (v.detail.empty() ? "" : ": " + v.detail));
  }
  return step;
}

ChainStep Kubelet(const Facts& f) {
  ChainStep step{ChainStepId::kKubelet, "kubelet", StepStatus::kUnknown, "",
                 Evidence({artifact::kKubeletDevicePlugins, artifact::kJournalKubelet}), ""};
  if (!f.kubelet_sock && f.kubelet_starts.value_or(0) == 0) {
    step.missing = "no kubelet.sock listed and no kubelet start in the journal";
    return step;
  }
  step.status = f.kubelet_sock ? StepStatus::kOk : StepStatus::kUnknown;
  step.detail = f.kubelet_sock ? "kubelet.sock present" : "no kubelet.sock";
  if (f.kubelet_starts) step.detail += ", " + std::to_string(*f.kubelet_starts) + " kubelet start(s) this boot";
  return step;
}

ChainStep PluginNvml(const Facts& f) {
  ChainStep step{ChainStepId::kPluginNvml, "device plugin NVML init", StepStatus::kUnknown, "",
                 Evidence({artifact::kPluginLog, artifact::kPluginNvidiaSmiList}), ""};
  if (f.plugin.nvml_failure) {
    step.status = StepStatus::kFailed;
    step.detail = *f.plugin.nvml_failure;
  } else if (f.plugin.healthy_signs > 0) {
    step.status = StepStatus::kOk;
    step.detail = "the plugin found its devices and served them";
  } else {
    step.missing = f.plugin.logged ? "the plugin log shows neither an NVML failure nor serving"
                                   : "no device-plugin log of the boot at capture";
  }
  return step;
}

ChainStep Registration(const Facts& f) {
  ChainStep step{ChainStepId::kRegistration, "registration with kubelet", StepStatus::kUnknown, "",
                 Evidence({artifact::kPluginLog, artifact::kKubeletDevicePlugins}), ""};
  if (f.plugin.registered_ns) {
    bool stale = f.kubelet_restarted_ns && *f.kubelet_restarted_ns > *f.plugin.registered_ns;
    step.status = stale ? StepStatus::kFailed : StepStatus::kOk;
    step.detail = stale ? "registered, but kubelet (re)started after the last registration"
                        : "the plugin registered with kubelet";
  } else if (f.plugin.logged) {
    step.status = StepStatus::kFailed;
    step.detail = "no registration since the plugin started";
  } else {
    step.missing = "no device-plugin log of the boot at capture";
  }
  return step;
}

// "32" as a number; nullopt for a quantity that is not a plain count
// ("500m", "1Ki", a negative number).
std::optional<int64_t> Count(const std::string& quantity) {
  std::optional<int64_t> count = ParseInt64(quantity);
  if (!count || *count < 0) return std::nullopt;
  return count;
}

ChainStep NodeResources(const Facts& f) {
  ChainStep step{ChainStepId::kNodeResources, "Node capacity/allocatable", StepStatus::kUnknown, "",
                 Evidence({artifact::kK8sNode}), ""};
  if (!f.node) {
    step.missing = "the Node object was not captured (" +
                   (f.node_missing.empty() ? std::string("no kubeconfig or no API access") : f.node_missing) + ")";
    return step;
  }
  const auto& n = *f.node;
  // Under the MIG mixed strategy GPUs in MIG mode are advertised as
  // nvidia.com/mig-*, and time-slicing with renameByDefault as
  // nvidia.com/gpu.shared: nvidia.com/gpu at 0 or absent is what that looks like.
  const bool other_names = n.mig_allocatable || n.shared_allocatable;
  std::string also;
  if (n.mig_allocatable) also += "; MIG resources present (nvidia.com/mig-*)";
  if (n.shared_allocatable) also += "; shared replicas present (nvidia.com/gpu.shared)";
  if (!n.gpu_allocatable) {
    step.status = other_names ? StepStatus::kOk : StepStatus::kFailed;
    step.detail = "nvidia.com/gpu is absent from the Node" + also;
    return step;
  }
  step.detail = "nvidia.com/gpu capacity " + n.gpu_capacity.value_or("?") + ", allocatable " + *n.gpu_allocatable;
  const int64_t host_gpus = f.host_nvml && f.host_nvml->ran ? f.host_nvml->gpus : 0;
  // Under the mixed strategy nvidia.com/gpu counts only the GPUs not in MIG mode.
  const int64_t mig_gpus = host_gpus > 0 && n.mig_allocatable ? f.host_nvml->mig_gpus : 0;
  const int64_t expected = host_gpus > 0 ? host_gpus - mig_gpus : f.pci_gpus.value_or(0);
  if (mig_gpus > 0) also += "; " + std::to_string(mig_gpus) + " GPUs in MIG mode count as nvidia.com/mig-*";
  const std::optional<int64_t> allocatable = Count(*n.gpu_allocatable);
  // Without the node's own count, the capacity is what the plugin
  // advertised: allocatable below it is devices it marked unhealthy.
  const std::optional<int64_t> capacity = n.gpu_capacity ? Count(*n.gpu_capacity) : std::nullopt;
  if (expected == 0 && capacity && allocatable && *allocatable > 0 && *allocatable < *capacity) {
    step.status = StepStatus::kFailed;
    step.detail += ": " + std::to_string(*capacity - *allocatable) + " of " + std::to_string(*capacity) +
                   " advertised GPUs are not allocatable (marked unhealthy)" + also;
    return step;
  }
  if (!allocatable) {
    step.status = *n.gpu_allocatable == std::to_string(expected) ? StepStatus::kOk : StepStatus::kFailed;
  } else if (*allocatable == 0) {
    // With the GPUs in MIG mode known, the others must still be there.
    step.status = other_names && (mig_gpus == 0 || expected == 0) ? StepStatus::kOk : StepStatus::kFailed;
  } else if (expected == 0 || *allocatable == expected) {
    step.status = StepStatus::kOk;
  } else if (*allocatable > expected) {
    // Only sharing or MIG devices advertise more than there are GPUs.
    step.status = StepStatus::kOk;
    step.detail += " on " + std::to_string(expected) +
                   " GPUs: shared replicas (time-slicing or MPS) or MIG devices (single strategy)";
  } else if (n.mig_allocatable && mig_gpus == 0) {
    // MIG devices are advertised, but which GPUs are in MIG mode (and so
    // not counted here) nvidia-smi -L did not show.
    step.status = StepStatus::kUnknown;
    step.detail += ", below the " + std::to_string(expected) + " GPUs, some of them perhaps in MIG mode";
    step.missing = "which GPUs are in MIG mode (the host's nvidia-smi -L with its MIG devices)";
  } else {
    step.status = StepStatus::kFailed;
    step.detail += ", below the " + std::to_string(expected) + " GPUs";
  }
  step.detail += also;
  return step;
}

}  // namespace

bool NotAGpuNode(const ChainFacts& f) {
  if (!f.pci_gpus || *f.pci_gpus != 0) return false;
  if (f.driver && f.driver->loaded) return false;
  if (f.device_nodes && (f.device_nodes->gpus > 0 || f.device_nodes->ctl)) return false;
  if (f.node) {
    const auto& n = *f.node;
    // The kubelet adds nvidia.com/gpu only once a plugin registered there:
    // even at 0 it says the node had GPUs.
    if (n.gpu_capacity || n.gpu_allocatable || n.mig_allocatable || n.shared_allocatable) return false;
  }
  return true;
}

std::vector<ChainStep> JudgeChain(const ChainFacts& f) {
  std::vector<ChainStep> steps = {
      Pci(f),     Driver(f),       DeviceNodes(f), HostNvml(f),       Runtime(f),
      Kubelet(f), PluginNvml(f),   Registration(f), NodeResources(f),
      KubeStateMetricsStep(f), MetricsStoreStep(f), AlertingStep(f)};
  if (NotAGpuNode(f)) {
    for (auto& step : steps) {
      step.status = StepStatus::kNotApplicable;
      step.missing.clear();
      step.detail = "not a GPU node";
    }
    steps.front().detail =
        "no NVIDIA GPU function on the PCI bus, and no NVIDIA driver, /dev/nvidia* or GPU resource on the Node that "
        "would show one: not a GPU node";
  }
  return steps;
}

ChainFacts::Node NodeGpuResources(const std::vector<NodeResource>& resources) {
  ChainFacts::Node node;
  for (const auto& r : resources) {
    if (r.resource == "nvidia.com/gpu") (r.field == "capacity" ? node.gpu_capacity : node.gpu_allocatable) = r.quantity;
    if (r.resource.rfind("nvidia.com/mig-", 0) == 0 && r.field == "allocatable" && r.quantity != "0") {
      node.mig_allocatable = true;
    }
    if (r.resource == "nvidia.com/gpu.shared" && r.field == "allocatable" && r.quantity != "0") {
      node.shared_allocatable = true;
    }
  }
  return node;
}

}  // namespace gpuf
