#include "analyzer/chain_verdict.h"

#include "analyzer/query.h"
#include "common/artifacts.h"

namespace gpuf {

namespace {

struct Facts {
  int64_t pci_gpus = 0;
  bool pci_captured = false;
  int64_t host_gpus = 0;
};

Result<bool> ArtifactOk(Database& db, int64_t bundle, std::string_view name) {
  GPUF_ASSIGN_OR_RETURN(int64_t n, QueryInt(db,
      "SELECT count(*) FROM artifacts WHERE bundle_id = :bundle AND status = 'ok' AND name = $artifact(" +
          std::string(name) + ")", bundle));
  return n > 0;
}

Result<ChainStep> Pci(Database& db, int64_t bundle, Facts& f) {
  ChainStep step{"PCI devices", StepStatus::kUnknown, "", "pci.nvidia_functions", ""};
  GPUF_ASSIGN_OR_RETURN(f.pci_captured, ArtifactOk(db, bundle, artifact::kPciNvidiaFunctions));
  if (!f.pci_captured) {
    step.missing = "the NVIDIA PCI functions were not captured";
    return step;
  }
  GPUF_ASSIGN_OR_RETURN(f.pci_gpus, QueryInt(db,
      "SELECT count(*) FROM pci_devices p JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND p.role = 'gpu'", bundle));
  step.status = f.pci_gpus > 0 ? StepStatus::kOk : StepStatus::kFailed;
  step.detail = std::to_string(f.pci_gpus) + " NVIDIA GPU functions on the PCI bus";
  return step;
}

Result<ChainStep> Driver(Database& db, int64_t bundle, const Facts& f) {
  ChainStep step{"kernel driver", StepStatus::kUnknown, "", "driver.version, driver.gpu_information", ""};
  GPUF_ASSIGN_OR_RETURN(auto version, QueryText(db,
      "SELECT v.version FROM versions v JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND v.component = 'nvidia-kernel-module'", bundle));
  GPUF_ASSIGN_OR_RETURN(auto skipped, QueryText(db,
      "SELECT skip_reason FROM artifacts WHERE bundle_id = :bundle AND name = $artifact(driver.version)", bundle));
  if (!version) {
    if (skipped && *skipped == "not_found") {
      step.status = StepStatus::kFailed;
      step.detail = "no /proc/driver/nvidia/version: the NVIDIA module is not loaded";
    } else {
      step.missing = "/proc/driver/nvidia/version was not captured";
    }
    return step;
  }
  GPUF_ASSIGN_OR_RETURN(int64_t driver_gpus, QueryInt(db,
      "SELECT count(*) FROM driver_gpus d JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle", bundle));
  step.detail = "module " + *version + ", " + std::to_string(driver_gpus) + " GPUs in /proc/driver/nvidia/gpus";
  step.status = f.pci_captured && driver_gpus < f.pci_gpus ? StepStatus::kFailed : StepStatus::kOk;
  return step;
}

Result<ChainStep> DeviceNodes(Database& db, int64_t bundle, const Facts& f) {
  ChainStep step{"/dev/nvidia* nodes", StepStatus::kUnknown, "", "dev.nvidia_nodes", ""};
  GPUF_ASSIGN_OR_RETURN(bool listed, ArtifactOk(db, bundle, artifact::kDevNvidiaNodes));
  if (!listed) {
    step.missing = "the /dev/nvidia* listing was not captured";
    return step;
  }
  GPUF_ASSIGN_OR_RETURN(int64_t gpus, QueryInt(db,
      "SELECT count(*) FROM device_nodes d JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND d.type = 'c' AND d.path GLOB '/dev/nvidia[0-9]*'", bundle));
  GPUF_ASSIGN_OR_RETURN(int64_t ctl, QueryInt(db,
      "SELECT count(*) FROM device_nodes d JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND d.type = 'c' AND d.path = '/dev/nvidiactl'", bundle));
  step.detail = std::to_string(gpus) + " /dev/nvidiaN" + (ctl ? ", /dev/nvidiactl present" : ", no /dev/nvidiactl");
  step.status = ctl > 0 && gpus > 0 && gpus >= f.pci_gpus ? StepStatus::kOk : StepStatus::kFailed;
  return step;
}

Result<ChainStep> HostNvml(Database& db, int64_t bundle, Facts& f) {
  ChainStep step{"NVML on the host (nvidia-smi)", StepStatus::kUnknown, "", "host.nvidia_smi_list", ""};
  GPUF_ASSIGN_OR_RETURN(auto status, QueryText(db,
      "SELECT status || '|' || coalesce(skip_reason, '') FROM artifacts "
      "WHERE bundle_id = :bundle AND name = $artifact(host.nvidia_smi_list)", bundle));
  if (!status || status->rfind("skipped", 0) == 0) {
    step.missing = "host nvidia-smi -L did not run" + (status ? " (" + status->substr(8) + ")" : std::string());
    return step;
  }
  GPUF_ASSIGN_OR_RETURN(f.host_gpus, QueryInt(db,
      "SELECT count(*) FROM gpus g JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND a.name = $artifact(host.nvidia_smi_list)", bundle));
  GPUF_ASSIGN_OR_RETURN(auto outcome, QueryText(db,
      "SELECT r.outcome || '|' || coalesce(r.message, '') FROM nvidia_smi_runs r JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND a.name = $artifact(host.nvidia_smi_list)", bundle));
  std::string result = outcome ? outcome->substr(0, outcome->find('|')) : status->substr(0, status->find('|'));
  std::string message = outcome ? outcome->substr(outcome->find('|') + 1) : "";
  step.detail = std::to_string(f.host_gpus) + " GPUs listed";
  if (result != "ok") step.detail += "; " + result + (message.empty() ? "" : ": " + message);
  bool all = !f.pci_captured || f.host_gpus >= f.pci_gpus;
  step.status = result == "ok" && f.host_gpus > 0 && all ? StepStatus::kOk : StepStatus::kFailed;
  if (result == "ok" && !all) {
    step.detail += " of " + std::to_string(f.pci_gpus) + " on PCI";
  }
  return step;
}

Result<ChainStep> Runtime(Database& db, int64_t bundle) {
  ChainStep step{"container runtime + NVIDIA toolkit", StepStatus::kUnknown, "", "runtime.*, plugin.inspect", ""};
  GPUF_ASSIGN_OR_RETURN(auto newest, QueryText(db,
      "SELECT coalesce(state, '?') || '|' || coalesce(exit_code, '') || '|' || substr(id, 1, 13) FROM containers "
      "WHERE bundle_id = :bundle AND is_plugin ORDER BY created_at_ns DESC, attempt DESC LIMIT 1", bundle));
  GPUF_ASSIGN_OR_RETURN(auto runtime, QueryText(db,
      "SELECT c.value FROM config_values c JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle "
      "AND c.key IN ('crictl_info.default_runtime_name', 'containerd.default_runtime_name') "
      "ORDER BY c.key = 'containerd.default_runtime_name' LIMIT 1", bundle));
  std::string runtime_note = runtime ? "default runtime '" + *runtime + "'" : "default runtime not captured";
  if (!newest) {
    step.missing = "no device-plugin container found in the runtime's state";
    step.detail = runtime_note;
    return step;
  }
  std::string state = newest->substr(0, newest->find('|'));
  std::string id = newest->substr(newest->rfind('|') + 1);
  step.detail = "plugin container " + id + " " + state + "; " + runtime_note;
  step.status = state == "CONTAINER_RUNNING" ? StepStatus::kOk : StepStatus::kFailed;
  // What NVML says inside the container is the toolkit's and the device
  // cgroup's work; nvidia-smi missing from the image tells nothing either way.
  GPUF_ASSIGN_OR_RETURN(auto view, QueryText(db,
      "SELECT v.outcome || '|' || coalesce(v.detail, '') || '|' || count(v.uuid) FROM container_gpu_views v "
      "JOIN containers c ON c.id = v.container_id AND c.bundle_id = :bundle "
      "JOIN artifacts a ON a.artifact_id = v.artifact_id AND a.bundle_id = :bundle "
      "WHERE c.is_plugin GROUP BY v.container_id ORDER BY c.created_at_ns DESC LIMIT 1", bundle));
  if (!view) {
    step.missing = "nvidia-smi was not run inside the plugin container";
    return step;
  }
  std::string outcome = view->substr(0, view->find('|'));
  std::string rest = view->substr(view->find('|') + 1);
  std::string detail = rest.substr(0, rest.rfind('|'));
  std::string count = rest.substr(rest.rfind('|') + 1);
  if (outcome == "ok") {
    step.detail += "; nvidia-smi in the container lists " + count + " GPUs";
  } else if (outcome == "executable_missing") {
    step.detail += "; nvidia-smi is not in the plugin image (no NVML check possible)";
  } else {
    step.status = StepStatus::kFailed;
    step.detail += "; nvidia-smi in the container: " + outcome + (detail.empty() ? "" : ": " + detail);
  }
  return step;
}

Result<ChainStep> Kubelet(Database& db, int64_t bundle) {
  ChainStep step{"kubelet", StepStatus::kUnknown, "", "kubelet.device_plugins, journal.kubelet", ""};
  GPUF_ASSIGN_OR_RETURN(auto sock, QueryText(db,
      "SELECT time_ns FROM events WHERE bundle_id = :bundle AND milestone = 'kubelet_sock_created'", bundle));
  GPUF_ASSIGN_OR_RETURN(int64_t starts, QueryInt(db,
      "SELECT count(*) FROM events WHERE bundle_id = :bundle AND milestone = 'kubelet_started' AND boot_offset = 0",
      bundle));
  if (!sock && starts == 0) {
    step.missing = "no kubelet.sock listed and no kubelet start in the journal";
    return step;
  }
  step.status = sock ? StepStatus::kOk : StepStatus::kUnknown;
  step.detail = std::string(sock ? "kubelet.sock present" : "no kubelet.sock") + ", " + std::to_string(starts) +
                " kubelet start(s) this boot";
  return step;
}

// The plugin instance that matters is the one running at capture: events of
// the boot at capture since the last plugin start (its container's, or its
// unit's where it runs as a host service).
constexpr char kSinceLastStart[] =
    " FROM events WHERE bundle_id = :bundle AND boot_offset = 0 AND time_ns >= coalesce("
    "(SELECT max(time_ns) FROM events WHERE bundle_id = :bundle AND boot_offset = 0 "
    " AND milestone IN ('plugin_container_started', 'plugin_service_started')), 0)";

// Whether the plugin wrote any line since its last start: asked as EXISTS,
// which stops at the first line, where a count read every later event.
Result<bool> PluginLoggedSinceLastStart(Database& db, int64_t bundle) {
  GPUF_ASSIGN_OR_RETURN(int64_t any, QueryInt(db,
      std::string("SELECT EXISTS (SELECT 1") + kSinceLastStart + " AND source = 'plugin')", bundle));
  return any != 0;
}

Result<ChainStep> PluginNvml(Database& db, int64_t bundle) {
  ChainStep step{"device plugin NVML init", StepStatus::kUnknown, "", "plugin.log, plugin.nvidia_smi_list", ""};
  GPUF_ASSIGN_OR_RETURN(auto failure, QueryText(db,
      std::string("SELECT message") + kSinceLastStart + " AND milestone = 'plugin_nvml_init_failed' ORDER BY time_ns",
      bundle));
  GPUF_ASSIGN_OR_RETURN(int64_t healthy_signs, QueryInt(db,
      std::string("SELECT count(*)") + kSinceLastStart + " AND milestone IN ('plugin_serving', 'plugin_registered')",
      bundle));
  GPUF_ASSIGN_OR_RETURN(bool plugin_lines, PluginLoggedSinceLastStart(db, bundle));
  if (failure) {
    step.status = StepStatus::kFailed;
    step.detail = *failure;
  } else if (healthy_signs > 0) {
    step.status = StepStatus::kOk;
    step.detail = "the plugin found its devices and served them";
  } else {
    step.missing = plugin_lines ? "the plugin log shows neither an NVML failure nor serving"
                                : "no device-plugin log of the boot at capture";
  }
  return step;
}

Result<ChainStep> Registration(Database& db, int64_t bundle) {
  ChainStep step{"registration with kubelet", StepStatus::kUnknown, "", "plugin.log, kubelet.device_plugins", ""};
  GPUF_ASSIGN_OR_RETURN(auto registered, QueryText(db,
      std::string("SELECT max(time_ns)") + kSinceLastStart + " AND milestone = 'plugin_registered'", bundle));
  GPUF_ASSIGN_OR_RETURN(auto kubelet_after, QueryText(db,
      "SELECT max(time_ns) FROM events WHERE bundle_id = :bundle AND boot_offset = 0 AND "
      "milestone IN ('kubelet_started', 'kubelet_sock_created')", bundle));
  GPUF_ASSIGN_OR_RETURN(bool plugin_lines, PluginLoggedSinceLastStart(db, bundle));
  if (registered) {
    bool stale = kubelet_after && std::stoll(*kubelet_after) > std::stoll(*registered);
    step.status = stale ? StepStatus::kFailed : StepStatus::kOk;
    step.detail = stale ? "registered, but kubelet (re)started after the last registration"
                        : "the plugin registered with kubelet";
  } else if (plugin_lines) {
    step.status = StepStatus::kFailed;
    step.detail = "no registration since the plugin started";
  } else {
    step.missing = "no device-plugin log of the boot at capture";
  }
  return step;
}

Result<ChainStep> NodeResources(Database& db, int64_t bundle, const Facts& f) {
  ChainStep step{"Node capacity/allocatable", StepStatus::kUnknown, "", "k8s.node", ""};
  GPUF_ASSIGN_OR_RETURN(bool node, ArtifactOk(db, bundle, artifact::kK8sNode));
  if (!node) {
    step.missing = "the Node object was not captured (no kubeconfig or no API access)";
    return step;
  }
  GPUF_ASSIGN_OR_RETURN(auto capacity, QueryText(db,
      "SELECT quantity FROM node_resources r JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle "
      "AND r.resource = 'nvidia.com/gpu' AND r.field = 'capacity'", bundle));
  GPUF_ASSIGN_OR_RETURN(auto allocatable, QueryText(db,
      "SELECT quantity FROM node_resources r JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle "
      "AND r.resource = 'nvidia.com/gpu' AND r.field = 'allocatable'", bundle));
  GPUF_ASSIGN_OR_RETURN(int64_t mig, QueryInt(db,
      "SELECT count(*) FROM node_resources r JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle "
      "AND r.resource LIKE 'nvidia.com/mig-%' AND r.field = 'allocatable' AND r.quantity <> '0'", bundle));
  if (!allocatable) {
    step.status = StepStatus::kFailed;
    step.detail = "nvidia.com/gpu is absent from the Node";
  } else {
    step.detail = "nvidia.com/gpu capacity " + capacity.value_or("?") + ", allocatable " + *allocatable;
    int64_t expected = f.host_gpus > 0 ? f.host_gpus : f.pci_gpus;
    bool full = *allocatable != "0" && (expected == 0 || *allocatable == std::to_string(expected));
    step.status = full ? StepStatus::kOk : StepStatus::kFailed;
  }
  if (mig > 0) step.detail += "; MIG resources present (nvidia.com/mig-*)";
  return step;
}

}  // namespace

const char* StepStatusName(StepStatus status) {
  switch (status) {
    case StepStatus::kOk: return "ok";
    case StepStatus::kFailed: return "failed";
    case StepStatus::kUnknown: return "unknown";
  }
  return "unknown";
}

Result<std::vector<ChainStep>> ComputeChainVerdict(Database& db, int64_t bundle) {
  Facts f;
  std::vector<ChainStep> steps;
  GPUF_ASSIGN_OR_RETURN(ChainStep pci, Pci(db, bundle, f));
  steps.push_back(pci);
  GPUF_ASSIGN_OR_RETURN(ChainStep driver, Driver(db, bundle, f));
  steps.push_back(driver);
  GPUF_ASSIGN_OR_RETURN(ChainStep nodes, DeviceNodes(db, bundle, f));
  steps.push_back(nodes);
  GPUF_ASSIGN_OR_RETURN(ChainStep nvml, HostNvml(db, bundle, f));
  steps.push_back(nvml);
  GPUF_ASSIGN_OR_RETURN(ChainStep runtime, Runtime(db, bundle));
  steps.push_back(runtime);
  GPUF_ASSIGN_OR_RETURN(ChainStep kubelet, Kubelet(db, bundle));
  steps.push_back(kubelet);
  GPUF_ASSIGN_OR_RETURN(ChainStep plugin, PluginNvml(db, bundle));
  steps.push_back(plugin);
  GPUF_ASSIGN_OR_RETURN(ChainStep registration, Registration(db, bundle));
  steps.push_back(registration);
  GPUF_ASSIGN_OR_RETURN(ChainStep resources, NodeResources(db, bundle, f));
  steps.push_back(resources);
  steps.push_back({"metrics and alerting", StepStatus::kUnknown, "", "",
                   "outside the node: check kube_node_status_allocatable and the alert rule separately"});
  return steps;
}

}  // namespace gpuf
