// Container runtime state as crictl and ctr print it.
//
// `crictl ps -a -o json` ({"containers":[...]}) and `crictl pods -o json`
// ({"items":[...]}) are protojson: camelCase keys, int64 values as strings:
//   "createdAt": "1702671156599632356",
// `crictl inspect -o json ID` prints {"status":{...},"info":{...}}; several
// IDs give an array, older crictl a stream of objects. Its times are in the
// local zone of the host that ran crictl, and unset ones are the Go zero
// time (or 1970 from older crictl):
//   "createdAt": "2022-11-29T12:07:44.196650393-06:00",
// `ctr containers info ID` prints Go field names with the OCI spec in Spec:
//   "Runtime": {"Name": "io.containerd.runc.v2", "Options": null},
//
// The parsers never fail. Text that is not JSON gives one warning with the
// JSON parser's message; an entry without an id, or a field of the wrong
// type, gives a warning and the rest is kept.
#ifndef GPUF_FORMATS_CRICTL_JSON_H_
#define GPUF_FORMATS_CRICTL_JSON_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"

namespace gpuf {

// One row of `crictl ps -a -o json`.
struct CriContainer {
  std::string id;  // full 64-hex id
  std::string pod_sandbox_id;
  std::string name;  // metadata.name
  int64_t attempt = 0;
  std::string image;      // image.image, often "sha256:..."
  std::string image_ref;
  std::string state;      // "CONTAINER_RUNNING", "CONTAINER_EXITED", ...
  std::optional<int64_t> created_at_ns;
  std::string pod_name;        // the io.kubernetes.pod.* labels
  std::string pod_namespace;
  std::string pod_uid;
  std::string container_name;  // io.kubernetes.container.name label
  std::optional<int64_t> restart_count;  // io.kubernetes.container.restartCount annotation
};

struct CriContainers {
  std::vector<CriContainer> containers;
  std::vector<ParseWarning> warnings;
};

CriContainers ParseCrictlPs(std::string_view json_text);

// One row of `crictl pods -o json`.
struct CriSandbox {
  std::string id;
  std::string name;  // metadata: the pod's name, namespace, uid
  std::string pod_namespace;
  std::string uid;
  int64_t attempt = 0;
  std::string state;  // "SANDBOX_READY" | "SANDBOX_NOTREADY"
  std::optional<int64_t> created_at_ns;
  std::string runtime_handler;  // RuntimeClass handler; "" for the default runtime
};

struct CriSandboxes {
  std::vector<CriSandbox> sandboxes;
  std::vector<ParseWarning> warnings;
};

CriSandboxes ParseCrictlPods(std::string_view json_text);

// A time crictl wrote as RFC 3339 (or, before 2018, as nanoseconds).
struct CriTime {
  std::optional<int64_t> unix_ns;  // nullopt: absent, or unset (year <= 1970)
  std::string offset;              // as written: "Z", "-06:00"; "" for nanoseconds
};

// A rule of the OCI spec's linux.resources.devices, applied in order, the
// last match winning. Omitted fields are wildcards.
struct OciDeviceRule {
  bool allow = false;
  char type = 'a';               // 'a' when omitted, else 'c' or 'b'
  std::optional<int64_t> major;  // nullopt: omitted, any
  std::optional<int64_t> minor;
  std::string access;            // "rwm" subset, as written
};

struct ContainerMount {
  std::string container_path;
  std::string host_path;
};

// `crictl inspect` or `ctr containers info`; fields a runtime does not print
// stay empty. Environment values are never kept, only the names.
struct ContainerInspect {
  std::string id;
  std::string name;
  int64_t attempt = 0;
  std::string state;  // "" from ctr, which has no state
  CriTime created, started, finished;
  std::optional<int64_t> exit_code;
  std::string reason;
  std::string message;
  std::string log_path;
  std::string image;
  std::string image_ref;
  std::string pod_name;
  std::string pod_namespace;
  std::string pod_uid;
  std::string sandbox_id;
  std::optional<int64_t> restart_count;
  std::optional<int64_t> pid;  // host pid of the init process; 0 when not running
  std::string runtime_type;    // "io.containerd.runc.v2"; "" from CRI-O
  std::optional<bool> privileged;  // nullopt when the runtime does not say
  std::string cgroups_path;        // OCI linux.cgroupsPath
  std::vector<std::string> env_names;
  std::vector<std::string> args;
  std::vector<std::string> prestart_hooks;  // hook paths
  // A prestart hook runs nvidia-container-runtime-hook or
  // nvidia-container-toolkit: devices are injected outside the spec.
  bool legacy_nvidia_hook = false;
  std::vector<std::string> device_paths;  // OCI linux.devices, e.g. "/dev/nvidia0"
  std::vector<OciDeviceRule> device_rules;
  std::vector<std::string> cdi_annotations;  // "cdi.k8s.io/..." keys, sorted
  std::vector<std::string> cdi_devices;      // CRI CDI_devices names, "nvidia.com/gpu=0"
  std::vector<ContainerMount> mounts;        // CRI mounts, else the spec's bind mounts
};

struct ContainerInspections {
  std::vector<ContainerInspect> containers;
  std::vector<ParseWarning> warnings;
};

// Accepts one object, an array of objects, or objects one after another.
ContainerInspections ParseCrictlInspect(std::string_view json_text);

ContainerInspections ParseCtrContainerInfo(std::string_view json_text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_CRICTL_JSON_H_
