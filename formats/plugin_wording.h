// How the device plugins word the steps of the chain, per version
// (known-issues §2) and per plugin (NVIDIA's k8s-device-plugin, GKE's
// nvidia-gpu-device-plugin), once: the analyzer's classifier of plugin
// lines (formats/plugin_log.cc) takes its patterns for these
// events from here, and the collector's summary and `watch` match lines
// with them. The collector reads no YAML, so these stay code; a test holds
// them to the message catalogue's entries of the same events.
//   I1118 03:20:17.306000 1 server.go:146] Registered device plugin for 'nvidia.com/gpu' with Kubelet
#ifndef GPUF_FORMATS_PLUGIN_WORDING_H_
#define GPUF_FORMATS_PLUGIN_WORDING_H_

#include <string>
#include <string_view>

namespace gpuf {

// RE2 patterns of a whole message (its klog or Go-log header taken off).
inline constexpr char kPluginRegisteredPattern[] = R"(Registered device plugin for '([^']*)' with Kubelet)";
inline constexpr char kPluginRegisteredV08Pattern[] = R"(Registered device plugin with Kubelet)";  // before v0.9
inline constexpr char kPluginServingPattern[] = R"(Starting to serve '([^']*)' on (\S+))";
inline constexpr char kPluginServingV08Pattern[] = R"(Starting to serve on (\S+))";             // before v0.9
inline constexpr char kPluginNvmlFailedPattern[] = R"(Failed to initialize NVML: (.*?)\.?)";
inline constexpr char kPluginNvmlFailedV017Pattern[] = R"(nvml init failed: (.*))";              // v0.17+
// v0.14+ resolving its platform, v0.13+ asked for a MIG strategy: no NVML, so no GPU to serve.
inline constexpr char kPluginNonNvmlPlatformPattern[] = R"(Detected non-NVML platform: (.*))";
inline constexpr char kPluginNvmlNotDetectedPattern[] = R"(NVML not detected: (.*))";
// GKE's nvidia-gpu-device-plugin (GoogleCloudPlatform/container-engine-accelerators,
// pkg/gpu/nvidia/manager.go). Its "registered with kubelet, will use beta API"
// only says kubelet.sock exists: it is not a registration.
inline constexpr char kGkePluginRegisteredPattern[] = R"(device-plugin registered with the kubelet)";
inline constexpr char kGkePluginServingPattern[] = R"(device-plugin server started serving)";
inline constexpr char kGkePluginNvmlFailedPattern[] = R"(failed to initialize nvml: (.*))";

enum class PluginChainEvent { kNone, kRegistered, kServing, kNvmlInitFailed };

struct PluginChainLine {
  PluginChainEvent event = PluginChainEvent::kNone;
  std::string message;  // from the wording on, for an NVML failure: "Failed to initialize NVML: ..."
};

// What a line of the plugin's log, headers and all, says about the chain.
PluginChainLine ClassifyPluginChainLine(std::string_view line);

}  // namespace gpuf

#endif  // GPUF_FORMATS_PLUGIN_WORDING_H_
