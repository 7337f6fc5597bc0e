// The cheap health check `gpuforensics watch` runs every few minutes: is the
// GPU chain broken on this node right now? Read-only and without touching
// the driver: GPUs on PCI and in /proc/driver/nvidia (never NVML), the
// device-plugin sockets against kubelet.sock, and the registration line in
// the current plugin log. Optionally the Node's allocatable through kubectl.
#ifndef GPUF_COLLECTOR_WATCH_CHECK_H_
#define GPUF_COLLECTOR_WATCH_CHECK_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "collector/host_root.h"

namespace re2 {
class RE2;
}

namespace gpuf {

struct ChainCheck {
  std::string boot_id;
  int pci_gpus = 0;                             // NVIDIA display/3D functions in sysfs
  int driver_gpus = 0;                          // entries in /proc/driver/nvidia/gpus
  std::optional<int64_t> kubelet_sock_mtime_ns;
  std::optional<int64_t> plugin_sock_mtime_ns;  // newest device-plugin socket
  std::string plugin_log;                       // host path of the current plugin log, "" when none
  std::optional<bool> registered;               // last registration after the last failure/restart
  std::optional<std::string> allocatable;       // Node's nvidia.com/gpu when checked
  std::vector<std::string> problems;            // why the chain is broken; empty when healthy

  bool healthy() const { return problems.empty(); }
  // Same string for the same breakage in the same boot: one bundle per incident.
  std::string IncidentKey() const;
};

// Never fails: what cannot be read is simply not evidence of a break.
ChainCheck CheckChain(const HostRoot& host, const re2::RE2& plugin_pattern);

// Adds "allocatable_below_gpus" when the Node's nvidia.com/gpu allocatable
// (from `kubectl get node -o json`, as the collector runs it) is below the
// GPUs the driver sees.
void CheckAllocatable(ChainCheck& check, const std::string& node_json);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_WATCH_CHECK_H_
