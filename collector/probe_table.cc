#include "collector/probe_table.h"

namespace gpuf {

namespace {

constexpr ProbeRow kStaticProbes[] = {
    // Boot and clock.
    {.name = artifact::kBootProcStat, .kind = ProbeKind::kFile, .phase = kPhasePassive, .target = "/proc/stat"},
    {.name = artifact::kBootProcUptime, .kind = ProbeKind::kFile, .phase = kPhasePassive, .target = "/proc/uptime"},
    {.name = artifact::kBootBootId, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .target = "/proc/sys/kernel/random/boot_id"},
    {.name = artifact::kHostLocaltime, .kind = ProbeKind::kListing, .phase = kPhasePassive, .target = "/etc/localtime"},
    {.name = artifact::kHostTimezone, .kind = ProbeKind::kFile, .phase = kPhasePassive, .target = "/etc/timezone"},
    {.name = artifact::kHostHostname, .kind = ProbeKind::kFile, .phase = kPhasePassive, .target = "/etc/hostname"},
    {.name = artifact::kHostMachineId, .kind = ProbeKind::kFile, .phase = kPhasePassive, .target = "/etc/machine-id"},
    {.name = artifact::kHostOsRelease, .kind = ProbeKind::kFile, .phase = kPhasePassive, .target = "/etc/os-release"},
    {.name = artifact::kHostUname, .kind = ProbeKind::kCommand, .phase = kPhasePassive, .target = "uname -a"},
    // Kernel and driver, read from procfs and sysfs without touching the driver.
    {.name = artifact::kKernelVersion, .kind = ProbeKind::kFile, .phase = kPhasePassive, .target = "/proc/version"},
    {.name = artifact::kKernelOsrelease, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .target = "/proc/sys/kernel/osrelease"},
    {.name = artifact::kKernelCmdline, .kind = ProbeKind::kFile, .phase = kPhasePassive, .target = "/proc/cmdline"},
    {.name = artifact::kKernelDevices, .kind = ProbeKind::kFile, .phase = kPhasePassive, .target = "/proc/devices"},
    // The kernel ring: the analyzer reads it where the journal has no kernel line of the boot.
    {.name = artifact::kHostDmesg, .kind = ProbeKind::kCommand, .phase = kPhasePassive, .target = "dmesg",
     .keep = KeepMode::kTail},
    // The fabric manager logs its reasons to its own file; the journal gets its start and stop.
    {.name = artifact::kHostFabricmanagerLog, .kind = ProbeKind::kFile, .phase = kPhasePassive, .keep = KeepMode::kTail,
     .platform_file = PlatformFile::kFabricManagerLog},
    {.name = artifact::kDriverVersion, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .target = "/proc/driver/nvidia/version", .driver_read = true},
    {.name = artifact::kDriverGpuInformation, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .target = "/proc/driver/nvidia/gpus/*/information", .driver_read = true},
    {.name = artifact::kPciNvidiaFunctions, .kind = ProbeKind::kPciTable, .phase = kPhasePassive,
     .target = "/sys/bus/pci/devices"},
    // Device nodes, listed, never opened.
    {.name = artifact::kDevNvidiaNodes, .kind = ProbeKind::kListing, .phase = kPhasePassive,
     .target = "/dev/nvidia* /dev/nvidia-caps/* /dev/nvidia-caps-imex-channels/*"},
    {.name = artifact::kDevCharLinks, .kind = ProbeKind::kListing, .phase = kPhasePassive, .target = "/dev/char/*"},
    // cgroups.
    {.name = artifact::kCgroupStatfs, .kind = ProbeKind::kStatfs, .phase = kPhasePassive, .target = "/sys/fs/cgroup"},
    {.name = artifact::kCgroupMountinfo, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .target = "/proc/1/mountinfo"},
    // Versions.
    {.name = artifact::kVersionsContainerd, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "containerd --version"},
    {.name = artifact::kVersionsRunc, .kind = ProbeKind::kCommand, .phase = kPhasePassive, .target = "runc --version"},
    {.name = artifact::kVersionsNvidiaCtk, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "nvidia-ctk --version"},
    {.name = artifact::kVersionsNvidiaContainerCli, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "nvidia-container-cli --version"},
    {.name = artifact::kVersionsKubelet, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "kubelet --version"},
    {.name = artifact::kVersionsSystemctl, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "systemctl --version"},
    {.name = artifact::kVersionsCrictl, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "crictl --version"},
    {.name = artifact::kVersionsCrio, .kind = ProbeKind::kCommand, .phase = kPhasePassive, .target = "crio --version"},
    {.name = artifact::kVersionsCrun, .kind = ProbeKind::kCommand, .phase = kPhasePassive, .target = "crun --version"},
    {.name = artifact::kSystemdUnits, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "systemctl show --no-pager "
               "--property=Id,LoadState,ActiveState,SubState,ActiveEnterTimestamp,"
               "ActiveEnterTimestampMonotonic,ExecMainStartTimestamp,ExecMainPID,NRestarts,NeedDaemonReload "
               "nvidia-persistenced.service nvidia-fabricmanager.service kubelet.service containerd.service crio.service"},
    // Runtime configuration (k3s and RKE2 generate their embedded containerd's under their own tree).
    {.name = artifact::kConfigContainerd, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .platform_file = PlatformFile::kContainerdConfig},
    {.name = artifact::kConfigContainerdDropin, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .target = "/etc/containerd/conf.d/*.toml /etc/containerd/config.d/*.toml"},
    // The GPU Operator installs the toolkit, and its config, under /usr/local/nvidia/toolkit.
    {.name = artifact::kConfigNvidiaContainerRuntime, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .platform_file = PlatformFile::kToolkitConfig},
    {.name = artifact::kConfigCrio, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .target = "/etc/crio/crio.conf /etc/crio/crio.conf.d/*.conf"},
    // EKS on AL2023 (nodeadm) writes the kubelet's config as JSON under /etc/kubernetes/kubelet.
    {.name = artifact::kConfigKubelet, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .platform_file = PlatformFile::kKubeletConfig},
    {.name = artifact::kConfigCrictl, .kind = ProbeKind::kFile, .phase = kPhasePassive, .target = "/etc/crictl.yaml"},
    {.name = artifact::kConfigCdi, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .target = "/etc/cdi/* /var/run/cdi/*"},
    // Kubelet device-plugin directory: socket order is evidence.
    {.name = artifact::kKubeletDevicePlugins, .kind = ProbeKind::kListing, .phase = kPhasePassive,
     .target = "/var/lib/kubelet/device-plugins /var/lib/kubelet/device-plugins/*"},
    {.name = artifact::kKubeletCheckpoint, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .target = "/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint"},
    // Container runtime state.
    {.name = artifact::kRuntimeCrictlPs, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "crictl ps -a -o json"},
    {.name = artifact::kRuntimeCrictlPods, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "crictl pods -o json"},
    {.name = artifact::kRuntimeCrictlInfo, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "crictl info -o json"},
    // Kubernetes view, when a kubeconfig is usable.
    {.name = artifact::kK8sNode, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "kubectl --kubeconfig {kubeconfig} --request-timeout=5s get node {node} -o json",
     .needs_kubeconfig = true},
    {.name = artifact::kK8sNodePods, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "kubectl --kubeconfig {kubeconfig} --request-timeout=5s get pods -A "
               "--field-selector spec.nodeName={node} -o json",
     .cap_bytes = 64 * kMiB, .needs_kubeconfig = true},
    // What the kubelet and the controllers said of the Node (Rebooted, NodeReady, NodeNotReady), as far
    // as the API server's event TTL (1 h by default) keeps it; a cluster-scoped object's events are in default.
    {.name = artifact::kK8sEvents, .kind = ProbeKind::kCommand, .phase = kPhasePassive,
     .target = "kubectl --kubeconfig {kubeconfig} --request-timeout=5s get events -n default --field-selector "
               "involvedObject.kind=Node,involvedObject.name={node} -o json",
     .needs_kubeconfig = true},
    // Host GPUs, last: nvidia-smi may load modules and create device nodes.
    {.name = artifact::kHostNvidiaSmiList, .kind = ProbeKind::kCommand, .phase = kPhaseDriver,
     .target = "nvidia-smi -L"},
    {.name = artifact::kHostNvidiaSmiQueryXml, .kind = ProbeKind::kCommand, .phase = kPhaseDriver,
     .target = "nvidia-smi -q -x"},
};

constexpr ContainerProbeRow kContainerProbes[] = {
    // Phase 2: the runtime's view of the container.
    {.name = artifact::kPluginInspect, .kind = ProbeKind::kCommand, .phase = kPhaseRuntime,
     .when = ContainerWhen::kCrictl, .target = "{crictl} inspect -o json {id}"},
    // Phase 3: its device cgroup, and its log when the file is gone.
    {.name = artifact::kPluginProcCgroup, .kind = ProbeKind::kFile, .phase = kPhaseContainer,
     .when = ContainerWhen::kHasPid, .target = "/proc/{pid}/cgroup"},
    {.name = artifact::kPluginDevicesList, .kind = ProbeKind::kFile, .phase = kPhaseContainer,
     .when = ContainerWhen::kCgroupV1, .target = "/sys/fs/cgroup/devices/{cgroup}/devices.list"},
    {.name = artifact::kPluginBpftoolCgroup, .kind = ProbeKind::kCommand, .phase = kPhaseContainer,
     .when = ContainerWhen::kCgroupV2, .target = "bpftool cgroup list {host_cgroup}"},
    {.name = artifact::kPluginSystemdScope, .kind = ProbeKind::kCommand, .phase = kPhaseContainer,
     .when = ContainerWhen::kSystemdScope,
     .target = "systemctl show --no-pager -p DeviceAllow -p DevicePolicy -p NeedDaemonReload {scope}"},
    // crictl logs writes the container's stderr to its own stderr.
    {.name = artifact::kPluginCrictlLogs, .kind = ProbeKind::kCommand, .phase = kPhaseContainer,
     .when = ContainerWhen::kLogFileGone, .target = "{crictl} logs --timestamps {id}", .keep = KeepMode::kTail,
     .cap_bytes = 32 * kMiB, .stderr_cap_bytes = 32 * kMiB},
    // Phase 4: NVML as the plugin sees it.
    {.name = artifact::kPluginNvidiaSmiList, .kind = ProbeKind::kCommand, .phase = kPhaseDriver,
     .when = ContainerWhen::kRunningCrictl, .target = "{crictl} exec {id} nvidia-smi -L"},
    {.name = artifact::kPluginNvidiaSmiList, .kind = ProbeKind::kCommand, .phase = kPhaseDriver,
     .when = ContainerWhen::kRunningCtr,
     .target = "{ctr} tasks exec --exec-id gpuforensics-nvidia-smi {id} nvidia-smi -L"},
};

}  // namespace

std::string ProbeTarget(const ProbeRow& row) {
  return row.platform_file == PlatformFile::kNone ? std::string(row.target)
                                                   : PlatformFileAlternatives(row.platform_file);
}

std::span<const ContainerProbeRow> ContainerProbes() { return kContainerProbes; }

ArtifactKind StoredKind(ProbeKind kind) {
  switch (kind) {
    case ProbeKind::kCommand: return ArtifactKind::kCommand;
    case ProbeKind::kFile: return ArtifactKind::kFile;
    case ProbeKind::kListing: return ArtifactKind::kListing;
    case ProbeKind::kPciTable:
    case ProbeKind::kStatfs: return ArtifactKind::kTable;
  }
  return ArtifactKind::kFile;
}

std::span<const ProbeRow> StaticProbes() { return kStaticProbes; }

bool DriverCanChange(std::string_view artifact_name) {
  const ArtifactRow* row = FindArtifact(artifact_name);
  return row == nullptr || row->driver_can_change;
}

}  // namespace gpuf
