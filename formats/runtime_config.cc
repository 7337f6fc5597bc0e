#include "formats/runtime_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <nlohmann/json.hpp>

// Debian's libtomlplusplus is a compiled library built with exceptions; its
// parse errors are caught below and become warnings.
#ifndef TOML_HEADER_ONLY
#define TOML_HEADER_ONLY 0
#endif
#include <toml++/toml.h>

#include "formats/json_syntax.h"

namespace gpuf {

namespace {

using nlohmann::json;

// --- TOML ---

int LineOf(const toml::node& node) { return static_cast<int>(node.source().begin.line); }

std::optional<toml::table> ParseToml(std::string_view text, std::vector<ParseWarning>& warnings) {
  try {
    return toml::parse(text);
  } catch (const toml::parse_error& e) {
    warnings.push_back({static_cast<int>(e.source().begin.line), std::string(e.description())});
    return std::nullopt;
  }
}

const toml::table* Table(const toml::table* table, std::string_view key) {
  return table ? table->get_as<toml::table>(key) : nullptr;
}

template <typename T>
const char* TypeName() {
  if constexpr (std::is_same_v<T, bool>) return "a boolean";
  if constexpr (std::is_same_v<T, int64_t>) return "an integer";
  return "a string";
}

// nullopt when absent; a warning too when present with another type.
template <typename T>
std::optional<T> Value(const toml::table* table, std::string_view key, std::vector<ParseWarning>& warnings) {
  const toml::node* node = table ? table->get(key) : nullptr;
  if (!node) return std::nullopt;
  std::optional<T> value = node->value_exact<T>();
  if (!value) warnings.push_back({LineOf(*node), std::string(key) + ": not " + TypeName<T>()});
  return value;
}

std::string String(const toml::table* table, std::string_view key, std::vector<ParseWarning>& warnings) {
  return Value<std::string>(table, key, warnings).value_or("");
}

std::vector<std::string> StringArray(const toml::table* table, std::string_view key,
                                     std::vector<ParseWarning>& warnings) {
  std::vector<std::string> out;
  const toml::node* node = table ? table->get(key) : nullptr;
  if (!node) return out;
  const toml::array* array = node->as_array();
  if (!array) {
    warnings.push_back({LineOf(*node), std::string(key) + ": not an array"});
    return out;
  }
  for (const toml::node& item : *array) {
    if (auto text = item.value_exact<std::string>()) {
      out.push_back(*text);
    } else {
      warnings.push_back({LineOf(item), std::string(key) + ": not a string"});
    }
  }
  return out;
}

// Sub-tables of `table` as (name, table), in toml++'s key order.
std::vector<std::pair<std::string, const toml::table*>> SubTables(const toml::table* table,
                                                                  std::vector<ParseWarning>& warnings) {
  std::vector<std::pair<std::string, const toml::table*>> out;
  if (!table) return out;
  for (auto&& [key, node] : *table) {
    if (const toml::table* sub = node.as_table()) {
      out.emplace_back(std::string(key.str()), sub);
    } else {
      warnings.push_back({LineOf(node), std::string(key.str()) + ": not a table"});
    }
  }
  return out;
}

// Where each schema version keeps the CRI plugin; the others are tried too,
// since drop-ins often omit `version`.
std::vector<const char*> CriPluginIds(int64_t version) {
  const char* v1 = "cri";
  const char* v2 = "io.containerd.grpc.v1.cri";
  const char* v3 = "io.containerd.cri.v1.runtime";
  if (version >= 3) return {v3, v2, v1};
  if (version == 2) return {v2, v3, v1};
  return {v1, v2, v3};
}

ContainerdRuntime ReadContainerdRuntime(std::string name, const toml::table* table,
                                        std::vector<ParseWarning>& warnings) {
  ContainerdRuntime runtime;
  runtime.name = std::move(name);
  runtime.runtime_type = String(table, "runtime_type", warnings);
  const toml::table* options = Table(table, "options");
  runtime.binary_name = String(options, "BinaryName", warnings);
  // The v1 linux shim names its OCI runtime in runtime_engine instead.
  bool v1_shim = runtime.runtime_type.empty() || runtime.runtime_type == "io.containerd.runtime.v1.linux";
  if (runtime.binary_name.empty() && v1_shim) runtime.binary_name = String(table, "runtime_engine", warnings);
  runtime.systemd_cgroup = Value<bool>(options, "SystemdCgroup", warnings);
  return runtime;
}

// --- JSON ---

std::string JsonString(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

bool AppendStrings(const json& list, std::vector<std::string>& out) {
  if (!list.is_array()) return false;
  for (const auto& item : list) {
    if (!item.is_string()) return false;
    out.push_back(item.get<std::string>());
  }
  return true;
}

// Before kubelet 1.20 DeviceIDs was a list; since, a map from NUMA node to list.
bool ReadDeviceIds(const json& ids, std::vector<std::string>& out) {
  if (ids.is_null()) return true;
  if (!ids.is_object()) return AppendStrings(ids, out);
  for (const auto& group : ids) {
    if (!group.is_null() && !AppendStrings(group, out)) return false;
  }
  return true;
}

}  // namespace

ContainerdConfig ParseContainerdConfig(std::string_view text) {
  ContainerdConfig config;
  auto& w = config.warnings;
  std::optional<toml::table> root = ParseToml(text, w);
  if (!root) return config;
  config.config_version = Value<int64_t>(&*root, "version", w).value_or(1);
  if (config.config_version > 3) {
    w.push_back({LineOf(*root->get("version")),
                 "version " + std::to_string(config.config_version) + " is newer than this parser knows"});
  }
  config.imports = StringArray(&*root, "imports", w);
  const toml::table* plugins = Table(&*root, "plugins");
  const toml::table* cri = nullptr;
  for (const char* id : CriPluginIds(config.config_version)) {
    if ((cri = Table(plugins, id))) break;
  }
  if (!cri) return config;
  config.enable_cdi = Value<bool>(cri, "enable_cdi", w);
  config.cdi_spec_dirs = StringArray(cri, "cdi_spec_dirs", w);
  config.cri_systemd_cgroup = Value<bool>(cri, "systemd_cgroup", w);
  const toml::table* containerd = Table(cri, "containerd");
  config.default_runtime_name = String(containerd, "default_runtime_name", w);
  // Version 1's unnamed default runtime.
  if (const toml::table* legacy = Table(containerd, "default_runtime")) {
    config.runtimes.push_back(ReadContainerdRuntime("default_runtime", legacy, w));
  }
  for (const auto& [name, table] : SubTables(Table(containerd, "runtimes"), w)) {
    config.runtimes.push_back(ReadContainerdRuntime(name, table, w));
  }
  return config;
}

NvidiaRuntimeConfig ParseNvidiaRuntimeConfig(std::string_view text) {
  NvidiaRuntimeConfig config;
  auto& w = config.warnings;
  std::optional<toml::table> root = ParseToml(text, w);
  if (!root) return config;
  const toml::table* runtime = Table(&*root, "nvidia-container-runtime");
  config.mode = String(runtime, "mode", w);
  config.debug_log = String(runtime, "debug", w);
  const toml::table* cli = Table(&*root, "nvidia-container-cli");
  config.no_cgroups = Value<bool>(cli, "no-cgroups", w);
  config.cli_debug_log = String(cli, "debug", w);
  return config;
}

CrioConfig ParseCrioConfig(std::string_view text) {
  CrioConfig config;
  auto& w = config.warnings;
  std::optional<toml::table> root = ParseToml(text, w);
  if (!root) return config;
  const toml::table* runtime = Table(Table(&*root, "crio"), "runtime");
  config.default_runtime = String(runtime, "default_runtime", w);
  config.cgroup_manager = String(runtime, "cgroup_manager", w);
  for (const auto& [name, table] : SubTables(Table(runtime, "runtimes"), w)) {
    config.runtimes.push_back({name, String(table, "runtime_path", w), String(table, "runtime_type", w)});
  }
  return config;
}

KubeletConfig ParseKubeletConfig(std::string_view text) {
  KubeletConfig config;
  auto& w = config.warnings;
  auto line_of = [](const YAML::Node& node) { return node.Mark().is_null() ? 0 : node.Mark().line + 1; };
  auto scalar = [&](const YAML::Node& map, const char* key) -> std::string {
    const YAML::Node node = map[key];
    if (!node || node.IsNull()) return "";
    if (node.IsScalar()) return node.Scalar();
    w.push_back({line_of(node), std::string(key) + ": not a string"});
    return "";
  };
  // yaml-cpp reports both syntax and access errors by throwing.
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    if (!root.IsMap()) {
      w.push_back({line_of(root), "not a YAML mapping"});
      return config;
    }
    config.cgroup_driver = scalar(root, "cgroupDriver");
    config.cpu_manager_policy = scalar(root, "cpuManagerPolicy");
    config.static_pod_path = scalar(root, "staticPodPath");
    const YAML::Node gates = root["featureGates"];
    if (gates && !gates.IsNull() && !gates.IsMap()) w.push_back({line_of(gates), "featureGates: not a mapping"});
    if (gates && gates.IsMap()) {
      for (const auto& gate : gates) {
        bool enabled = false;
        std::string name = gate.first.IsScalar() ? gate.first.Scalar() : "";
        if (name.empty() || !YAML::convert<bool>::decode(gate.second, enabled)) {
          w.push_back({line_of(gate.second), "featureGates." + name + ": not a boolean"});
          continue;
        }
        config.feature_gates[name] = enabled;
      }
    }
  } catch (const YAML::Exception& e) {
    config = KubeletConfig();
    config.warnings.push_back({e.mark.is_null() ? 0 : e.mark.line + 1, e.msg});
  } catch (const std::exception& e) {
    config = KubeletConfig();
    config.warnings.push_back({0, e.what()});
  }
  return config;
}

KubeletCheckpoint ParseKubeletCheckpoint(std::string_view text) {
  KubeletCheckpoint checkpoint;
  auto& w = checkpoint.warnings;
  json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) {
    w.push_back(JsonSyntaxWarning(text));
    return checkpoint;
  }
  auto data = doc.is_object() ? doc.find("Data") : doc.end();
  if (data == doc.end() || !data->is_object()) {
    w.push_back({0, "no \"Data\" object"});
    return checkpoint;
  }
  auto registered = data->find("RegisteredDevices");
  if (registered != data->end() && registered->is_object()) {
    for (auto it = registered->begin(); it != registered->end(); ++it) {
      auto& ids = checkpoint.registered_devices[it.key()];
      if (!it->is_null() && !AppendStrings(*it, ids)) {
        w.push_back({0, "RegisteredDevices." + it.key() + ": not a list of strings"});
      }
    }
  }
  auto entries = data->find("PodDeviceEntries");
  if (entries == data->end() || !entries->is_array()) return checkpoint;
  for (size_t i = 0; i < entries->size(); ++i) {
    const json& entry = (*entries)[i];
    std::string where = "PodDeviceEntries[" + std::to_string(i) + "]";
    if (!entry.is_object()) {
      w.push_back({0, where + ": not an object"});
      continue;
    }
    CheckpointPodDevices pod;
    pod.pod_uid = JsonString(entry, "PodUID");
    pod.container_name = JsonString(entry, "ContainerName");
    pod.resource = JsonString(entry, "ResourceName");
    auto ids = entry.find("DeviceIDs");
    if (ids != entry.end() && !ReadDeviceIds(*ids, pod.device_ids)) {
      w.push_back({0, where + ".DeviceIDs: neither a list nor a NUMA map of lists"});
    }
    checkpoint.pod_entries.push_back(std::move(pod));
  }
  return checkpoint;
}

}  // namespace gpuf
