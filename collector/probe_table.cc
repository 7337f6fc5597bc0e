#include "collector/probe_table.h"

namespace gpuf {

namespace {

constexpr ProbeRow kStaticProbes[] = {
    // Boot and clock.
    {artifact::kBootProcStat, ProbeKind::kFile, kPhasePassive, "/proc/stat"},
    {artifact::kBootProcUptime, ProbeKind::kFile, kPhasePassive, "/proc/uptime"},
    {artifact::kBootBootId, ProbeKind::kFile, kPhasePassive, "/proc/sys/kernel/random/boot_id"},
    {artifact::kHostLocaltime, ProbeKind::kListing, kPhasePassive, "/etc/localtime"},
    {artifact::kHostTimezone, ProbeKind::kFile, kPhasePassive, "/etc/timezone"},
    {artifact::kHostHostname, ProbeKind::kFile, kPhasePassive, "/etc/hostname"},
    {artifact::kHostMachineId, ProbeKind::kFile, kPhasePassive, "/etc/machine-id"},
    {artifact::kHostOsRelease, ProbeKind::kFile, kPhasePassive, "/etc/os-release"},
    {artifact::kHostUname, ProbeKind::kCommand, kPhasePassive, "uname -a"},
    // Kernel and driver, read from procfs and sysfs without touching the driver.
    {artifact::kKernelVersion, ProbeKind::kFile, kPhasePassive, "/proc/version"},
    {artifact::kKernelOsrelease, ProbeKind::kFile, kPhasePassive, "/proc/sys/kernel/osrelease"},
    {artifact::kKernelCmdline, ProbeKind::kFile, kPhasePassive, "/proc/cmdline"},
    {artifact::kKernelDevices, ProbeKind::kFile, kPhasePassive, "/proc/devices"},
    // The kernel ring: the analyzer reads it where the journal has no kernel line of the boot.
    {artifact::kHostDmesg, ProbeKind::kCommand, kPhasePassive, "dmesg", KeepMode::kTail, 16 * kMiB},
    // The fabric manager logs its reasons to its own file; the journal gets its start and stop.
    {.name = artifact::kHostFabricmanagerLog, .kind = ProbeKind::kFile, .phase = kPhasePassive, .keep = KeepMode::kTail,
     .platform_file = PlatformFile::kFabricManagerLog},
    {artifact::kDriverVersion, ProbeKind::kFile, kPhasePassive, "/proc/driver/nvidia/version", KeepMode::kHead,
     16 * kMiB, false, true},
    {artifact::kDriverGpuInformation, ProbeKind::kFile, kPhasePassive, "/proc/driver/nvidia/gpus/*/information",
     KeepMode::kHead, 16 * kMiB, false, true},
    {artifact::kPciNvidiaFunctions, ProbeKind::kPciTable, kPhasePassive, "/sys/bus/pci/devices"},
    // Device nodes, listed, never opened.
    {artifact::kDevNvidiaNodes, ProbeKind::kListing, kPhasePassive,
     "/dev/nvidia* /dev/nvidia-caps/* /dev/nvidia-caps-imex-channels/*"},
    {artifact::kDevCharLinks, ProbeKind::kListing, kPhasePassive, "/dev/char/*"},
    // cgroups.
    {artifact::kCgroupStatfs, ProbeKind::kStatfs, kPhasePassive, "/sys/fs/cgroup"},
    {artifact::kCgroupMountinfo, ProbeKind::kFile, kPhasePassive, "/proc/1/mountinfo"},
    // Versions.
    {artifact::kVersionsContainerd, ProbeKind::kCommand, kPhasePassive, "containerd --version"},
    {artifact::kVersionsRunc, ProbeKind::kCommand, kPhasePassive, "runc --version"},
    {artifact::kVersionsNvidiaCtk, ProbeKind::kCommand, kPhasePassive, "nvidia-ctk --version"},
    {artifact::kVersionsNvidiaContainerCli, ProbeKind::kCommand, kPhasePassive,
     "nvidia-container-cli --version"},
    {artifact::kVersionsKubelet, ProbeKind::kCommand, kPhasePassive, "kubelet --version"},
    {artifact::kVersionsSystemctl, ProbeKind::kCommand, kPhasePassive, "systemctl --version"},
    {artifact::kVersionsCrictl, ProbeKind::kCommand, kPhasePassive, "crictl --version"},
    {artifact::kVersionsCrio, ProbeKind::kCommand, kPhasePassive, "crio --version"},
    {artifact::kVersionsCrun, ProbeKind::kCommand, kPhasePassive, "crun --version"},
    {artifact::kSystemdUnits, ProbeKind::kCommand, kPhasePassive,
     "systemctl show --no-pager "
     "--property=Id,LoadState,ActiveState,SubState,ActiveEnterTimestamp,"
     "ActiveEnterTimestampMonotonic,ExecMainStartTimestamp,ExecMainPID,NRestarts,NeedDaemonReload "
     "nvidia-persistenced.service nvidia-fabricmanager.service kubelet.service containerd.service crio.service"},
    // Runtime configuration (k3s and RKE2 generate their embedded containerd's under their own tree).
    {.name = artifact::kConfigContainerd, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .platform_file = PlatformFile::kContainerdConfig},
    {artifact::kConfigContainerdDropin, ProbeKind::kFile, kPhasePassive,
     "/etc/containerd/conf.d/*.toml /etc/containerd/config.d/*.toml"},
    // The GPU Operator installs the toolkit, and its config, under /usr/local/nvidia/toolkit.
    {.name = artifact::kConfigNvidiaContainerRuntime, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .platform_file = PlatformFile::kToolkitConfig},
    {artifact::kConfigCrio, ProbeKind::kFile, kPhasePassive, "/etc/crio/crio.conf /etc/crio/crio.conf.d/*.conf"},
    // EKS on AL2023 (nodeadm) writes the kubelet's config as JSON under /etc/kubernetes/kubelet.
    {.name = artifact::kConfigKubelet, .kind = ProbeKind::kFile, .phase = kPhasePassive,
     .platform_file = PlatformFile::kKubeletConfig},
    {artifact::kConfigCrictl, ProbeKind::kFile, kPhasePassive, "/etc/crictl.yaml"},
    {artifact::kConfigCdi, ProbeKind::kFile, kPhasePassive, "/etc/cdi/* /var/run/cdi/*"},
    // Kubelet device-plugin directory: socket order is evidence.
    {artifact::kKubeletDevicePlugins, ProbeKind::kListing, kPhasePassive,
     "/var/lib/kubelet/device-plugins /var/lib/kubelet/device-plugins/*"},
    {artifact::kKubeletCheckpoint, ProbeKind::kFile, kPhasePassive,
     "/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint"},
    // Container runtime state.
    {artifact::kRuntimeCrictlPs, ProbeKind::kCommand, kPhasePassive, "crictl ps -a -o json"},
    {artifact::kRuntimeCrictlPods, ProbeKind::kCommand, kPhasePassive, "crictl pods -o json"},
    {artifact::kRuntimeCrictlInfo, ProbeKind::kCommand, kPhasePassive, "crictl info -o json",
     KeepMode::kHead, 16 * kMiB},
    // Kubernetes view, when a kubeconfig is usable.
    {artifact::kK8sNode, ProbeKind::kCommand, kPhasePassive,
     "kubectl --kubeconfig {kubeconfig} --request-timeout=5s get node {node} -o json",
     KeepMode::kHead, 16 * kMiB, true},
    {artifact::kK8sNodePods, ProbeKind::kCommand, kPhasePassive,
     "kubectl --kubeconfig {kubeconfig} --request-timeout=5s get pods -A --field-selector "
     "spec.nodeName={node} -o json",
     KeepMode::kHead, 64 * kMiB, true},
    // What the kubelet and the controllers said of the Node (Rebooted, NodeReady, NodeNotReady), as far
    // as the API server's event TTL (1 h by default) keeps it; a cluster-scoped object's events are in default.
    {artifact::kK8sEvents, ProbeKind::kCommand, kPhasePassive,
     "kubectl --kubeconfig {kubeconfig} --request-timeout=5s get events -n default --field-selector "
     "involvedObject.kind=Node,involvedObject.name={node} -o json",
     KeepMode::kHead, 16 * kMiB, true},
    // Host GPUs, last: nvidia-smi may load modules and create device nodes.
    {artifact::kHostNvidiaSmiList, ProbeKind::kCommand, kPhaseDriver, "nvidia-smi -L"},
    {artifact::kHostNvidiaSmiQueryXml, ProbeKind::kCommand, kPhaseDriver, "nvidia-smi -q -x"},
};

constexpr ContainerProbeRow kContainerProbes[] = {
    // Phase 2: the runtime's view of the container.
    {artifact::kPluginInspect, ProbeKind::kCommand, kPhaseRuntime, ContainerWhen::kCrictl,
     "{crictl} inspect -o json {id}", KeepMode::kHead, 16 * kMiB, 1 * kMiB},
    // Phase 3: its device cgroup, and its log when the file is gone.
    {artifact::kPluginProcCgroup, ProbeKind::kFile, kPhaseContainer, ContainerWhen::kHasPid, "/proc/{pid}/cgroup"},
    {artifact::kPluginDevicesList, ProbeKind::kFile, kPhaseContainer, ContainerWhen::kCgroupV1,
     "/sys/fs/cgroup/devices/{cgroup}/devices.list"},
    {artifact::kPluginBpftoolCgroup, ProbeKind::kCommand, kPhaseContainer, ContainerWhen::kCgroupV2,
     "bpftool cgroup list {host_cgroup}"},
    {artifact::kPluginSystemdScope, ProbeKind::kCommand, kPhaseContainer, ContainerWhen::kSystemdScope,
     "systemctl show --no-pager -p DeviceAllow -p DevicePolicy -p NeedDaemonReload {scope}"},
    // crictl logs writes the container's stderr to its own stderr.
    {artifact::kPluginCrictlLogs, ProbeKind::kCommand, kPhaseContainer, ContainerWhen::kLogFileGone,
     "{crictl} logs --timestamps {id}", KeepMode::kTail, 32 * kMiB, 32 * kMiB},
    // Phase 4: NVML as the plugin sees it.
    {artifact::kPluginNvidiaSmiList, ProbeKind::kCommand, kPhaseDriver, ContainerWhen::kRunningCrictl,
     "{crictl} exec {id} nvidia-smi -L"},
    {artifact::kPluginNvidiaSmiList, ProbeKind::kCommand, kPhaseDriver, ContainerWhen::kRunningCtr,
     "{ctr} tasks exec --exec-id gpuforensics-nvidia-smi {id} nvidia-smi -L"},
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
