#include "collector/plugin_logs.h"

#include <re2/re2.h>

#include "common/plugin_roles.h"

namespace gpuf {

std::vector<std::string> PluginLogFiles(const HostRoot& host, const re2::RE2& plugin_pattern) {
  const std::string root = "/var/log/pods";
  std::vector<std::string> paths;
  auto pods = host.ListDir(root);
  if (!pods.ok()) return paths;
  for (const auto& pod : *pods) {
    const std::string pod_dir = JoinHostPath(root, pod);
    auto containers = host.ListDir(pod_dir);
    if (!containers.ok()) continue;
    for (const auto& container : *containers) {
      const bool name_matches =
          re2::RE2::PartialMatch(pod, plugin_pattern) || re2::RE2::PartialMatch(container, plugin_pattern);
      // The GPU Operator's config-manager and validation containers share the plugin's pod.
      if (ClassifyPluginRole({container, "", {}}, name_matches).role != PluginRole::kPlugin) continue;
      const std::string container_dir = JoinHostPath(pod_dir, container);
      auto files = host.ListDir(container_dir);
      if (!files.ok()) continue;
      for (const auto& file : *files) paths.push_back(JoinHostPath(container_dir, file));
    }
  }
  return paths;
}

}  // namespace gpuf
