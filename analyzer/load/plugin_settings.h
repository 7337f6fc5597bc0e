// Device-plugin settings from where a deployment writes them: environment
// variables (FAIL_ON_INIT_ERROR=false), flags (--fail-on-init-error=false),
// in a runtime spec or a static pod manifest. Keys use the names of the
// plugin's own config dump ("failOnInitError"), so that every source lands
// in plugin_config under one name.
#ifndef GPUF_ANALYZER_LOAD_PLUGIN_SETTINGS_H_
#define GPUF_ANALYZER_LOAD_PLUGIN_SETTINGS_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

struct PluginSetting {
  std::string key;    // "failOnInitError"
  std::string value;  // "false"
};

// "FAIL_ON_INIT_ERROR" -> "failOnInitError"; "" for variables that are not settings.
std::string SettingKeyForEnv(std::string_view name);

// "--fail-on-init-error=false" -> {failOnInitError, false}; also "--flag value".
std::vector<PluginSetting> SettingsFromArgs(const std::vector<std::string>& args);

// env / args of every container in a pod manifest (YAML or JSON).
std::vector<PluginSetting> SettingsFromPodManifest(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_LOAD_PLUGIN_SETTINGS_H_
