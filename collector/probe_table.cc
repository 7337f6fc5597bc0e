#include "collector/probe_table.h"

namespace gpuf {

namespace {

constexpr ProbeRow kStaticProbes[] = {
    // Boot and clock.
    {"boot.proc_stat", ProbeKind::kFile, kPhasePassive, "/proc/stat"},
    {"boot.proc_uptime", ProbeKind::kFile, kPhasePassive, "/proc/uptime"},
    {"boot.boot_id", ProbeKind::kFile, kPhasePassive, "/proc/sys/kernel/random/boot_id"},
    {"host.localtime", ProbeKind::kListing, kPhasePassive, "/etc/localtime"},
    {"host.timezone", ProbeKind::kFile, kPhasePassive, "/etc/timezone"},
    {"host.hostname", ProbeKind::kFile, kPhasePassive, "/etc/hostname"},
    {"host.machine_id", ProbeKind::kFile, kPhasePassive, "/etc/machine-id"},
    {"host.os_release", ProbeKind::kFile, kPhasePassive, "/etc/os-release"},
    {"host.uname", ProbeKind::kCommand, kPhasePassive, "uname -a"},
    // Kernel and driver, read from procfs and sysfs without touching the driver.
    {"kernel.version", ProbeKind::kFile, kPhasePassive, "/proc/version"},
    {"kernel.osrelease", ProbeKind::kFile, kPhasePassive, "/proc/sys/kernel/osrelease"},
    {"kernel.cmdline", ProbeKind::kFile, kPhasePassive, "/proc/cmdline"},
    {"kernel.devices", ProbeKind::kFile, kPhasePassive, "/proc/devices"},
    {"driver.version", ProbeKind::kFile, kPhasePassive, "/proc/driver/nvidia/version"},
    {"driver.gpu_information", ProbeKind::kFile, kPhasePassive,
     "/proc/driver/nvidia/gpus/*/information"},
    {"pci.nvidia_functions", ProbeKind::kPciTable, kPhasePassive, "/sys/bus/pci/devices"},
    // Device nodes, listed, never opened.
    {"dev.nvidia_nodes", ProbeKind::kListing, kPhasePassive,
     "/dev/nvidia* /dev/nvidia-caps/* /dev/nvidia-caps-imex-channels/*"},
    {"dev.char_links", ProbeKind::kListing, kPhasePassive, "/dev/char/*"},
    // cgroups.
    {"cgroup.statfs", ProbeKind::kStatfs, kPhasePassive, "/sys/fs/cgroup"},
    {"cgroup.mountinfo", ProbeKind::kFile, kPhasePassive, "/proc/1/mountinfo"},
    // Versions.
    {"versions.containerd", ProbeKind::kCommand, kPhasePassive, "containerd --version"},
    {"versions.runc", ProbeKind::kCommand, kPhasePassive, "runc --version"},
    {"versions.nvidia_ctk", ProbeKind::kCommand, kPhasePassive, "nvidia-ctk --version"},
    {"versions.nvidia_container_cli", ProbeKind::kCommand, kPhasePassive,
     "nvidia-container-cli --version"},
    {"versions.kubelet", ProbeKind::kCommand, kPhasePassive, "kubelet --version"},
    {"versions.systemctl", ProbeKind::kCommand, kPhasePassive, "systemctl --version"},
    {"versions.crictl", ProbeKind::kCommand, kPhasePassive, "crictl --version"},
    {"systemd.units", ProbeKind::kCommand, kPhasePassive,
     "systemctl show --no-pager "
     "--property=Id,LoadState,ActiveState,SubState,ActiveEnterTimestamp,"
     "ActiveEnterTimestampMonotonic,ExecMainStartTimestamp,ExecMainPID,NRestarts,NeedDaemonReload "
     "nvidia-persistenced.service nvidia-fabricmanager.service kubelet.service containerd.service crio.service"},
    // Runtime configuration.
    {"config.containerd", ProbeKind::kFile, kPhasePassive, "/etc/containerd/config.toml"},
    {"config.containerd_dropin", ProbeKind::kFile, kPhasePassive,
     "/etc/containerd/conf.d/*.toml /etc/containerd/config.d/*.toml"},
    {"config.nvidia_container_runtime", ProbeKind::kFile, kPhasePassive,
     "/etc/nvidia-container-runtime/config.toml"},
    {"config.crio", ProbeKind::kFile, kPhasePassive, "/etc/crio/crio.conf /etc/crio/crio.conf.d/*.conf"},
    {"config.kubelet", ProbeKind::kFile, kPhasePassive, "/var/lib/kubelet/config.yaml"},
    {"config.crictl", ProbeKind::kFile, kPhasePassive, "/etc/crictl.yaml"},
    {"config.cdi", ProbeKind::kFile, kPhasePassive, "/etc/cdi/* /var/run/cdi/*"},
    // Kubelet device-plugin directory: socket order is evidence.
    {"kubelet.device_plugins", ProbeKind::kListing, kPhasePassive,
     "/var/lib/kubelet/device-plugins /var/lib/kubelet/device-plugins/*"},
    {"kubelet.checkpoint", ProbeKind::kFile, kPhasePassive,
     "/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint"},
    // Container runtime state.
    {"runtime.crictl_ps", ProbeKind::kCommand, kPhasePassive, "crictl ps -a -o json"},
    {"runtime.crictl_pods", ProbeKind::kCommand, kPhasePassive, "crictl pods -o json"},
    {"runtime.crictl_info", ProbeKind::kCommand, kPhasePassive, "crictl info -o json",
     KeepMode::kHead, 16 * kMiB},
    // Kubernetes view, when a kubeconfig is usable.
    {"k8s.node", ProbeKind::kCommand, kPhasePassive,
     "kubectl --kubeconfig {kubeconfig} --request-timeout=5s get node {node} -o json",
     KeepMode::kHead, 16 * kMiB, true},
    {"k8s.node_pods", ProbeKind::kCommand, kPhasePassive,
     "kubectl --kubeconfig {kubeconfig} --request-timeout=5s get pods -A --field-selector "
     "spec.nodeName={node} -o json",
     KeepMode::kHead, 64 * kMiB, true},
    // Host GPUs, last: nvidia-smi may load modules and create device nodes.
    {"host.nvidia_smi_list", ProbeKind::kCommand, kPhaseDriver, "nvidia-smi -L"},
    {"host.nvidia_smi_query_xml", ProbeKind::kCommand, kPhaseDriver, "nvidia-smi -q -x"},
};

// What these read, nvidia-smi cannot change: the versions of installed
// binaries, configuration files, and the API server's objects (not on the
// node at all).
constexpr std::string_view kDriverCannotChange[] = {"versions.", "config.", "k8s."};

}  // namespace

std::span<const ProbeRow> StaticProbes() { return kStaticProbes; }

bool DriverCanChange(std::string_view artifact_name) {
  for (std::string_view prefix : kDriverCannotChange) {
    if (artifact_name.substr(0, prefix.size()) == prefix) return false;
  }
  return true;
}

}  // namespace gpuf
