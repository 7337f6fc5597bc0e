// Loaders for configuration files and version outputs: the values that
// decide how GPUs reach containers, flattened into config_values.
#include <nlohmann/json.hpp>

#include "analyzer/load/member_loaders.h"
#include "formats/runtime_config.h"
#include "formats/version_strings.h"

namespace gpuf {

namespace {

void Value(LoadContext& ctx, const MemberInput& in, const std::string& key, const std::string& value) {
  ctx.Run("INSERT INTO config_values (artifact_id, key, value) VALUES (?,?,?)", in.artifact_id, key, value);
}

void Value(LoadContext& ctx, const MemberInput& in, const std::string& key, const std::optional<bool>& value) {
  if (value) Value(ctx, in, key, std::string(*value ? "true" : "false"));
}

}  // namespace

void LoadContainerdConfig(LoadContext& ctx, const MemberInput& in) {
  ContainerdConfig c = ParseContainerdConfig(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, c.warnings);
  Value(ctx, in, "containerd.config_version", std::to_string(c.config_version));
  if (!c.default_runtime_name.empty()) Value(ctx, in, "containerd.default_runtime_name", c.default_runtime_name);
  Value(ctx, in, "containerd.cri_systemd_cgroup", c.cri_systemd_cgroup);
  Value(ctx, in, "containerd.enable_cdi", c.enable_cdi);
  for (const auto& r : c.runtimes) {
    const std::string prefix = "containerd.runtime." + r.name + ".";
    if (!r.runtime_type.empty()) Value(ctx, in, prefix + "runtime_type", r.runtime_type);
    if (!r.binary_name.empty()) Value(ctx, in, prefix + "binary_name", r.binary_name);
    Value(ctx, in, prefix + "systemd_cgroup", r.systemd_cgroup);
  }
  for (const auto& glob : c.imports) Value(ctx, in, "containerd.import", glob);
}

void LoadCrioConfig(LoadContext& ctx, const MemberInput& in) {
  CrioConfig c = ParseCrioConfig(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, c.warnings);
  if (!c.default_runtime.empty()) Value(ctx, in, "crio.default_runtime", c.default_runtime);
  if (!c.cgroup_manager.empty()) Value(ctx, in, "crio.cgroup_manager", c.cgroup_manager);
  for (const auto& r : c.runtimes) {
    const std::string prefix = "crio.runtime." + r.name + ".";
    if (!r.runtime_path.empty()) Value(ctx, in, prefix + "runtime_path", r.runtime_path);
    if (!r.runtime_type.empty()) Value(ctx, in, prefix + "runtime_type", r.runtime_type);
  }
}

void LoadNvidiaRuntimeConfig(LoadContext& ctx, const MemberInput& in) {
  NvidiaRuntimeConfig c = ParseNvidiaRuntimeConfig(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, c.warnings);
  Value(ctx, in, "nvidia_runtime.mode", c.mode.empty() ? std::string("auto") : c.mode);
  Value(ctx, in, "nvidia_runtime.no_cgroups", c.no_cgroups);
}

void LoadKubeletConfig(LoadContext& ctx, const MemberInput& in) {
  KubeletConfig c = ParseKubeletConfig(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, c.warnings);
  if (!c.cgroup_driver.empty()) Value(ctx, in, "kubelet.cgroup_driver", c.cgroup_driver);
  if (!c.cpu_manager_policy.empty()) Value(ctx, in, "kubelet.cpu_manager_policy", c.cpu_manager_policy);
  if (!c.static_pod_path.empty()) Value(ctx, in, "kubelet.static_pod_path", c.static_pod_path);
  for (const auto& [gate, on] : c.feature_gates) Value(ctx, in, "kubelet.feature_gate." + gate, std::optional<bool>(on));
}

void LoadKubeletCheckpoint(LoadContext& ctx, const MemberInput& in) {
  KubeletCheckpoint c = ParseKubeletCheckpoint(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, c.warnings);
  for (const auto& [resource, devices] : c.registered_devices) {
    Value(ctx, in, "checkpoint.registered." + resource, std::to_string(devices.size()));
  }
  Value(ctx, in, "checkpoint.pod_device_entries", std::to_string(c.pod_entries.size()));
}

// `crictl info -o json`: the runtime's merged, effective configuration.
void LoadCrictlInfo(LoadContext& ctx, const MemberInput& in) {
  auto doc = nlohmann::json::parse(in.bytes.begin(), in.bytes.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) {
    ctx.Warn(in.artifact_id, in.output.member, 0, "crictl info output is not a JSON object");
    return;
  }
  auto text = [&](const char* pointer) -> std::string {
    auto p = nlohmann::json::json_pointer(pointer);
    return doc.contains(p) && doc.at(p).is_string() ? doc.at(p).get<std::string>() : "";
  };
  std::string runtime = text("/config/containerd/defaultRuntimeName");
  if (!runtime.empty()) Value(ctx, in, "crictl_info.default_runtime_name", runtime);
  auto runtimes = nlohmann::json::json_pointer("/config/containerd/runtimes");
  if (doc.contains(runtimes) && doc.at(runtimes).is_object()) {
    for (const auto& [name, r] : doc.at(runtimes).items()) {
      auto systemd = r.find("options");
      if (systemd != r.end() && systemd->is_object() && systemd->contains("SystemdCgroup") &&
          (*systemd)["SystemdCgroup"].is_boolean()) {
        Value(ctx, in, "crictl_info.runtime." + name + ".systemd_cgroup",
              std::optional<bool>((*systemd)["SystemdCgroup"].get<bool>()));
      }
    }
  }
  auto cdi = nlohmann::json::json_pointer("/config/enableCDI");
  if (doc.contains(cdi) && doc.at(cdi).is_boolean()) {
    Value(ctx, in, "crictl_info.enable_cdi", std::optional<bool>(doc.at(cdi).get<bool>()));
  }
}

void LoadVersions(LoadContext& ctx, const MemberInput& in) {
  ParsedVersions parsed = ParseVersionOutput(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, parsed.warnings);
  for (const auto& c : parsed.components) {
    ctx.Run("INSERT INTO versions (artifact_id, component, version, major, minor, patch, suffix) "
            "VALUES (?,?,?,?,?,?,?)",
            in.artifact_id, c.component, c.version, c.parts.major, c.parts.minor, c.parts.patch,
            NullIfEmpty(c.parts.suffix));
  }
}

}  // namespace gpuf
