#include "importer/artifact_map.h"

#include "common/artifacts.h"

namespace gpuf {

using namespace artifact;

// sos names a command's output file after the command line: spaces become
// '_' and '/' becomes '.' (sos_commands/<plugin>/<mangled command>).
const std::vector<PathRule>& SosPathRules() {
  static const std::vector<PathRule> rules = {
      {"sos_commands/logs/journalctl_--no-pager_--catalog_--boot", "", Conversion::kJournalText, "boot:0"},
      {"sos_commands/logs/journalctl_--no-pager_--catalog_--boot_-1", "", Conversion::kJournalText, "boot:-1"},
      {"sos_commands/kernel/dmesg", kJournalKernel, Conversion::kDmesg, "boot:0"},
      {"sos_commands/systemd/journalctl_--list-boots", kBootListBoots, Conversion::kAsIs, ""},
      {"proc/stat", kBootProcStat, Conversion::kAsIs, ""},
      {"proc/uptime", kBootProcUptime, Conversion::kAsIs, ""},
      {"proc/sys/kernel/random/boot_id", kBootBootId, Conversion::kAsIs, ""},
      {"proc/cmdline", kKernelCmdline, Conversion::kAsIs, ""},
      {"proc/devices", kKernelDevices, Conversion::kAsIs, ""},
      {"proc/version", kKernelVersion, Conversion::kAsIs, ""},
      {"proc/sys/kernel/osrelease", kKernelOsrelease, Conversion::kAsIs, ""},
      {"proc/1/mountinfo", kCgroupMountinfo, Conversion::kAsIs, ""},
      {"proc/driver/nvidia/version", kDriverVersion, Conversion::kAsIs, ""},
      {"proc/driver/nvidia/gpus/*/information", kDriverGpuInformation, Conversion::kAsIs, "path"},
      {"sos_commands/kernel/uname_-a", kHostUname, Conversion::kAsIs, ""},
      {"sos_commands/pci/lspci_-nn*", kPciNvidiaFunctions, Conversion::kLspci, ""},
      {"sos_commands/host/hostname", kHostHostname, Conversion::kAsIs, ""},
      {"etc/os-release", kHostOsRelease, Conversion::kAsIs, ""},
      {"etc/machine-id", kHostMachineId, Conversion::kAsIs, ""},
      {"etc/timezone", kHostTimezone, Conversion::kAsIs, ""},
      {"sos_commands/nvidia/nvidia-smi_--list-gpus", kHostNvidiaSmiList, Conversion::kAsIs, ""},
      {"sos_commands/nvidia/nvidia-smi_-L", kHostNvidiaSmiList, Conversion::kAsIs, ""},
      {"sos_commands/crio/crictl_ps_-a", kRuntimeCrictlPs, Conversion::kCrictlTable, ""},
      {"sos_commands/crio/crictl_info", kRuntimeCrictlInfo, Conversion::kAsIs, ""},
      {"sos_commands/crio/crictl_version", kVersionsCrictl, Conversion::kVersions, ""},
      {"sos_commands/crio/crictl_inspect_*", kPluginInspect, Conversion::kPluginInspect, ""},
      {"sos_commands/crio/containers/crictl_logs_-t_*", kPluginCrictlLogs, Conversion::kPluginLog, ""},
      {"sos_commands/containerd/containerd_--version", kVersionsContainerd, Conversion::kVersions, ""},
      {"sos_commands/runc/runc_--version", kVersionsRunc, Conversion::kVersions, ""},
      {"etc/kubernetes/manifests/*", kConfigStaticPod, Conversion::kStaticPod, "path"},
      {"etc/containerd/config.toml", kConfigContainerd, Conversion::kAsIs, ""},
      {"etc/nvidia-container-runtime/config.toml", kConfigNvidiaContainerRuntime, Conversion::kAsIs, ""},
      {"etc/crictl.yaml", kConfigCrictl, Conversion::kAsIs, ""},
      {"var/lib/kubelet/config.yaml", kConfigKubelet, Conversion::kAsIs, ""},
  };
  return rules;
}

// nvidia-bug-report.sh prints "*** <path>" before a file it appends and the
// command line before a command's output; "./" appears in its glob paths.
const std::vector<SectionRule>& BugReportSectionRules() {
  static const std::vector<SectionRule> rules = {
      {"\\*\\*\\* /proc/driver/nvidia/version", kDriverVersion, Conversion::kAsIs, ""},
      {"\\*\\*\\* /proc/driver/nvidia/./version", kDriverVersion, Conversion::kAsIs, ""},
      {"\\*\\*\\* /proc/driver/nvidia/gpus/*/information", kDriverGpuInformation, Conversion::kAsIs, "path"},
      {"\\*\\*\\* /proc/driver/nvidia/./gpus/*/information", kDriverGpuInformation, Conversion::kAsIs, "path"},
      {"\\*\\*\\* /proc/cmdline", kKernelCmdline, Conversion::kAsIs, ""},
      {"\\*\\*\\* /proc/version", kKernelVersion, Conversion::kAsIs, ""},
      {"\\*\\*\\* /proc/devices", kKernelDevices, Conversion::kAsIs, ""},
      {"\\*\\*\\* /etc/os-release", kHostOsRelease, Conversion::kAsIs, ""},
      {"*nvidia-smi --query", kHostNvidiaSmiList, Conversion::kSmiQuery, ""},
      {"*nvidia-smi -q", kHostNvidiaSmiList, Conversion::kSmiQuery, ""},
      {"journalctl -b -0*", "", Conversion::kJournalText, "boot:0"},
      {"journalctl -b -1*", "", Conversion::kJournalText, "boot:-1"},
      {"*dmesg*", kJournalKernel, Conversion::kDmesg, "boot:0"},
      {"*lspci -nn*", kPciNvidiaFunctions, Conversion::kLspci, ""},
  };
  return rules;
}

namespace {

std::vector<std::string> Names(std::initializer_list<std::string_view> names) {
  return {names.begin(), names.end()};
}

}  // namespace

std::vector<std::string> CannotShow(std::string_view kind) {
  if (kind == "sosreport") {
    // sos lists no device nodes, runs nothing inside containers, reads no
    // cgroup device rules and no pod log files.
    return Names({kDevNvidiaNodes, kDevCharLinks, kKubeletDevicePlugins, kKubeletCheckpoint, kPluginNvidiaSmiList,
                  kPluginDevicesList, kPluginBpftoolCgroup, kPluginBpfDeviceProgram, kPluginSystemdScope, kPluginLog,
                  kCgroupStatfs, kK8sNode});
  }
  if (kind == "nvidia-bug-report") {
    // The driver's view only: nothing of Kubernetes, containers or
    // /dev/nvidia*; its systemctl status is not our unit properties, and
    // the fabric manager's log is a file, not its journal.
    return Names({kDevNvidiaNodes, kDevCharLinks, kKubeletDevicePlugins, kKubeletCheckpoint, kRuntimeCrictlPs,
                  kPluginInspect, kPluginLog, kPluginCrictlLogs, kPluginNvidiaSmiList, kPluginDevicesList,
                  kPluginBpftoolCgroup, kPluginBpfDeviceProgram, kPluginSystemdScope, kJournalKubelet, kHostKubeletLog,
                  kJournalContainerd, kJournalNvidiaFabricmanager, kJournalNvidiaDevicePlugin, kSystemdUnits,
                  kConfigContainerd, kConfigNvidiaContainerRuntime, kConfigStaticPod, kK8sNode});
  }
  if (kind == "must-gather") {
    // Cluster-side objects and operand logs; the node is seen only through
    // the driver pod's nvidia-bug-report.
    return Names({kDevNvidiaNodes, kDevCharLinks, kKubeletDevicePlugins, kKubeletCheckpoint, kRuntimeCrictlPs,
                  kPluginInspect, kPluginNvidiaSmiList, kPluginDevicesList, kPluginBpftoolCgroup, kPluginBpfDeviceProgram,
                  kPluginSystemdScope, kJournalKubelet, kHostKubeletLog, kJournalContainerd, kJournalSystemd,
                  kJournalNvidiaDevicePlugin, kPciNvidiaFunctions, kSystemdUnits, kConfigContainerd,
                  kConfigNvidiaContainerRuntime});
  }
  if (kind == "evidence-dir") {
    // A runbook capture has what was asked for, never the container's
    // device-cgroup rules or its full spec.
    return Names(
        {kPluginDevicesList, kPluginBpftoolCgroup, kPluginBpfDeviceProgram, kPluginSystemdScope, kKubeletCheckpoint});
  }
  return {};
}

}  // namespace gpuf
