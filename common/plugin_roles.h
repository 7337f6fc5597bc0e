// Which containers run the device plugin. A pod named like the plugin also
// holds containers that are not it: the GPU Operator's plugin pod has the
// config-manager sidecar and the toolkit-validation and config-manager-init
// init containers, and its validator pods (nvidia-device-plugin-validator-*)
// run a CUDA sample and complete. They are context; the plugin is the
// container that runs its binary (command, else image), or, for a vendor
// build neither names, the one whose name matches the plugin pattern. One
// table serves the collector (what to inspect and read) and the analyzer
// (containers.is_plugin).
#ifndef GPUF_COMMON_PLUGIN_ROLES_H_
#define GPUF_COMMON_PLUGIN_ROLES_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

enum class PluginRole {
  kPlugin,   // runs the device plugin
  kContext,  // beside it: sidecar, init container, validator
  kOther,    // nothing to do with it
};

struct ContainerView {
  std::string_view name;              // container name
  std::string_view image;             // as the runtime reports it, "" when unknown
  std::vector<std::string> command;   // command and args, empty when unknown (crictl ps)
};

struct PluginRoleVerdict {
  PluginRole role = PluginRole::kOther;
  std::string_view why;  // "runs nvidia-device-plugin", "GPU Operator config-manager sidecar", ...
};

// `name_matches`: the container's or its pod's name matches the plugin
// pattern (the collector's --plugin-pattern); it decides only when neither
// a context row nor a plugin binary or image says otherwise.
PluginRoleVerdict ClassifyPluginRole(const ContainerView& c, bool name_matches);

}  // namespace gpuf

#endif  // GPUF_COMMON_PLUGIN_ROLES_H_
