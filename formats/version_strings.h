// Component versions from the `--version` output of the node's tools
// (the loaded NVIDIA driver's version is proc_nvidia.h's):
//   containerd github.com/containerd/containerd v1.7.15 926c9586fe4a6236699318391cd44976a98e31f1
//   runc version 1.1.7
//   commit: v1.1.7-0-g860f061b
// One text may hold several tools' output (a transcript, or the old
// nvidia-container-runtime printing runc's block after its own); each banner
// line starts a component and a following "commit:" or "build revision:"
// line gives its revision.
#ifndef GPUF_FORMATS_VERSION_STRINGS_H_
#define GPUF_FORMATS_VERSION_STRINGS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"

namespace gpuf {

struct VersionParts {
  int major = 0;
  int minor = 0;              // 0 when the version is a lone number ("systemd 219")
  std::optional<int> patch;
  std::string suffix;         // from the first character after the numbers: "-rc10", "-aliyun.1", "+k3s1"
};

// Splits "v1.31.1-aliyun.1" into 1, 31, 1, "-aliyun.1". A leading "v" is
// skipped. std::nullopt when the text does not start with a number.
std::optional<VersionParts> SplitVersion(std::string_view text);

struct ComponentVersion {
  int line = 0;               // 1-based line of the banner
  std::string component;      // see ParseVersionOutput
  std::string version;        // as printed: "v1.7.15", "1.0.0-rc10", "565.57.01"
  VersionParts parts;
  std::string revision;       // commit or build revision when printed
};

struct ParsedVersions {
  std::vector<ComponentVersion> components;
  std::vector<ParseWarning> warnings;
};

// Recognises the banners of containerd (module path or containerd.io package
// form), runc, nvidia-ctk ("nvidia-ctk"), the runtime hook
// ("nvidia-container-runtime-hook"), nvidia-container-runtime,
// nvidia-container-cli ("cli-version:" and the old "version:" form;
// "lib-version:" as "libnvidia-container"), kubelet ("Kubernetes v..."),
// systemd and crictl. Other lines are skipped. A banner whose version does
// not split, or a non-empty text with no banner at all, gives a warning.
ParsedVersions ParseVersionOutput(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_VERSION_STRINGS_H_
