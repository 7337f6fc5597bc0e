#include "analyzer/capture_commands.h"

namespace gpuf {

namespace {

struct CaptureRow {
  std::string_view artifact;
  std::string_view command;
};

// Run on the node unless the command says otherwise; <...> is what the reader fills in.
constexpr CaptureRow kCaptures[] = {
    {"journal.kernel", "journalctl -k -b --no-pager (or dmesg -T)"},
    {"host.dmesg", "dmesg"},
    {"journal.systemd", "journalctl _PID=1 -b --no-pager"},
    {"journal.kubelet", "journalctl -u kubelet -b --no-pager"},
    {"journal.containerd", "journalctl -u containerd -b --no-pager"},
    {"journal.nvidia_persistenced", "journalctl -u nvidia-persistenced -b --no-pager"},
    {"journal.nvidia_fabricmanager", "journalctl -u nvidia-fabricmanager -b --no-pager"},
    {"journal.nvidia_device_plugin", "journalctl -u nvidia-k8s-device-plugin -b --no-pager"},
    {"host.nvidia_smi_list", "nvidia-smi -L, on the node itself (not in a container)"},
    {"host.nvidia_smi_query_xml", "nvidia-smi -q -x, on the node itself"},
    {"plugin.nvidia_smi_list", "kubectl exec -n <namespace> <device-plugin pod> -- nvidia-smi -L"},
    {"plugin.devices_list", "cat /sys/fs/cgroup/devices/<the container's cgroup>/devices.list (cgroup v1)"},
    {"plugin.bpftool_cgroup", "bpftool cgroup show /sys/fs/cgroup/<the container's cgroup> (cgroup v2)"},
    {"plugin.bpf_device_program", "bpftool prog dump xlated id <each cgroup_device program of bpftool cgroup show>"},
    {"plugin.systemd_scope", "systemctl show cri-containerd-<container id>.scope -p DeviceAllow -p DevicePolicy"},
    {"plugin.inspect", "crictl inspect <device-plugin container id>"},
    {"plugin.log", "kubectl logs -n <namespace> <device-plugin pod> --timestamps"},
    {"plugin.crictl_logs", "kubectl logs -n <namespace> <device-plugin pod> --timestamps"},
    {"dev.nvidia_nodes", "ls -l /dev/nvidia* /dev/nvidia-caps"},
    {"dev.char_links", "ls -l /dev/char"},
    {"kubelet.device_plugins", "ls -l --time-style=full-iso /var/lib/kubelet/device-plugins"},
    {"kubelet.checkpoint", "cat /var/lib/kubelet/device-plugins/kubelet_internal_checkpoint"},
    {"pci.nvidia_functions", "lspci -nn -d 10de:"},
    {"driver.version", "cat /proc/driver/nvidia/version"},
    {"driver.gpu_information", "cat /proc/driver/nvidia/gpus/*/information"},
    {"kernel.cmdline", "cat /proc/cmdline"},
    {"kernel.devices", "cat /proc/devices"},
    {"config.containerd", "containerd config dump"},
    {"config.nvidia_container_runtime", "cat /etc/nvidia-container-runtime/config.toml"},
    {"config.crio", "crio config"},
    {"config.kubelet", "cat /var/lib/kubelet/config.yaml"},
    {"config.static_pod", "cat /etc/kubernetes/manifests/<device-plugin manifest>"},
    {"runtime.crictl_ps", "crictl ps -a"},
    {"runtime.crictl_info", "crictl info"},
    {"systemd.units", "systemctl status nvidia-persistenced nvidia-fabricmanager kubelet containerd"},
    {"k8s.node", "kubectl get node <node> -o json"},
    {"k8s.events", "kubectl get events -A"},
    {"k8s.pod_text", "kubectl describe pod -n <namespace> <pod>"},
    {"versions.containerd", "containerd --version"},
    {"versions.runc", "runc --version"},
    {"versions.nvidia_ctk", "nvidia-ctk --version"},
    {"versions.nvidia_container_cli", "nvidia-container-cli --version"},
    {"versions.kubelet", "kubelet --version"},
    {"versions.crio", "crio --version"},
    {"versions.crun", "crun --version"},
    {"host.fabricmanager_log", "tail -n 100000 /var/log/fabricmanager.log"},
    {"cgroup.statfs", "stat -fc %T /sys/fs/cgroup"},
    {"cgroup.mountinfo", "cat /proc/1/mountinfo"},
    {"boot.proc_stat", "uptime -s"},
};

}  // namespace

std::string CaptureCommand(std::string_view artifact) {
  if (artifact == "journal.*") return "journalctl -b --no-pager";
  for (const auto& row : kCaptures) {
    if (row.artifact == artifact) return std::string(row.command);
  }
  return "gpuforensics collect";
}

}  // namespace gpuf
