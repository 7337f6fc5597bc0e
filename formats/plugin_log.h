// Messages of the NVIDIA k8s-device-plugin (v0.9 to v0.20) and of GKE's
// nvidia-gpu-device-plugin, after the CRI, journal, klog or Go log headers
// have been stripped:
//   XidCriticalError: Xid=79 on Device=GPU-adb24b25-1db1-436e-d958-ddee5da83d07; marking device as unhealthy.
// The wording of each event per version is in known-issues §2; the classifier
// accepts every one of them. It also reads the configuration the plugin prints
// at start (v0.12+), which spans the lines after its header:
//   Running with config:
//   {
//     "version": "v1",
//     "flags": {"migStrategy": "none", "failOnInitError": false, ...
#ifndef GPUF_FORMATS_PLUGIN_LOG_H_
#define GPUF_FORMATS_PLUGIN_LOG_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"

namespace gpuf {

enum class PluginEventKind {
  kUnknown,
  kVersionBanner,          // "Starting NVIDIA Device Plugin" version=...        (v0.17+)
  kLoadingNvml,            // Loading NVML (v0.9) / Initializing NVML. (v0.12)
  kFsWatcherStarted,       // path: the watched directory when printed (v0.17+)
  kOsWatcherStarted,
  kStartingPlugins,
  kLoadingConfig,          // Loading configuration. / Updating config with default ...
  kConfigDump,             // Running with config: (the JSON follows; see FindPluginConfigs)
  kRetrievingPlugins,      // version_hint from the spelling
  kPlatformDetected,       // detail: "NVML platform: found NVML library"
  kNonNvmlPlatform,        // error: why NVML was not found (no library injected)
  kIncompatiblePlatform,   // detail: the strategy, when printed (v0.16+)
  kNvmlInitFailed,         // error: NVML's error text as printed
  kGrpcServerStarting,     // resource
  kGrpcServerCrashed,      // resource, error
  kServing,                // resource (absent before v0.9), path: the plugin socket
  kServeFailed,            // resource, error
  kRegistered,             // resource (absent before v0.9)
  kRegistrationFailed,     // error
  kKubeletUnreachable,     // "Could not contact Kubelet..."
  kStartRetry,             // detail: the delay, "30s"
  kNoDevices,              // No devices found. Waiting indefinitely.
  kKubeletSocketCreated,   // path: kubelet.sock; kubelet restarted
  kSighup,
  kShutdownSignal,         // detail: the signal name
  kStoppingPlugins,
  kStoppedServing,         // resource, path
  kXidCritical,            // xid, device
  kAllDevicesUnhealthy,    // xid (v0.9-v0.12 wording) or error
  kDeviceUnhealthy,        // resource, device
  kHealthCheckDeviceError, // device when printed, error: a device the check could not watch
  kHealthCheckFailed,      // error: health checks disabled
  kIgnoredXids,            // detail: the list as printed (v0.18+)
  kExitError,              // error: the chain after "error starting plugins: "
  kAdvice,                 // the "You can check the prerequisites at: ..." hints
};

// "version_banner", "nvml_init_failed", ...: stable names for storage.
const char* PluginEventKindName(PluginEventKind kind);

struct PluginEvent {
  PluginEventKind kind = PluginEventKind::kUnknown;
  std::string resource;      // "nvidia.com/gpu"
  std::string path;          // socket or watched path
  std::string device;        // "GPU-<uuid>" or "MIG-<uuid>"
  std::optional<int> xid;
  std::string error;         // "ERROR_UNKNOWN", "nvml: Unknown Error", ...
  std::string version;       // from the banner: "3c9ffca9" (first line of a multi-line value)
  std::string version_hint;  // "<=v0.14" for "Retreiving", ">=v0.15" for "Retrieving"
  std::string detail;
};

// kUnknown for messages that are not the plugin's (or not yet known).
PluginEvent ClassifyPluginMessage(std::string_view message);

// A line the plugin wrote, with its klog or Go-log header taken off and its
// message classified: what log_lines stores for it, whether the line came
// from a pod log, crictl logs, the journal or a rule sample.
struct PluginLine {
  std::string severity;              // klog letter I W E F; "" for Go-log and plain lines
  std::string source_file;           // klog "main.go:256"; ""
  std::string message;               // without the header
  std::optional<std::string> event;  // PluginEventKindName; nullopt when unclassified
};

PluginLine ReadPluginLine(const std::string& text);
// The same in two halves, for a loader that reads headers on one thread and
// classifies on another: the header (event unset), then the event.
PluginLine ReadPluginHeader(const std::string& text);
void ClassifyPluginLine(PluginLine& line);

// One message line with the artifact line it came from.
struct LogMessage {
  int line = 0;
  std::string_view text;
};

struct PluginConfig {
  int line = 0;                                  // of "Running with config:"
  std::optional<bool> fail_on_init_error;
  std::string mig_strategy;                      // "none" | "single" | "mixed"
  std::vector<std::string> device_list_strategy; // a string in v0.12-v0.13, a list later
  std::string device_id_strategy;                // "uuid" | "index"
  std::optional<bool> pass_device_specs;
  std::string nvidia_driver_root;
  std::string device_discovery_strategy;         // "auto" | "nvml" | "tegra" (v0.15+)
  std::vector<std::string> resource_names;       // resources.gpus/mig names, then sharing renames
};

// The warning for a dump the text ends inside of: the log was cut short
// there, since the plugin writes its dump at once.
inline constexpr char kConfigDumpCutShort[] = "config dump ends before its closing brace";

struct PluginConfigScan {
  std::vector<PluginConfig> configs;  // one per plugin (re)start
  std::vector<ParseWarning> warnings; // a dump cut short or not JSON
};

// Finds every "Running with config:" in messages (already stripped of their
// headers, one per line) and reads the JSON that follows until its braces
// balance. Keys are looked up under "flags" and "flags.plugin" and, for
// versions that put them there, at the top level.
PluginConfigScan FindPluginConfigs(const std::vector<LogMessage>& messages);

// The same, a message at a time, for a log that is read as it streams: only
// the dump being read is held.
class PluginConfigFinder {
 public:
  void Add(const LogMessage& m);
  // After the last message: what was found; a dump still open is cut short.
  PluginConfigScan Finish();

 private:
  static constexpr std::string_view kHeader = "Running with config:";
  // A dump is a few KB; a "{" that never closes stops holding lines here.
  static constexpr size_t kMaxBodyBytes = 1 << 20;

  bool Continue(const LogMessage& m);
  void Read();
  void Close();

  PluginConfigScan scan_;
  bool open_ = false;  // between a header and the end of its JSON
  int header_line_ = 0;
  std::string body_;
  int depth_ = 0;
  bool started_ = false, in_string_ = false;
};

}  // namespace gpuf

#endif  // GPUF_FORMATS_PLUGIN_LOG_H_
