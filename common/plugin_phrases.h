// Phrases the device plugins log when they register with the kubelet, and
// when a registration is undone or never comes, as plain text for the
// collector's quick looks at a log (the triage, `watch`). The analyzer reads
// the same lines in full through the pattern table of
// analyzer/parsers/plugin_log.cc; its test checks that every registration
// phrase here classifies as a registration there.
#ifndef GPUF_COMMON_PLUGIN_PHRASES_H_
#define GPUF_COMMON_PLUGIN_PHRASES_H_

#include <string_view>

namespace gpuf {

inline constexpr std::string_view kPluginRegisteredPhrases[] = {
    "Registered device plugin for",               // NVIDIA k8s-device-plugin v0.9+
    "Registered device plugin with Kubelet",      // NVIDIA k8s-device-plugin before v0.9
    "device-plugin registered with the kubelet",  // GKE's nvidia-gpu-device-plugin (pkg/gpu/nvidia/manager.go)
};

// After the last of these, an earlier registration no longer counts.
inline constexpr std::string_view kPluginSetbackPhrases[] = {
    "Failed to initialize NVML", "nvml init failed", "No devices found", "Incompatible strategy detected",
    "Incompatible platform detected", "error starting plugins", "created, restarting.", "Received SIGHUP",
    // GKE: NVML fatal at start; kubelet.sock recreated (a kubelet restart).
    "failed to initialize nvml", "recreated, stopping device-plugin server",
};

}  // namespace gpuf

#endif  // GPUF_COMMON_PLUGIN_PHRASES_H_
