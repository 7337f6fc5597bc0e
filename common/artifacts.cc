#include "common/artifacts.h"

#include "common/bundle_layout.h"

namespace gpuf {

namespace {

using namespace artifact;

constexpr ArtifactKind kCommand = ArtifactKind::kCommand;
constexpr ArtifactKind kFile = ArtifactKind::kFile;
constexpr ArtifactKind kListing = ArtifactKind::kListing;
constexpr ArtifactKind kTable = ArtifactKind::kTable;
// driver_can_change
constexpr bool kDriver = true;
constexpr bool kNotDriver = false;
// keeps_lines
constexpr bool kLines = true;
constexpr bool kNoLines = false;

// In the order of schema/bundle.md's list.
constexpr ArtifactRow kArtifacts[] = {
    // Boot and clock.
    {kBootProcStat, kFile, kDriver, "", kLines, "/proc/stat: the boot's start (btime)"},
    {kBootProcUptime, kFile, kDriver, "", kLines, "/proc/uptime"},
    {kBootBootId, kFile, kDriver, "", kLines, "/proc/sys/kernel/random/boot_id"},
    {kBootListBoots, kCommand, kDriver, "", kLines, "journalctl --list-boots, TZ=UTC"},
    {kHostLocaltime, kListing, kDriver, "", kLines, "/etc/localtime, listed: the zone is the link target"},
    {kHostTimezone, kFile, kDriver, "", kLines, "/etc/timezone"},
    {kHostHostname, kFile, kDriver, "", kLines, "/etc/hostname"},
    {kHostMachineId, kFile, kDriver, "", kLines, "/etc/machine-id"},
    {kHostOsRelease, kFile, kDriver, "", kLines, "/etc/os-release"},
    {kHostUname, kCommand, kDriver, "", kLines, "uname -a"},
    // Kernel and driver.
    {kKernelVersion, kFile, kDriver, "", kLines, "/proc/version"},
    {kKernelOsrelease, kFile, kDriver, "", kLines, "/proc/sys/kernel/osrelease"},
    {kKernelCmdline, kFile, kDriver, "", kLines, "/proc/cmdline"},
    {kKernelDevices, kFile, kDriver, "proc_devices", kLines,
     "/proc/devices: the dynamic nvidia-uvm and nvidia-caps majors"},
    {kDriverVersion, kFile, kDriver, "driver_version", kLines, "/proc/driver/nvidia/version"},
    {kDriverGpuInformation, kFile, kDriver, "driver_gpu", kLines,
     "/proc/driver/nvidia/gpus/*/information, one per GPU (instance = path)"},
    {kPciNvidiaFunctions, kTable, kDriver, "pci_table", kLines, "the NVIDIA PCI functions in sysfs"},
    // Device nodes.
    {kDevNvidiaNodes, kListing, kDriver, "device_nodes", kLines,
     "/dev/nvidia*, /dev/nvidia-caps/*, /dev/nvidia-caps-imex-channels/*, listed"},
    {kDevCharLinks, kListing, kDriver, "char_links", kLines, "/dev/char/*, listed"},
    // cgroups.
    {kCgroupStatfs, kTable, kDriver, "statfs", kLines, "the file system type of /sys/fs/cgroup"},
    {kCgroupMountinfo, kFile, kDriver, "mountinfo", kLines, "/proc/1/mountinfo"},
    // Versions of installed binaries: nvidia-smi cannot change them.
    {kVersionsContainerd, kCommand, kNotDriver, "versions", kLines, "containerd --version"},
    {kVersionsRunc, kCommand, kNotDriver, "versions", kLines, "runc --version"},
    {kVersionsNvidiaCtk, kCommand, kNotDriver, "versions", kLines, "nvidia-ctk --version"},
    {kVersionsNvidiaContainerCli, kCommand, kNotDriver, "versions", kLines, "nvidia-container-cli --version"},
    {kVersionsKubelet, kCommand, kNotDriver, "versions", kLines, "kubelet --version"},
    {kVersionsSystemctl, kCommand, kNotDriver, "versions", kLines, "systemctl --version"},
    {kVersionsCrictl, kCommand, kNotDriver, "versions", kLines, "crictl --version"},
    {kVersionsCrio, kCommand, kNotDriver, "versions", kLines, "crio --version"},
    {kVersionsCrun, kCommand, kNotDriver, "versions", kLines, "crun --version"},
    {kSystemdUnits, kCommand, kDriver, "", kLines,
     "systemctl show of nvidia-persistenced, nvidia-fabricmanager, kubelet, containerd and crio"},
    // Configuration files: nvidia-smi cannot change them.
    {kConfigContainerd, kFile, kNotDriver, "containerd_config", kLines, "/etc/containerd/config.toml"},
    {kConfigContainerdDropin, kFile, kNotDriver, "containerd_config", kLines,
     "/etc/containerd/conf.d/*.toml and config.d/*.toml"},
    {kConfigNvidiaContainerRuntime, kFile, kNotDriver, "nvidia_runtime_config", kLines,
     "/etc/nvidia-container-runtime/config.toml"},
    {kConfigCrio, kFile, kNotDriver, "crio_config", kLines, "/etc/crio/crio.conf and its crio.conf.d drop-ins"},
    {kConfigKubelet, kFile, kNotDriver, "kubelet_config", kLines, "/var/lib/kubelet/config.yaml"},
    {kConfigCrictl, kFile, kNotDriver, "", kLines, "/etc/crictl.yaml"},
    {kConfigCdi, kFile, kNotDriver, "", kLines, "/etc/cdi/* and /var/run/cdi/*"},
    {kConfigStaticPod, kFile, kNotDriver, "static_pod", kLines,
     "static pod manifests that mention the device plugin (instance = path)"},
    // Kubelet.
    {kKubeletDevicePlugins, kListing, kDriver, "plugin_sockets", kLines,
     "/var/lib/kubelet/device-plugins, listed: socket mtimes order restarts and registrations"},
    {kKubeletCheckpoint, kFile, kDriver, "kubelet_checkpoint", kLines,
     "/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint"},
    // Runtime.
    {kRuntimeCrictlPs, kCommand, kDriver, "crictl_ps", kLines, "crictl ps -a -o json"},
    {kRuntimeCrictlPods, kCommand, kDriver, "", kLines, "crictl pods -o json"},
    {kRuntimeCrictlInfo, kCommand, kDriver, "crictl_info", kLines, "crictl info -o json"},
    {kRuntimeCtrContainers, kCommand, kDriver, "", kLines, "ctr containers ls -q, without crictl"},
    {kRuntimeCtrTasks, kCommand, kDriver, "", kLines, "ctr tasks ls, without crictl"},
    {kRuntimeCtrContainerInfo, kCommand, kDriver, "ctr_container_info", kLines,
     "ctr containers info, without crictl (instance = container id)"},
    // Device-plugin containers (instance = container id) and pod log files.
    {kPluginInspect, kCommand, kDriver, "crictl_inspect", kLines, "crictl inspect -o json"},
    {kPluginProcCgroup, kFile, kDriver, "proc_cgroup", kLines, "/proc/<pid>/cgroup of the container's process"},
    {kPluginDevicesList, kFile, kDriver, "devices_list", kLines, "the container's devices.list (cgroup v1)"},
    {kPluginBpftoolCgroup, kCommand, kDriver, "bpftool_cgroup", kLines,
     "bpftool cgroup list of the container's cgroup (cgroup v2)"},
    {kPluginBpfDeviceProgram, kCommand, kDriver, "bpf_device_program", kLines,
     "bpftool prog dump xlated of each device program on the container's cgroup (cgroup v2; "
     "instance = container id/program id)"},
    {kPluginSystemdScope, kCommand, kDriver, "systemd_scope", kLines,
     "systemctl show <scope> -p DeviceAllow -p DevicePolicy -p NeedDaemonReload"},
    {kPluginCrictlLogs, kCommand, kDriver, "crictl_logs", kLines,
     "crictl logs --timestamps, only when the log file is gone"},
    {kPluginNvidiaSmiList, kCommand, kDriver, "nvidia_smi_run container_gpu_view", kLines,
     "nvidia-smi -L run inside the container"},
    {kPluginLog, kFile, kDriver, "plugin_log_file", kLines, "a pod log file (instance = path under /var/log/pods)"},
    // Journal slices (common/journal_slices.cc; instance boot:0 and boot:-1).
    {kJournalKernel, kCommand, kDriver, "journal", kNoLines, "the kernel's journal entries"},
    {kHostDmesg, kCommand, kDriver, "kernel_ring", kLines,
     "dmesg: the kernel ring, read as journal lines where the journal holds no kernel line of the boot"},
    {kJournalSystemd, kCommand, kDriver, "journal", kNoLines, "PID 1's entries: unit starts, daemon-reload"},
    {kJournalKubelet, kCommand, kDriver, "journal", kNoLines, "the kubelet's unit (also k3s and MicroK8s)"},
    {kHostKubeletLog, kFile, kNotDriver, "kubelet_log_file", kNoLines,
     "the kubelet's own log file where the platform has one (RKE2), read as its journal lines"},
    {kJournalContainerd, kCommand, kDriver, "journal", kNoLines, "containerd's unit (also CRI-O's)"},
    {kJournalNvidiaPersistenced, kCommand, kDriver, "journal", kNoLines, "nvidia-persistenced's unit"},
    {kJournalNvidiaFabricmanager, kCommand, kDriver, "journal", kNoLines, "nvidia-fabricmanager's unit"},
    {kHostFabricmanagerLog, kFile, kNotDriver, "", kLines,
     "the fabric manager's own log (LOG_FILE_NAME), on the host or in the GPU Operator's driver root"},
    {kJournalNvidiaDevicePlugin, kCommand, kDriver, "journal", kNoLines,
     "the device plugin's unit, where it runs as a host service"},
    {kJournalJournald, kCommand, kDriver, "journal", kNoLines,
     "journald's own lines: what its rate limit suppressed, kernel messages it missed"},
    // Kubernetes: the API server's objects are not on the node.
    {kK8sNode, kCommand, kNotDriver, "node_resources", kLines, "kubectl get node -o json"},
    {kK8sNodePods, kCommand, kNotDriver, "", kNoLines, "kubectl get pods on the node -o json"},
    // Saved by hand and imported (docs/inputs.md), as the person saved them.
    {kK8sEvents, kCommand, kNotDriver, "kube_events", kLines, "kubectl get events or describe's Events, as text"},
    {kK8sPodText, kCommand, kNotDriver, "kube_pod_text", kLines, "kubectl describe pod, get pod -o yaml|json"},
    {kK8sPods, kCommand, kNotDriver, "kube_pods", kLines, "kubectl get pods, its table"},
    {kK8sNodeText, kCommand, kNotDriver, "kube_node_text", kLines, "kubectl describe node, get node -o yaml|json"},
    {kRuntimeErrors, kCommand, kNotDriver, "", kLines, "a container runtime's or the NVIDIA hook's error, pasted"},
    {kHostNvidiaSmi, kCommand, kDriver, "nvidia_smi_run", kLines, "nvidia-smi's table, on the host"},
    {kPluginNvidiaSmi, kCommand, kDriver, "nvidia_smi_run", kLines, "nvidia-smi's table, in the plugin container"},
    {kSavedNvidiaSmiList, kCommand, kDriver, "nvidia_smi_run", kLines, "nvidia-smi -L, where it ran unknown"},
    {kSavedNvidiaSmi, kCommand, kDriver, "nvidia_smi_run", kLines, "nvidia-smi's table, where it ran unknown"},
    {kSavedText, kFile, kNotDriver, "", kLines, "a saved text whose kind could not be told, read for known wordings"},
    // Host GPUs (phase 4).
    {kHostNvidiaSmiList, kCommand, kDriver, "nvidia_smi_list nvidia_smi_run", kLines, "nvidia-smi -L"},
    {kHostNvidiaSmiQueryXml, kCommand, kDriver, "nvidia_smi_xml nvidia_smi_run", kNoLines, "nvidia-smi -q -x"},
};

constexpr std::string_view kPluginLogs[] = {kPluginLog, kPluginCrictlLogs, kJournalNvidiaDevicePlugin};
constexpr std::string_view kKernelLogs[] = {kJournalKernel, kHostDmesg};
constexpr std::string_view kKubeletLogs[] = {kJournalKubelet, kHostKubeletLog};
// Where each GPU's PCI address, UUID and serial are written together.
constexpr std::string_view kGpuInventory[] = {kDriverGpuInformation, kHostNvidiaSmiQueryXml};

constexpr ArtifactGroup kGroups[] = {
    {kPluginLogsGroup, kPluginLogs, "the device plugin's own log lines, wherever it ran"},
    {kKernelLogsGroup, kKernelLogs, "the kernel's lines: its journal entries, or dmesg where the journal has none"},
    {kKubeletLogsGroup, kKubeletLogs, "the kubelet's lines: its journal entries, or its own log file (RKE2)"},
    {"gpu_inventory", kGpuInventory, "each GPU's PCI address, UUID and serial"},
};

}  // namespace

std::string_view ArtifactKindName(ArtifactKind kind) {
  switch (kind) {
    case ArtifactKind::kCommand: return "command";
    case ArtifactKind::kFile: return "file";
    case ArtifactKind::kListing: return "listing";
    case ArtifactKind::kTable: return "table";
  }
  return "file";
}

std::string_view ArtifactRow::stream() const {
  return kind == ArtifactKind::kCommand ? kStreamStdout : kStreamContent;
}

std::span<const ArtifactRow> ArtifactTable() { return kArtifacts; }

const ArtifactRow* FindArtifact(std::string_view name) {
  for (const auto& row : kArtifacts) {
    if (row.name == name) return &row;
  }
  return nullptr;
}

std::span<const ArtifactGroup> ArtifactGroups() { return kGroups; }

const ArtifactGroup* FindArtifactGroup(std::string_view name) {
  for (const auto& group : kGroups) {
    if (group.name == name) return &group;
  }
  return nullptr;
}

bool InArtifactGroup(std::string_view group, std::string_view name) {
  const ArtifactGroup* g = FindArtifactGroup(group);
  if (!g) return false;
  for (auto member : g->members) {
    if (member == name) return true;
  }
  return false;
}

bool KnownArtifactPattern(std::string_view pattern) {
  if (pattern.empty() || pattern.back() != '*') return FindArtifact(pattern) != nullptr;
  std::string_view prefix = pattern.substr(0, pattern.size() - 1);
  for (const auto& row : kArtifacts) {
    if (row.name.substr(0, prefix.size()) == prefix) return true;
  }
  return false;
}

}  // namespace gpuf
