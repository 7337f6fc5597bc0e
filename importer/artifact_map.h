// The knowledge of other tools' layouts, as data: which of their files or
// sections holds which of our logical artifacts (schema/bundle.md), how its
// text is turned into our stored format, and which artifacts a kind of input
// never carries.
#ifndef GPUF_IMPORTER_ARTIFACT_MAP_H_
#define GPUF_IMPORTER_ARTIFACT_MAP_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

enum class Conversion {
  kAsIs,           // already in the collector's stored format
  kJournalText,    // journalctl short text -> journal.* slices (ConvertJournalText)
  kDmesg,          // dmesg -> journal.kernel
  kLsListing,      // ls -l -> dev.* / kubelet.device_plugins listings
  kCrictlTable,    // crictl ps -a table -> runtime.crictl_ps JSON
  kPluginLog,      // kubectl logs / CRI log file -> plugin.crictl_logs / plugin.log
  kSmiQuery,       // nvidia-smi -q text -> host.nvidia_smi_list
  kVersions,       // --version outputs, one or several tools -> versions.*
  kUptimeSince,    // `uptime -s` -> the boot's start (boot.proc_stat btime)
  kPluginInspect,  // crictl inspect JSON, kept when it is a device plugin's
  kStaticPod,      // a pod manifest, kept when it runs the device plugin
  kLspci,          // lspci (-nn or not) -> pci.nvidia_functions, its NVIDIA rows
  // Saved by hand (importer/input_shapes.h):
  kKlogLog,          // klog, Go-log or container-log text: the device plugin's, the kubelet's or the toolkit's
  kNvidiaSmi,        // nvidia-smi -L, its errors or its table: host.*, plugin.* or saved.* by the view
  kSystemctlStatus,  // systemctl status (or a failed systemctl start) -> systemd.units, and its journal tail
};

// One file of a sos report (path relative to the report's top directory).
struct PathRule {
  std::string_view pattern;   // fnmatch(3) glob
  std::string_view name;      // logical name; journal conversions split by identifier
  Conversion conversion;
  std::string_view instance;  // "boot:0", "boot:-1", "path" (the host path: "/" + file), or ""
};

const std::vector<PathRule>& SosPathRules();

// One section of nvidia-bug-report.log, by its header line.
struct SectionRule {
  std::string_view header_glob;  // fnmatch(3) glob on the header ("*** /proc/driver/nvidia/version")
  std::string_view name;
  Conversion conversion;
  std::string_view instance;
};

const std::vector<SectionRule>& BugReportSectionRules();

// Logical artifacts this kind of input never carries, for the report's
// coverage: advice on what to capture next time.
std::vector<std::string> CannotShow(std::string_view kind);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_ARTIFACT_MAP_H_
