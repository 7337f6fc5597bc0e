// The probes the collector runs, as data.
//
// Each row names one logical artifact and says how to obtain it. The order of
// phases encodes the forensic rule "passive first": phase 1 reads files and
// asks services without touching the GPU driver, phase 2 and 3 look at the
// device-plugin containers found in phase 1, and phase 4 runs nvidia-smi,
// which can load modules and create /dev nodes and so change the evidence.
// probe_schedule.h says which probes run beside which.
#ifndef GPUF_COLLECTOR_PROBE_TABLE_H_
#define GPUF_COLLECTOR_PROBE_TABLE_H_

#include <cstdint>
#include <span>
#include <string_view>

#include "collector/capped_file.h"
#include "common/artifacts.h"
#include "common/platforms.h"
#include "common/bundle_layout.h"

namespace gpuf {

enum class ProbeKind {
  kCommand,  // run argv, store stdout and stderr
  kFile,     // copy one host file, or each file a glob matches (one artifact each)
  kListing,  // lstat every path the globs match; store a listing table
  kPciTable, // NVIDIA PCI functions from sysfs
  kStatfs,   // file system type of a host path
};

// How a probe's output is stored (the manifest's kind).
ArtifactKind StoredKind(ProbeKind kind);

inline constexpr int kPhasePassive = 1;
inline constexpr int kPhaseRuntime = 2;
inline constexpr int kPhaseContainer = 3;
inline constexpr int kPhaseDriver = 4;

inline constexpr int64_t kMiB = 1024 * 1024;

struct ProbeRow {
  std::string_view name;    // logical artifact name
  ProbeKind kind;
  int phase;
  // Command: argv separated by spaces; placeholders {node} and {kubeconfig}.
  // File/listing: host paths or globs separated by spaces; "a|b" is one
  // file a platform may keep in either place, the first present read.
  std::string_view target = {};
  KeepMode keep = KeepMode::kHead;
  int64_t cap_bytes = 16 * kMiB;
  bool needs_kubeconfig = false;  // skipped (not applicable) without one
  // A file the driver answers (procfs of the module): read under the probe
  // timeout in a thread of its own (bounded_copy.h), since a wedged GPU can
  // block the read itself.
  bool driver_read = false;
  // A file each platform keeps in its own place: the target is where the
  // platform table says (common/platforms.h), not written here.
  PlatformFile platform_file = PlatformFile::kNone;
};

// The row's target: its platform file's places ("a|b|c"), else `target`.
std::string ProbeTarget(const ProbeRow& row);

// The fixed probes. Probes about device-plugin containers are the table
// below; journal slices are common/journal_slices.h.
std::span<const ProbeRow> StaticProbes();

// When a probe about one device-plugin container applies; collect_plan.cc
// decides each from what phases 1 and 2 found.
enum class ContainerWhen {
  kCrictl,         // crictl is the runtime's client
  kHasPid,         // the container's process is known
  kCgroupV1,       // its cgroup directory is known and the devices controller is v1
  kCgroupV2,       // its cgroup directory is known and the hierarchy is v2
  kSystemdScope,   // its cgroup is a systemd scope
  kLogFileGone,    // crictl is there and the container's log file is not
  kRunningCrictl,  // it runs, and crictl is the client
  kRunningCtr,     // it runs, and only containerd's ctr is there
};

// A probe about one device-plugin container (instance = its id). In
// `target` (space separated, as ProbeRow's), the word {crictl} or {ctr}
// stands for the client with its endpoint options and {host_cgroup} for the
// container's cgroup directory as the host command must be given it; {id},
// {pid}, {cgroup} and {scope} are replaced inside words.
struct ContainerProbeRow {
  std::string_view name;  // logical artifact name
  ProbeKind kind;         // kCommand or kFile
  int phase;
  ContainerWhen when;
  std::string_view target = {};
  KeepMode keep = KeepMode::kHead;
  int64_t cap_bytes = 16 * kMiB;
  int64_t stderr_cap_bytes = 1 * kMiB;
};

std::span<const ContainerProbeRow> ContainerProbes();

// False for a phase 1 probe whose evidence the GPU driver cannot change
// (the artifact table's driver_can_change: versions, configuration files,
// the API server's objects): such probes need not end before nvidia-smi
// starts (probe_schedule.h). True for a name the table does not know.
bool DriverCanChange(std::string_view artifact_name);


// Boot offsets sliced: the boot at capture and the one before it.
inline constexpr std::string_view kJournalBoots[] = {"0", "-1"};


}  // namespace gpuf

#endif  // GPUF_COLLECTOR_PROBE_TABLE_H_
