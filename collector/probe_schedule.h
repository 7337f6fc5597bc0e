// When each probe of a collection runs. The phases of probe_table.h keep
// "passive first"; within that rule probes run side by side:
//
//   phase 1, what the driver can change ──┬── host nvidia-smi (phase 4) ─────────────┐
//                                         └── phase 2 ── phase 3 ── nvidia-smi inside ─┴── done
//   phase 1, what it cannot (versions, configuration, the API server) ───────────────┘
//
// Everything nvidia-smi could change (device nodes, modules, the journal,
// the plugin's log files, the containers' states) is read in phase 1, and
// nothing that touches the driver starts before those reads end. What the
// later phases read (runtime inspection, cgroups, crictl's view of the
// logs) nvidia-smi cannot change, nor the versions, configuration files and
// API server objects of DriverCanChange: those run beside it.
#ifndef GPUF_COLLECTOR_PROBE_SCHEDULE_H_
#define GPUF_COLLECTOR_PROBE_SCHEDULE_H_

#include <string_view>
#include <vector>

#include "collector/collect_plan.h"
#include "collector/probe_runner.h"

namespace gpuf {

// The groups the probes run in, as progress names them.
inline constexpr std::string_view kGroupNode = "node files, logs and runtime state";     // phase 1
inline constexpr std::string_view kGroupFacts = "versions, configuration, API objects";  // phase 1, beside the driver
inline constexpr std::string_view kGroupRuntime = "container runtime inspection";       // phase 2
inline constexpr std::string_view kGroupPluginContainers = "device-plugin containers";  // phase 3
inline constexpr std::string_view kGroupHostDriver = "nvidia-smi on the host";           // phase 4
inline constexpr std::string_view kGroupContainerDriver = "nvidia-smi in plugin containers";  // phase 4

// Runs every probe `plan` calls for with at most `jobs` at a time (with
// fewer than 3 jobs, one phase after the other). Results come in phase
// order; each probe's staged files are numbered uniquely.
std::vector<ProbeResult> RunCollectionProbes(const Plan& plan, int jobs, const ProbeEnvironment& env);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_PROBE_SCHEDULE_H_
