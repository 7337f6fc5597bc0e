// Every name inside a bundle, in one place.
//
// A bundle is a zstd-compressed tar whose first member is the manifest; the
// other members hold artifact outputs. The analyzer finds artifacts by their
// logical name in the manifest and never by member path. schema/bundle.md is
// the written contract.
#ifndef GPUF_COMMON_BUNDLE_LAYOUT_H_
#define GPUF_COMMON_BUNDLE_LAYOUT_H_

#include <string>
#include <string_view>

namespace gpuf {

inline constexpr std::string_view kBundleFormatName = "gpuforensics-bundle";
inline constexpr int kBundleFormatVersion = 1;
inline constexpr std::string_view kManifestMember = "manifest.json";
inline constexpr std::string_view kArtifactsDir = "artifacts/";
inline constexpr std::string_view kBundleSuffix = ".tar.zst";

// Default RE2 pattern (case-insensitive) for device-plugin container, pod and
// log directory names (vendor builds rename the plugin). The manifest records
// the pattern a bundle was collected with.
inline constexpr std::string_view kDefaultPluginPattern =
    "(nvidia|gpu).*device-plugin|device-plugin.*(nvidia|gpu)";

// The streams an artifact can store.
inline constexpr std::string_view kStreamStdout = "stdout";
inline constexpr std::string_view kStreamStderr = "stderr";
inline constexpr std::string_view kStreamContent = "content";

// "artifacts/0007-host.nvidia_smi_list.stdout": the sequence number keeps
// names unique when one logical name has several instances.
std::string ArtifactMemberPath(int sequence, std::string_view name, std::string_view stream);

// "gpuforensics-<node>-<YYYYmmddTHHMMSSZ>.tar.zst"
std::string DefaultBundleFileName(std::string_view node, long long unix_ns);

}  // namespace gpuf

#endif  // GPUF_COMMON_BUNDLE_LAYOUT_H_
