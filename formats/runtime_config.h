// How the node's container stack is configured to run GPU containers.
//
// containerd config.toml, schema version 1, 2 or 3 (the CRI plugin moved
// from plugins.cri to "io.containerd.grpc.v1.cri" to "io.containerd.cri.v1.runtime"):
//   [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia.options]
//     BinaryName = "/usr/bin/nvidia-container-runtime"
// /etc/nvidia-container-runtime/config.toml:
//   [nvidia-container-runtime]
//   mode = "auto"
// CRI-O crio.conf and crio.conf.d drop-ins:
//   [crio.runtime.runtimes.nvidia]
// kubelet's /var/lib/kubelet/config.yaml:
//   cgroupDriver: systemd
// kubelet's device manager checkpoint (one JSON line):
//   {"Data":{"PodDeviceEntries":null,"RegisteredDevices":{"nvidia.com/gpu":["GPU-..."]}},"Checksum":1}
//
// Each parser returns what the file says, not the runtime's defaults: an
// absent key stays empty or nullopt. A file that does not parse gives one
// warning with the underlying parser's message and an empty result; a key of
// the wrong type gives a warning and is skipped.
#ifndef GPUF_FORMATS_RUNTIME_CONFIG_H_
#define GPUF_FORMATS_RUNTIME_CONFIG_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"

namespace gpuf {

struct ContainerdRuntime {
  std::string name;          // the table name, which RuntimeClass handlers refer to
  std::string runtime_type;  // "io.containerd.runc.v2"
  std::string binary_name;   // options.BinaryName ("/usr/bin/nvidia-container-runtime")
  // options.SystemdCgroup; per runtime, and absent means cgroupfs.
  std::optional<bool> systemd_cgroup;
};

struct ContainerdConfig {
  int64_t config_version = 0;  // 1 when absent (containerd's reading); 0 when unparsable
  std::string default_runtime_name;
  std::vector<ContainerdRuntime> runtimes;  // version 1's default_runtime first, then by name
  // Version 1 only: plugins.cri.systemd_cgroup, for every runtime at once.
  std::optional<bool> cri_systemd_cgroup;
  std::optional<bool> enable_cdi;
  std::vector<std::string> cdi_spec_dirs;
  std::vector<std::string> imports;  // globs of drop-ins merged over this file
  std::vector<ParseWarning> warnings;
};

ContainerdConfig ParseContainerdConfig(std::string_view toml_text);

struct NvidiaRuntimeConfig {
  std::string mode;                // "legacy", "cdi", "csv", "auto", "jit-cdi"; "" = unset (auto)
  std::optional<bool> no_cgroups;  // nvidia-container-cli.no-cgroups
  std::string debug_log;           // nvidia-container-runtime.debug
  std::string cli_debug_log;       // nvidia-container-cli.debug
  std::vector<ParseWarning> warnings;
};

NvidiaRuntimeConfig ParseNvidiaRuntimeConfig(std::string_view toml_text);

struct CrioRuntime {
  std::string name;
  std::string runtime_path;  // "/usr/bin/nvidia-container-runtime"
  std::string runtime_type;  // "oci", "vm", "pod"
};

struct CrioConfig {
  std::string default_runtime;
  std::vector<CrioRuntime> runtimes;
  std::string cgroup_manager;  // "systemd" | "cgroupfs"
  std::vector<ParseWarning> warnings;
};

CrioConfig ParseCrioConfig(std::string_view toml_text);

struct KubeletConfig {
  std::string cgroup_driver;  // "systemd" | "cgroupfs"
  std::string cpu_manager_policy;  // "none" | "static"; "" when the file does not set it
  std::map<std::string, bool> feature_gates;
  std::string static_pod_path;
  std::vector<ParseWarning> warnings;
};

KubeletConfig ParseKubeletConfig(std::string_view yaml_text);

struct CheckpointPodDevices {
  std::string pod_uid;
  std::string container_name;
  std::string resource;                 // "nvidia.com/gpu"
  std::vector<std::string> device_ids;  // NUMA groups (kubelet >= 1.20) flattened
};

struct KubeletCheckpoint {
  std::map<std::string, std::vector<std::string>> registered_devices;  // per resource
  std::vector<CheckpointPodDevices> pod_entries;
  std::vector<ParseWarning> warnings;
};

KubeletCheckpoint ParseKubeletCheckpoint(std::string_view json_text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_RUNTIME_CONFIG_H_
