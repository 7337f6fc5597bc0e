// Every logical artifact a bundle can hold, in one table, and the named
// groups rules use instead of repeating lists (schema/bundle.md is the
// prose; a test holds the two together).
//
// A name is written once, here: the collector's probes, the importer's
// maps, the analyzer's loader table, the chain verdict, diff and timeline
// use the constants below, and `rules lint` refuses a rule that names an
// artifact or group this table does not know. Renaming an artifact is one
// edit of its constant; removing one fails the build where it is used.
#ifndef GPUF_COMMON_ARTIFACTS_H_
#define GPUF_COMMON_ARTIFACTS_H_

#include <span>
#include <string_view>

namespace gpuf {

namespace artifact {
inline constexpr std::string_view kBootProcStat = "boot.proc_stat";
inline constexpr std::string_view kBootProcUptime = "boot.proc_uptime";
inline constexpr std::string_view kBootBootId = "boot.boot_id";
inline constexpr std::string_view kBootListBoots = "boot.list_boots";
inline constexpr std::string_view kHostLocaltime = "host.localtime";
inline constexpr std::string_view kHostTimezone = "host.timezone";
inline constexpr std::string_view kHostHostname = "host.hostname";
inline constexpr std::string_view kHostMachineId = "host.machine_id";
inline constexpr std::string_view kHostOsRelease = "host.os_release";
inline constexpr std::string_view kHostUname = "host.uname";
inline constexpr std::string_view kKernelVersion = "kernel.version";
inline constexpr std::string_view kKernelOsrelease = "kernel.osrelease";
inline constexpr std::string_view kKernelCmdline = "kernel.cmdline";
inline constexpr std::string_view kKernelDevices = "kernel.devices";
inline constexpr std::string_view kDriverVersion = "driver.version";
inline constexpr std::string_view kDriverGpuInformation = "driver.gpu_information";
inline constexpr std::string_view kPciNvidiaFunctions = "pci.nvidia_functions";
inline constexpr std::string_view kDevNvidiaNodes = "dev.nvidia_nodes";
inline constexpr std::string_view kDevCharLinks = "dev.char_links";
inline constexpr std::string_view kCgroupStatfs = "cgroup.statfs";
inline constexpr std::string_view kCgroupMountinfo = "cgroup.mountinfo";
inline constexpr std::string_view kVersionsContainerd = "versions.containerd";
inline constexpr std::string_view kVersionsRunc = "versions.runc";
inline constexpr std::string_view kVersionsNvidiaCtk = "versions.nvidia_ctk";
inline constexpr std::string_view kVersionsNvidiaContainerCli = "versions.nvidia_container_cli";
inline constexpr std::string_view kVersionsKubelet = "versions.kubelet";
inline constexpr std::string_view kVersionsSystemctl = "versions.systemctl";
inline constexpr std::string_view kVersionsCrictl = "versions.crictl";
inline constexpr std::string_view kVersionsCrio = "versions.crio";
inline constexpr std::string_view kVersionsCrun = "versions.crun";
inline constexpr std::string_view kSystemdUnits = "systemd.units";
inline constexpr std::string_view kConfigContainerd = "config.containerd";
inline constexpr std::string_view kConfigContainerdDropin = "config.containerd_dropin";
inline constexpr std::string_view kConfigNvidiaContainerRuntime = "config.nvidia_container_runtime";
inline constexpr std::string_view kConfigCrio = "config.crio";
inline constexpr std::string_view kConfigKubelet = "config.kubelet";
inline constexpr std::string_view kConfigCrictl = "config.crictl";
inline constexpr std::string_view kConfigCdi = "config.cdi";
inline constexpr std::string_view kConfigStaticPod = "config.static_pod";
inline constexpr std::string_view kKubeletDevicePlugins = "kubelet.device_plugins";
inline constexpr std::string_view kKubeletCheckpoint = "kubelet.checkpoint";
inline constexpr std::string_view kRuntimeCrictlPs = "runtime.crictl_ps";
inline constexpr std::string_view kRuntimeCrictlPods = "runtime.crictl_pods";
inline constexpr std::string_view kRuntimeCrictlInfo = "runtime.crictl_info";
inline constexpr std::string_view kRuntimeCtrContainers = "runtime.ctr_containers";
inline constexpr std::string_view kRuntimeCtrTasks = "runtime.ctr_tasks";
inline constexpr std::string_view kRuntimeCtrContainerInfo = "runtime.ctr_container_info";
inline constexpr std::string_view kPluginInspect = "plugin.inspect";
inline constexpr std::string_view kPluginProcCgroup = "plugin.proc_cgroup";
inline constexpr std::string_view kPluginDevicesList = "plugin.devices_list";
inline constexpr std::string_view kPluginBpftoolCgroup = "plugin.bpftool_cgroup";
inline constexpr std::string_view kPluginBpfDeviceProgram = "plugin.bpf_device_program";
inline constexpr std::string_view kPluginSystemdScope = "plugin.systemd_scope";
inline constexpr std::string_view kPluginCrictlLogs = "plugin.crictl_logs";
inline constexpr std::string_view kPluginNvidiaSmiList = "plugin.nvidia_smi_list";
inline constexpr std::string_view kPluginLog = "plugin.log";
inline constexpr std::string_view kJournalKernel = "journal.kernel";
inline constexpr std::string_view kHostDmesg = "host.dmesg";
inline constexpr std::string_view kHostFabricmanagerLog = "host.fabricmanager_log";
inline constexpr std::string_view kHostKubeletLog = "host.kubelet_log";
inline constexpr std::string_view kJournalSystemd = "journal.systemd";
inline constexpr std::string_view kJournalKubelet = "journal.kubelet";
inline constexpr std::string_view kJournalContainerd = "journal.containerd";
inline constexpr std::string_view kJournalNvidiaPersistenced = "journal.nvidia_persistenced";
inline constexpr std::string_view kJournalNvidiaFabricmanager = "journal.nvidia_fabricmanager";
inline constexpr std::string_view kJournalNvidiaDevicePlugin = "journal.nvidia_device_plugin";
inline constexpr std::string_view kJournalJournald = "journal.journald";
inline constexpr std::string_view kK8sNode = "k8s.node";
inline constexpr std::string_view kK8sNodePods = "k8s.node_pods";
inline constexpr std::string_view kK8sEvents = "k8s.events";
inline constexpr std::string_view kK8sMetrics = "k8s.metrics";
inline constexpr std::string_view kK8sCluster = "k8s.cluster";
inline constexpr std::string_view kK8sPluginDaemonSet = "k8s.plugin_daemonset";
inline constexpr std::string_view kK8sPodText = "k8s.pod_text";
inline constexpr std::string_view kK8sPods = "k8s.pods";
inline constexpr std::string_view kK8sNodeText = "k8s.node_text";
inline constexpr std::string_view kRuntimeErrors = "runtime.errors";
inline constexpr std::string_view kHostNvidiaSmi = "host.nvidia_smi";
inline constexpr std::string_view kPluginNvidiaSmi = "plugin.nvidia_smi";
inline constexpr std::string_view kSavedNvidiaSmiList = "saved.nvidia_smi_list";
inline constexpr std::string_view kSavedNvidiaSmi = "saved.nvidia_smi";
inline constexpr std::string_view kSavedText = "saved.text";
inline constexpr std::string_view kHostNvidiaSmiList = "host.nvidia_smi_list";
inline constexpr std::string_view kHostNvidiaSmiQueryXml = "host.nvidia_smi_query_xml";
}  // namespace artifact

// How an artifact is stored (the manifest's `kind`): a command keeps its
// stdout and stderr apart; the other kinds keep one `content` stream.
enum class ArtifactKind { kCommand, kFile, kListing, kTable };
std::string_view ArtifactKindName(ArtifactKind kind);  // "command" | "file" | "listing" | "table"

struct ArtifactRow {
  std::string_view name;
  ArtifactKind kind;
  // False where nvidia-smi cannot change what the artifact shows (versions
  // of installed binaries, configuration files, the API server's objects):
  // such a passive probe may run beside the driver's probes
  // (collector/probe_schedule.h).
  bool driver_can_change;
  // False for what is not kept line by line in artifact_lines: the journal
  // (journal_entries holds every line) and documents read whole.
  bool keeps_lines;
  std::string_view description;  // one line, for people
  // The command that captures it by hand, run on the node unless it says
  // otherwise; <...> is what the reader fills in. The report's advice on an
  // imported input: what to capture next time, what would decide a finding.
  std::string_view capture;

  // The stream the loaders read and an importer stores: stdout or content.
  std::string_view stream() const;
};

std::span<const ArtifactRow> ArtifactTable();

// The row named `name`, or nullptr.
const ArtifactRow* FindArtifact(std::string_view name);

// The row's capture for `artifact`; a `journal.*` pattern gets the boot's
// journalctl, a name no row has "gpuforensics collect".
std::string_view CaptureCommand(std::string_view artifact);

// A name rules use for several artifacts read alike ("plugin_logs").
// Group names have no '.', artifact names always have one.
struct ArtifactGroup {
  std::string_view name;
  std::span<const std::string_view> members;
  std::string_view description;
};

// Every source of the device plugin's own log lines: its pod log files,
// crictl's copy when the file is gone, its unit's journal on a host service.
inline constexpr std::string_view kPluginLogsGroup = "plugin_logs";
// The kernel's lines: its journal entries, or the kernel ring (dmesg) where
// the journal holds none of the boot at capture (volatile, or kernel lines
// not forwarded).
inline constexpr std::string_view kKernelLogsGroup = "kernel_logs";
inline constexpr std::string_view kKubeletLogsGroup = "kubelet_logs";

std::span<const ArtifactGroup> ArtifactGroups();

// The group named `name`, or nullptr.
const ArtifactGroup* FindArtifactGroup(std::string_view name);

// Whether `name` is in the group `group`; false for an unknown group.
bool InArtifactGroup(std::string_view group, std::string_view name);

// Whether a rule's `pattern` names something: a known artifact, or a
// prefix ending in '*' ("journal.*") that at least one artifact has.
bool KnownArtifactPattern(std::string_view pattern);

}  // namespace gpuf

#endif  // GPUF_COMMON_ARTIFACTS_H_
