#include "analyzer/load/plugin_settings.h"

#include <yaml-cpp/yaml.h>

namespace gpuf {

namespace {

struct SettingName {
  std::string_view env;
  std::string_view flag;
  std::string_view key;
};

// The plugin's flags and their environment twins (urfave/cli EnvVars).
constexpr SettingName kSettings[] = {
    {"FAIL_ON_INIT_ERROR", "fail-on-init-error", "failOnInitError"},
    {"MIG_STRATEGY", "mig-strategy", "migStrategy"},
    {"PASS_DEVICE_SPECS", "pass-device-specs", "passDeviceSpecs"},
    {"DEVICE_LIST_STRATEGY", "device-list-strategy", "deviceListStrategy"},
    {"DEVICE_ID_STRATEGY", "device-id-strategy", "deviceIDStrategy"},
    {"NVIDIA_DRIVER_ROOT", "nvidia-driver-root", "nvidiaDriverRoot"},
    {"DEVICE_DISCOVERY_STRATEGY", "device-discovery-strategy", "deviceDiscoveryStrategy"},
    {"CONFIG_FILE", "config-file", "configFile"},
    // The NVIDIA Container Toolkit's, not the plugin's: without it a
    // container may not read MIG devices (no flag twin).
    {"NVIDIA_MIG_MONITOR_DEVICES", "", "migMonitorDevices"},
};

std::string KeyForFlag(std::string_view flag) {
  if (flag.empty()) return "";
  for (const auto& s : kSettings) {
    if (s.flag == flag) return std::string(s.key);
  }
  return "";
}

void AddYamlStrings(const YAML::Node& node, std::vector<std::string>& out) {
  if (!node || !node.IsSequence()) return;
  for (const auto& item : node) {
    if (item.IsScalar()) out.push_back(item.as<std::string>());
  }
}

}  // namespace

std::string SettingKeyForEnv(std::string_view name) {
  for (const auto& s : kSettings) {
    if (s.env == name) return std::string(s.key);
  }
  return "";
}

std::vector<PluginSetting> SettingsFromArgs(const std::vector<std::string>& args) {
  std::vector<PluginSetting> settings;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view arg = args[i];
    if (arg.substr(0, 2) != "--") continue;
    arg.remove_prefix(2);
    size_t eq = arg.find('=');
    std::string key = KeyForFlag(arg.substr(0, eq));
    if (key.empty()) continue;
    if (eq != std::string_view::npos) {
      settings.push_back({key, std::string(arg.substr(eq + 1))});
    } else if (i + 1 < args.size() && args[i + 1].rfind("--", 0) != 0) {
      settings.push_back({key, args[++i]});
    } else {
      settings.push_back({key, "true"});  // a boolean flag given alone
    }
  }
  return settings;
}

std::vector<PluginSetting> SettingsFromPodManifest(std::string_view text) {
  std::vector<PluginSetting> settings;
  try {
    YAML::Node pod = YAML::Load(std::string(text));
    YAML::Node containers = pod["spec"]["containers"];
    if (!containers || !containers.IsSequence()) return settings;
    for (const auto& container : containers) {
      YAML::Node envs = container["env"];
      if (!envs || !envs.IsSequence()) envs = YAML::Node(YAML::NodeType::Sequence);
      for (const auto& env : envs) {
        if (!env["name"] || !env["value"] || !env["value"].IsScalar()) continue;
        std::string key = SettingKeyForEnv(env["name"].as<std::string>());
        if (!key.empty()) settings.push_back({key, env["value"].as<std::string>()});
      }
      std::vector<std::string> args;
      AddYamlStrings(container["command"], args);
      AddYamlStrings(container["args"], args);
      for (auto& s : SettingsFromArgs(args)) settings.push_back(std::move(s));
    }
  } catch (const std::exception&) {
    // Not YAML we can read: no settings from it.
  }
  return settings;
}

}  // namespace gpuf
