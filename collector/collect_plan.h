// Planning a collection: which probes each phase runs, with what argv,
// given the host, the options and what the earlier phases found (the
// device-plugin containers, their cgroups and logs). probe_schedule.cc
// runs the plans, in the order it documents; this file decides them.
#ifndef GPUF_COLLECTOR_COLLECT_PLAN_H_
#define GPUF_COLLECTOR_COLLECT_PLAN_H_

#include <re2/re2.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "collector/collect.h"
#include "collector/discovery.h"
#include "collector/host_exec.h"
#include "collector/host_root.h"
#include "collector/probe_runner.h"
#include "common/platforms.h"

namespace gpuf {

inline constexpr int64_t kMsToNs = 1'000'000;

// Everything planning needs to know about this run.
struct Plan {
  const CollectOptions* options = nullptr;
  const HostRoot* host = nullptr;
  const HostExec* exec = nullptr;
  std::unique_ptr<re2::RE2> plugin_pattern;
  std::string node;        // "" when nothing named the Node: the API is not asked
  std::string kubeconfig;  // as kubectl must be given it; "" when none is usable
  bool kubeconfig_in_cluster = false;  // kubectl finds the pod's service account itself
  bool have_crictl = false;
  bool have_ctr = false;
  // Why crictl or ctr cannot connect (runtime_sockets.h); "" when it can or is not checked.
  std::string crictl_unreachable;
  std::string ctr_unreachable;
  // Where systemd keeps unit files on this host (common/platforms.h).
  std::vector<std::string> unit_dirs = SystemdUnitDirs(nullptr);
  // The file the platform's kubelet logs to instead of the journal (RKE2's), "" when none.
  std::string kubelet_log_file;
};

// A device-plugin container and what its inspection told.
struct Discovered {
  PluginContainer container;
  ContainerFacts facts;
};

std::vector<ProbeTask> PlanPhaseOne(const Plan& plan);
// Fills `containers` from phase one's crictl listing.
std::vector<ProbeTask> PlanPhaseTwo(const Plan& plan, const std::vector<ProbeResult>& phase_one,
                                    std::vector<PluginContainer>& containers);
std::vector<Discovered> DiscoverFromPhaseTwo(const Plan& plan, const std::vector<ProbeResult>& phase_one,
                                             const std::vector<ProbeResult>& phase_two,
                                             const std::vector<PluginContainer>& containers);
std::vector<ProbeTask> PlanPhaseThree(const Plan& plan, const std::vector<Discovered>& containers);
// After phase three, on cgroup v2: the instructions of each device program
// that bpftool found on a container's cgroup, which say what it may open.
std::vector<ProbeTask> PlanDeviceProgramDumps(const Plan& plan, const std::vector<ProbeResult>& phase_three);
// Phase four, the probes that touch the GPU driver, in two parts: the
// host's nvidia-smi, which needs only phase one done, and nvidia-smi inside
// each running plugin container found in phase two.
std::vector<ProbeTask> PlanHostDriverProbes(const Plan& plan);
std::vector<ProbeTask> PlanContainerDriverProbes(const Plan& plan, const std::vector<Discovered>& containers);

// The bytes a probe staged for `stream`; "" when it has none.
std::string ReadStaged(const ProbeResult& result, std::string_view stream);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_COLLECT_PLAN_H_
