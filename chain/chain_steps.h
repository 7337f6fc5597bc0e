// The GPU chain, step by step from the PCI bus to the Node's allocatable,
// and the one rule per step that says whether it holds: ok, failed, or
// unknown with what was not seen; on a node with no sign of an NVIDIA GPU
// anywhere, every step is not applicable.
//
// Three readers fill ChainFacts from what they have and ask JudgeChain:
// `analyze` from the loaded bundle (analyzer/timeline/chain_verdict.cc), `collect`'s
// closing summary from its probes (collector/triage.cc) and `watch` from
// the live host (collector/watch_check.cc). A fact a reader cannot see
// stays unset and its step is unknown there; where two readers see the
// same facts they give the same answer.
#ifndef GPUF_CHAIN_CHAIN_STEPS_H_
#define GPUF_CHAIN_CHAIN_STEPS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/vocabulary.h"
#include "formats/kube_node.h"

namespace gpuf {

// A step's status; Name() and Parse() (common/vocabulary.h) convert.
enum class StepStatus { kOk, kFailed, kUnknown, kNotApplicable };
inline constexpr std::string_view kStepStatusNames[] = {"ok", "failed", "unknown", "not_applicable"};
template <> constexpr std::span<const std::string_view> Names<StepStatus>() { return kStepStatusNames; }
static_assert(std::size(kStepStatusNames) == static_cast<size_t>(StepStatus::kNotApplicable) + 1);

enum class ChainStepId {
  kPci, kDriver, kDeviceNodes, kHostNvml, kRuntime, kKubelet, kPluginNvml, kRegistration, kNodeResources,
  kKubeStateMetrics, kMetricsStore, kAlerting
};

// kube-state-metrics, the metrics store and alerting: judged only from what
// the kubectl plugin read off the node (--metrics), never by collect on it.
inline bool OutsideTheNode(ChainStepId id) { return id >= ChainStepId::kKubeStateMetrics; }

struct ChainStep {
  ChainStepId id = ChainStepId::kPci;
  std::string name;      // "PCI devices", "kernel driver", ...
  StepStatus status = StepStatus::kUnknown;
  std::string detail;    // what was seen, one line
  std::string evidence;  // the artifacts it rests on
  std::string missing;   // when unknown: what was not captured
};

struct ChainFacts {
  // NVIDIA display/3D functions on the PCI bus; nullopt: not captured.
  std::optional<int64_t> pci_gpus;

  struct Driver {
    bool loaded = false;  // /proc/driver/nvidia/version exists
    std::string version;  // the module's, as it says
    int64_t gpus = 0;     // entries of /proc/driver/nvidia/gpus
  };
  std::optional<Driver> driver;  // nullopt: not read

  struct DeviceNodes {
    int64_t gpus = 0;  // character devices /dev/nvidiaN
    bool ctl = false;  // /dev/nvidiactl
  };
  std::optional<DeviceNodes> device_nodes;  // nullopt: not listed

  struct HostNvml {
    bool ran = false;         // false: skipped
    std::string skip_reason;  // when skipped
    std::string result;       // "ok", or the failure ("nvml_unknown_error", "timed_out", ...)
    std::string message;      // what it said when it failed, "" when nothing
    int64_t gpus = 0;         // GPUs `nvidia-smi -L` listed
    int64_t mig_gpus = 0;     // of them, GPUs in MIG mode (MIG devices listed under them)
  };
  std::optional<HostNvml> host_nvml;  // nullopt: no such probe

  struct PluginContainer {
    std::string state;  // "CONTAINER_RUNNING", ..., "?" when unknown
    std::string id;     // its first 13 characters
  };
  std::optional<PluginContainer> plugin_container;  // the newest; nullopt: none found
  std::optional<std::string> default_runtime;      // the runtime's default handler
  struct ContainerView {
    std::string outcome;  // as nvidia_smi_runs: "ok", "executable_missing", "nvml_unknown_error", ...
    std::string detail;   // "" when nothing
    int64_t gpus = 0;
  };
  std::optional<ContainerView> container_view;  // nullopt: nvidia-smi not run in it

  bool kubelet_sock = false;                       // kubelet.sock listed
  std::optional<int64_t> kubelet_starts;           // kubelet starts this boot (its journal); nullopt: not read
  std::optional<int64_t> kubelet_restarted_ns;     // its last start or kubelet.sock creation, this boot

  // What the plugin logged in the boot at capture since its last start
  // (its container's or its unit's); all unset when it logged nothing.
  struct Plugin {
    bool logged = false;                        // any line
    std::optional<std::string> nvml_failure;    // the first NVML init failure, as logged
    int64_t healthy_signs = 0;                  // serving and registration lines
    std::optional<int64_t> registered_ns;       // the last registration with kubelet
    // The systemd unit the plugin runs as on the host (Bottlerocket's
    // nvidia-k8s-device-plugin.service), started this boot; "" when none.
    std::string host_unit;
  };
  Plugin plugin;

  struct Node {
    std::optional<std::string> gpu_capacity;     // nvidia.com/gpu
    std::optional<std::string> gpu_allocatable;  // nvidia.com/gpu
    bool mig_allocatable = false;                // some nvidia.com/mig-* allocatable is not 0
    // nvidia.com/gpu.shared allocatable, not 0: time-slicing or MPS with
    // renameByDefault, which advertises the replicas under that name.
    bool shared_allocatable = false;
  };
  std::optional<Node> node;  // nullopt: the Node object was not captured
  // Why not, from the capture: "kubectl was not found where the collector
  // ran", "the capture holds no Node object"; "" when it does not say.
  std::string node_missing;

  // The metrics store's record of the window before the capture
  // (k8s.metrics: kubectl gpuforensics collect --metrics), times on the
  // node's clock; nullopt: not asked.
  struct Metrics {
    std::string selector;     // how the node was named there: node="gpu-7"
    int64_t end_ns = 0;       // the end of the window: the capture
    int64_t window_s = 0;
    int64_t step_s = 30;
    std::string allocatable_error;  // why kube_node_status_allocatable was not answered; "" when it was
    bool allocatable_series = false;  // the answer held a series of some nvidia_com_* resource
    std::optional<int64_t> last_sample_ns;   // the newest sample of any of them
    std::optional<double> gpu_last;          // nvidia_com_gpu's newest value
    std::optional<double> gpu_max;           // and its most in the window
    struct Drop {
      std::string resource;
      int64_t at_ns = 0;
      double from = 0, to = 0;
      std::optional<int64_t> restored_ns;  // back to `from` or more, later in the window
    };
    std::optional<Drop> first_drop;  // the first drop of a GPU resource in the window
    std::string alerts_error;        // why ALERTS was not answered; "" when it was
    struct Alert {
      std::string name;
      int64_t fired_ns = 0;
      std::optional<int64_t> resolved_ns;  // nullopt: still firing at the capture
    };
    std::optional<Alert> alert;  // the first to fire after the drop (or in the window, without one)
  };
  std::optional<Metrics> metrics;
};

// The steps in chain order, the last three (kube-state-metrics, the metrics
// store, alerting) outside the node.
std::vector<ChainStep> JudgeChain(const ChainFacts& facts);

// What the Node step reads of the Node object's resources: nvidia.com/gpu's
// capacity and allocatable, and whether a MIG or shared resource is
// allocatable.
ChainFacts::Node NodeGpuResources(const std::vector<NodeResource>& resources);

// No NVIDIA function on the PCI bus, and nothing else that shows one: no
// driver loaded, no /dev/nvidia*, and no GPU resource on the Node (not even
// at 0: the kubelet adds one only when a plugin registered). A CPU
// worker, not a broken GPU node, even where a device-plugin DaemonSet
// without a node selector runs on it; a node whose GPUs left the bus still
// shows its driver, device nodes or the Node's count of them.
bool NotAGpuNode(const ChainFacts& facts);

}  // namespace gpuf

#endif  // GPUF_CHAIN_CHAIN_STEPS_H_
