#include "importer/artifact_map.h"

namespace gpuf {

// sos names a command's output file after the command line: spaces become
// '_' and '/' becomes '.' (sos_commands/<plugin>/<mangled command>).
const std::vector<PathRule>& SosPathRules() {
  static const std::vector<PathRule> rules = {
      {"sos_commands/logs/journalctl_--no-pager_--catalog_--boot", "", Conversion::kJournalText, "boot:0"},
      {"sos_commands/logs/journalctl_--no-pager_--catalog_--boot_-1", "", Conversion::kJournalText, "boot:-1"},
      {"sos_commands/kernel/dmesg", "journal.kernel", Conversion::kDmesg, "boot:0"},
      {"sos_commands/systemd/journalctl_--list-boots", "boot.list_boots", Conversion::kAsIs, ""},
      {"proc/stat", "boot.proc_stat", Conversion::kAsIs, ""},
      {"proc/uptime", "boot.proc_uptime", Conversion::kAsIs, ""},
      {"proc/sys/kernel/random/boot_id", "boot.boot_id", Conversion::kAsIs, ""},
      {"proc/cmdline", "kernel.cmdline", Conversion::kAsIs, ""},
      {"proc/devices", "kernel.devices", Conversion::kAsIs, ""},
      {"proc/version", "kernel.version", Conversion::kAsIs, ""},
      {"proc/sys/kernel/osrelease", "kernel.osrelease", Conversion::kAsIs, ""},
      {"proc/1/mountinfo", "cgroup.mountinfo", Conversion::kAsIs, ""},
      {"proc/driver/nvidia/version", "driver.version", Conversion::kAsIs, ""},
      {"proc/driver/nvidia/gpus/*/information", "driver.gpu_information", Conversion::kAsIs, "path"},
      {"sos_commands/kernel/uname_-a", "host.uname", Conversion::kAsIs, ""},
      {"sos_commands/host/hostname", "host.hostname", Conversion::kAsIs, ""},
      {"etc/os-release", "host.os_release", Conversion::kAsIs, ""},
      {"etc/machine-id", "host.machine_id", Conversion::kAsIs, ""},
      {"etc/timezone", "host.timezone", Conversion::kAsIs, ""},
      {"sos_commands/nvidia/nvidia-smi_--list-gpus", "host.nvidia_smi_list", Conversion::kAsIs, ""},
      {"sos_commands/nvidia/nvidia-smi_-L", "host.nvidia_smi_list", Conversion::kAsIs, ""},
      {"sos_commands/crio/crictl_ps_-a", "runtime.crictl_ps", Conversion::kCrictlTable, ""},
      {"sos_commands/crio/crictl_info", "runtime.crictl_info", Conversion::kAsIs, ""},
      {"sos_commands/crio/crictl_version", "versions.crictl", Conversion::kVersions, ""},
      {"sos_commands/crio/crictl_inspect_*", "plugin.inspect", Conversion::kPluginInspect, ""},
      {"sos_commands/crio/containers/crictl_logs_-t_*", "plugin.crictl_logs", Conversion::kPluginLog, ""},
      {"sos_commands/containerd/containerd_--version", "versions.containerd", Conversion::kVersions, ""},
      {"sos_commands/runc/runc_--version", "versions.runc", Conversion::kVersions, ""},
      {"etc/kubernetes/manifests/*", "config.static_pod", Conversion::kStaticPod, "path"},
      {"etc/containerd/config.toml", "config.containerd", Conversion::kAsIs, ""},
      {"etc/nvidia-container-runtime/config.toml", "config.nvidia_container_runtime", Conversion::kAsIs, ""},
      {"etc/crictl.yaml", "config.crictl", Conversion::kAsIs, ""},
      {"var/lib/kubelet/config.yaml", "config.kubelet", Conversion::kAsIs, ""},
  };
  return rules;
}

// nvidia-bug-report.sh prints "*** <path>" before a file it appends and the
// command line before a command's output; "./" appears in its glob paths.
const std::vector<SectionRule>& BugReportSectionRules() {
  static const std::vector<SectionRule> rules = {
      {"\\*\\*\\* /proc/driver/nvidia/version", "driver.version", Conversion::kAsIs, ""},
      {"\\*\\*\\* /proc/driver/nvidia/./version", "driver.version", Conversion::kAsIs, ""},
      {"\\*\\*\\* /proc/driver/nvidia/gpus/*/information", "driver.gpu_information", Conversion::kAsIs, "path"},
      {"\\*\\*\\* /proc/driver/nvidia/./gpus/*/information", "driver.gpu_information", Conversion::kAsIs, "path"},
      {"\\*\\*\\* /proc/cmdline", "kernel.cmdline", Conversion::kAsIs, ""},
      {"\\*\\*\\* /proc/version", "kernel.version", Conversion::kAsIs, ""},
      {"\\*\\*\\* /proc/devices", "kernel.devices", Conversion::kAsIs, ""},
      {"\\*\\*\\* /etc/os-release", "host.os_release", Conversion::kAsIs, ""},
      {"*nvidia-smi --query", "host.nvidia_smi_list", Conversion::kSmiQuery, ""},
      {"*nvidia-smi -q", "host.nvidia_smi_list", Conversion::kSmiQuery, ""},
      {"journalctl -b -0*", "", Conversion::kJournalText, "boot:0"},
      {"journalctl -b -1*", "", Conversion::kJournalText, "boot:-1"},
      {"*dmesg*", "journal.kernel", Conversion::kDmesg, "boot:0"},
  };
  return rules;
}

std::vector<std::string> CannotShow(std::string_view kind) {
  if (kind == "sosreport") {
    // sos lists no device nodes, runs nothing inside containers, reads no
    // cgroup device rules and no pod log files.
    return {"dev.nvidia_nodes",   "dev.char_links",        "kubelet.device_plugins", "kubelet.checkpoint",
            "pci.nvidia_functions", "plugin.nvidia_smi_list", "plugin.devices_list",  "plugin.bpftool_cgroup",
            "plugin.systemd_scope", "plugin.log",            "cgroup.statfs",          "k8s.node"};
  }
  if (kind == "nvidia-bug-report") {
    // The driver's view only: nothing of Kubernetes, containers or
    // /dev/nvidia*; its nvidia-smi -q is text, not the XML, its lspci and
    // systemctl status are not our PCI table and unit properties, and the
    // fabric manager's log is a file, not its journal.
    return {"dev.nvidia_nodes",     "dev.char_links",        "kubelet.device_plugins", "kubelet.checkpoint",
            "runtime.crictl_ps",    "plugin.inspect",        "plugin.log",             "plugin.crictl_logs",
            "plugin.nvidia_smi_list", "plugin.devices_list", "plugin.bpftool_cgroup",  "plugin.systemd_scope",
            "journal.kubelet",      "journal.containerd",    "journal.nvidia_fabricmanager",
            "journal.nvidia_device_plugin", "host.nvidia_smi_query_xml", "pci.nvidia_functions", "systemd.units",      "config.containerd",
            "config.nvidia_container_runtime", "config.static_pod", "k8s.node"};
  }
  if (kind == "must-gather") {
    // Cluster-side objects and operand logs; the node is seen only through
    // the driver pod's nvidia-bug-report.
    return {"dev.nvidia_nodes",   "dev.char_links",     "kubelet.device_plugins", "kubelet.checkpoint",
            "runtime.crictl_ps",  "plugin.inspect",     "plugin.nvidia_smi_list", "plugin.devices_list",
            "plugin.bpftool_cgroup", "plugin.systemd_scope", "journal.kubelet",   "journal.containerd",
            "journal.systemd",    "journal.nvidia_device_plugin", "host.nvidia_smi_query_xml",
            "pci.nvidia_functions", "systemd.units", "config.containerd", "config.nvidia_container_runtime"};
  }
  if (kind == "evidence-dir") {
    // A runbook capture has what was asked for, never the container's
    // device-cgroup rules or its full spec.
    return {"plugin.devices_list", "plugin.bpftool_cgroup", "plugin.systemd_scope", "kubelet.checkpoint",
            "pci.nvidia_functions"};
  }
  return {};
}

}  // namespace gpuf
