// The cheap health check `gpuforensics watch` runs every few minutes: is the
// GPU chain broken on this node right now? Read-only and without touching
// the driver: GPUs on PCI and in /proc/driver/nvidia (never NVML), the
// /dev/nvidia* nodes, the device-plugin sockets against kubelet.sock, and
// what the running plugin logged since it started. Optionally the Node's
// allocatable through kubectl. The steps are judged by the rules `analyze`
// uses (chain/chain_steps.h); what watch does not read stays unknown.
#ifndef GPUF_COLLECTOR_WATCH_CHECK_H_
#define GPUF_COLLECTOR_WATCH_CHECK_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chain/chain_steps.h"
#include "collector/host_root.h"

namespace re2 {
class RE2;
}

namespace gpuf {

struct ChainCheck {
  std::string boot_id;
  bool pci_readable = false;                    // the root's /sys/bus/pci/devices could be listed
  int pci_gpus = 0;                             // NVIDIA display/3D functions in sysfs
  int driver_gpus = 0;                          // entries in /proc/driver/nvidia/gpus
  std::optional<int64_t> kubelet_sock_mtime_ns;
  std::optional<int64_t> plugin_sock_mtime_ns;  // newest device-plugin socket
  std::optional<bool> registered;               // the registration step: ok, failed, or not known
  std::optional<std::string> allocatable;       // Node's nvidia.com/gpu when checked
  ChainFacts facts;                             // what the steps were judged from
  std::vector<ChainStep> steps;                 // JudgeChain(facts)
  std::vector<std::string> problems;            // why the chain is broken; empty when healthy

  bool healthy() const { return problems.empty(); }
  // Same string for the same breakage in the same boot: one bundle per incident.
  std::string IncidentKey() const;
};

// Never fails: what cannot be read is simply not evidence of a break.
ChainCheck CheckChain(const HostRoot& host, const re2::RE2& plugin_pattern);

// Adds the Node object (`kubectl get node -o json`, as the collector runs
// it) to the facts and judges again: "allocatable_below_gpus" when the Node
// step fails.
void CheckAllocatable(ChainCheck& check, const std::string& node_json);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_WATCH_CHECK_H_
