#include "common/plugin_roles.h"

namespace gpuf {

namespace {

enum class Field { kName, kCommand, kImage };
enum class Match { kExact, kSuffix, kContains };

struct RoleRow {
  Field field;
  Match match;
  std::string_view text;
  PluginRole role;
  std::string_view why;
};

// Context first: config-manager ships in the plugin's own image. Sources:
// NVIDIA/gpu-operator assets/state-device-plugin/0500_daemonset.yaml,
// assets/state-operator-validation/0500_daemonset.yaml and
// validator/manifests/plugin-workload-validation.yaml; GKE's
// cmd/nvidia_gpu/device-plugin.yaml (GoogleCloudPlatform/container-engine-accelerators).
constexpr RoleRow kRoles[] = {
    {Field::kName, Match::kExact, "config-manager", PluginRole::kContext, "GPU Operator config-manager sidecar"},
    {Field::kName, Match::kExact, "config-manager-init", PluginRole::kContext,
     "GPU Operator config-manager init container"},
    {Field::kName, Match::kSuffix, "-validation", PluginRole::kContext, "GPU Operator validation init container"},
    {Field::kName, Match::kSuffix, "-validator", PluginRole::kContext, "GPU Operator validator"},
    {Field::kName, Match::kContains, "mps-control-daemon", PluginRole::kContext, "MPS control daemon"},
    {Field::kCommand, Match::kExact, "config-manager", PluginRole::kContext, "runs config-manager"},
    {Field::kCommand, Match::kExact, "vectorAdd", PluginRole::kContext, "GPU Operator validation workload"},
    {Field::kCommand, Match::kExact, "nvidia-device-plugin", PluginRole::kPlugin, "runs nvidia-device-plugin"},
    {Field::kCommand, Match::kExact, "nvidia-gpu-device-plugin", PluginRole::kPlugin,
     "runs GKE's nvidia-gpu-device-plugin"},
    {Field::kImage, Match::kContains, "/k8s-device-plugin", PluginRole::kPlugin, "NVIDIA device plugin image"},
    {Field::kImage, Match::kContains, "/nvidia-gpu-device-plugin", PluginRole::kPlugin, "GKE device plugin image"},
};

bool Matches(Match match, std::string_view value, std::string_view text) {
  switch (match) {
    case Match::kExact: return value == text;
    case Match::kSuffix: return value.size() > text.size() && value.substr(value.size() - text.size()) == text;
    case Match::kContains: return value.find(text) != std::string_view::npos;
  }
  return false;
}

std::string_view Basename(std::string_view word) {
  size_t slash = word.find_last_of('/');
  return slash == std::string_view::npos ? word : word.substr(slash + 1);
}

// Every word of the command, a shell script's included ("sh -c 'exec X'"),
// by its base name.
bool CommandHas(const std::vector<std::string>& command, Match match, std::string_view text) {
  for (const auto& arg : command) {
    size_t start = 0;
    while ((start = arg.find_first_not_of(" \t\n;&|", start)) != std::string::npos) {
      size_t end = arg.find_first_of(" \t\n;&|", start);
      std::string_view word = std::string_view(arg).substr(start, end == std::string::npos ? std::string::npos : end - start);
      if (Matches(match, Basename(word), text)) return true;
      start = end;
    }
  }
  return false;
}

}  // namespace

PluginRoleVerdict ClassifyPluginRole(const ContainerView& c, bool name_matches) {
  for (const auto& row : kRoles) {
    bool hit = row.field == Field::kName    ? Matches(row.match, c.name, row.text)
               : row.field == Field::kImage ? Matches(row.match, c.image, row.text)
                                            : CommandHas(c.command, row.match, row.text);
    if (hit) return {row.role, row.why};
  }
  if (name_matches) return {PluginRole::kPlugin, "its name matches the plugin pattern"};
  return {PluginRole::kOther, ""};
}

}  // namespace gpuf
