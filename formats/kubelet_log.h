// What the kubelet says about device plugins, after the journal and klog
// headers have been stripped, in the printf wording of kubelet <= 1.20 and
// the structured wording of later ones:
//   Got registration request from device plugin with resource name "nvidia.com/gpu"
//   "Got registration request from device plugin with resource" resourceName="nvidia.com/gpu"
// and what systemd (PID 1) says about units and daemon-reload, in the wording
// of systemd 219 to 253+:
//   kubelet.service: Scheduled restart job, restart counter is at 131.
//   Reloading requested from client PID 1118 (unit testsuite-04.service)...
// Both classifiers return kUnknown for any other message; unknown is not an
// error, since most kubelet and systemd lines are about something else.
#ifndef GPUF_FORMATS_KUBELET_LOG_H_
#define GPUF_FORMATS_KUBELET_LOG_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuf {

enum class KubeletEventKind {
  kUnknown,
  kRegistrationRequest,   // resource
  kRegisteredClient,      // resource ("Registered client" name=...; kubelet 1.26+)
  kPluginConnected,       // resource (V(2))
  kCapacityUpdated,       // resource, detail: the capacity (V(2))
  kListAndWatchEnded,     // resource, error
  kPluginConnectFailed,   // path or resource, error
  kZeroOutCapacity,       // resource, node: the device checkpoint was missing at start
  kCheckpointNotFound,    // detail: the checkpoint name
  kCheckpointCorrupted,   // detail: the checkpoint name when printed, error
  kCheckpointReadFailed,  // error: any other failure to read the device checkpoint
  kAdmissionError,        // resource, pod, error: UnexpectedAdmissionError / Allocate failed
  kNodeRebooted,          // node, boot_id (the Rebooted event)
  kKubeletStarting,       // detail: the version ("Kubelet version" kubeletVersion=..., its first lines)
};

// "registration_request", "list_and_watch_ended", ...: stable names for storage.
const char* KubeletEventKindName(KubeletEventKind kind);

struct KubeletEvent {
  KubeletEventKind kind = KubeletEventKind::kUnknown;
  std::string resource;  // "nvidia.com/gpu"
  std::string path;      // plugin socket
  std::string node;
  std::string pod;       // "namespace/name"
  std::string boot_id;
  std::string error;     // err=... or the text after "with error"
  std::string detail;
};

// Distributions that run the kubelet inside another process (k3s, MicroK8s'
// kubelite) log its lines under that process's identifier and start it with
// their own unit. True for the kubelet's own identifier and unit too.
bool IsKubeletIdentifier(std::string_view identifier);
bool IsKubeletUnit(std::string_view unit);

// Also reads the kubelet's --logging-format=json lines.
KubeletEvent ClassifyKubeletMessage(std::string_view message);

// A --logging-format=json line as the structured text klog would have
// written: "msg" key="value" ... (keys sorted, nested values left out);
// nullopt when it is not such an object.
std::optional<std::string> StructuredFromJson(std::string_view message);

enum class SystemdEventKind {
  kUnknown,
  kUnitStarting,
  kUnitStarted,
  kUnitStopping,
  kUnitStopped,
  kUnitFailed,             // result when printed ("exit-code")
  kMainProcessExited,      // exit_code ("exited", "killed"), exit_status ("1/FAILURE")
  kRestartScheduled,       // restart_counter when printed
  kUnitDeactivated,        // "<unit>: Deactivated successfully."
  kUnitReloading,          // systemctl reload <unit>, not daemon-reload
  kUnitReloaded,
  kCommandVanished,        // unit file changed under a running command list
  kDaemonReload,           // "Reloading." (systemd <= 252: the only line)
  kDaemonReloadRequested,  // caller_pid, caller_comm, caller_unit (v253+)
  kDaemonReloading,        // "Reloading..." (v253+)
  kDaemonReloadFinished,   // duration_ms
  kDaemonReloadRejected,   // over the rate limit
  kDaemonReexecRequested,  // caller_pid, caller_comm, caller_unit
};

// "unit_started", "daemon_reload_requested", ...: stable names for storage.
const char* SystemdEventKindName(SystemdEventKind kind);

struct SystemdEvent {
  SystemdEventKind kind = SystemdEventKind::kUnknown;
  std::string unit;         // "kubelet.service" where the message names it
  std::string description;  // "kubelet: The Kubernetes Node Agent"
  std::optional<int64_t> caller_pid;
  std::string caller_comm;  // kernel comm, at most 15 characters
  std::string caller_unit;
  std::optional<int> restart_counter;
  std::string result;
  std::string exit_code;
  std::string exit_status;
  std::optional<int64_t> duration_ms;
};

// Start and stop lines name the unit only in systemd >= ~250
// ("Started kubelet.service - kubelet: ..."); older ones print the
// Description alone, so callers take the unit from the journal's UNIT= field.
SystemdEvent ClassifySystemdMessage(std::string_view message);

}  // namespace gpuf

#endif  // GPUF_FORMATS_KUBELET_LOG_H_
