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
    {.field = Field::kName, .match = Match::kExact, .text = "config-manager", .role = PluginRole::kContext,
     .why = "GPU Operator config-manager sidecar"},
    {.field = Field::kName, .match = Match::kExact, .text = "config-manager-init", .role = PluginRole::kContext,
     .why = "GPU Operator config-manager init container"},
    {.field = Field::kName, .match = Match::kSuffix, .text = "-validation", .role = PluginRole::kContext,
     .why = "GPU Operator validation init container"},
    {.field = Field::kName, .match = Match::kSuffix, .text = "-validator", .role = PluginRole::kContext,
     .why = "GPU Operator validator"},
    {.field = Field::kName, .match = Match::kContains, .text = "mps-control-daemon", .role = PluginRole::kContext,
     .why = "MPS control daemon"},
    {.field = Field::kCommand, .match = Match::kExact, .text = "config-manager", .role = PluginRole::kContext,
     .why = "runs config-manager"},
    {.field = Field::kCommand, .match = Match::kExact, .text = "vectorAdd", .role = PluginRole::kContext,
     .why = "GPU Operator validation workload"},
    {.field = Field::kCommand, .match = Match::kExact, .text = "nvidia-device-plugin", .role = PluginRole::kPlugin,
     .why = "runs nvidia-device-plugin"},
    {.field = Field::kCommand, .match = Match::kExact, .text = "nvidia-gpu-device-plugin", .role = PluginRole::kPlugin,
     .why = "runs GKE's nvidia-gpu-device-plugin"},
    {.field = Field::kImage, .match = Match::kContains, .text = "/k8s-device-plugin", .role = PluginRole::kPlugin,
     .why = "NVIDIA device plugin image"},
    {.field = Field::kImage, .match = Match::kContains, .text = "/nvidia-gpu-device-plugin",
     .role = PluginRole::kPlugin, .why = "GKE device plugin image"},
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
