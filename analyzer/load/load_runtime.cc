// Loaders for the container runtime's view: containers, their device
// cgroups, their configuration, and what nvidia-smi saw inside the
// device-plugin containers.
#include <algorithm>

#include <nlohmann/json.hpp>

#include "analyzer/load/member_loaders.h"
#include "analyzer/load/plugin_settings.h"
#include "common/plugin_roles.h"
#include "common/text_lines.h"
#include "formats/bpf_device_program.h"
#include "formats/cgroup_facts.h"
#include "formats/crictl_json.h"
#include "formats/nvidia_smi_list.h"

namespace gpuf {

namespace {

std::optional<int64_t> NullIfZero(std::optional<int64_t> v) {
  if (v && *v == 0) return std::nullopt;
  return v;
}

std::optional<int64_t> BoolColumn(const std::optional<bool>& v) {
  if (!v) return std::nullopt;
  return *v ? 1 : 0;
}

int64_t NvidiaDevicesInSpec(const ContainerInspect& c) {
  int64_t n = 0;
  for (const auto& path : c.device_paths) n += path.rfind("/dev/nvidia", 0) == 0;
  return n;
}

// Every source adds what it knows; none erases what another said.
void UpsertContainer(LoadContext& ctx, const MemberInput& in, const ContainerInspect& c, bool is_plugin) {
  const bool exited = c.state == "CONTAINER_EXITED";
  ctx.Run("INSERT INTO containers (bundle_id, artifact_id, id, name, pod_name, pod_namespace, pod_uid, image, state, "
          "attempt, created_at_ns, started_at_ns, finished_at_ns, exit_code, privileged, pid, cgroups_path, log_path, "
          "legacy_nvidia_hook, spec_nvidia_devices, is_plugin) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?) "
          "ON CONFLICT (bundle_id, id) DO UPDATE SET name = coalesce(excluded.name, name), "
          "pod_name = coalesce(excluded.pod_name, pod_name), pod_namespace = coalesce(excluded.pod_namespace, "
          "pod_namespace), pod_uid = coalesce(excluded.pod_uid, pod_uid), image = coalesce(excluded.image, image), "
          "state = coalesce(excluded.state, state), attempt = coalesce(excluded.attempt, attempt), "
          "created_at_ns = coalesce(excluded.created_at_ns, created_at_ns), "
          "started_at_ns = coalesce(excluded.started_at_ns, started_at_ns), "
          "finished_at_ns = coalesce(excluded.finished_at_ns, finished_at_ns), "
          "exit_code = coalesce(excluded.exit_code, exit_code), privileged = coalesce(excluded.privileged, privileged), "
          "pid = coalesce(excluded.pid, pid), cgroups_path = coalesce(excluded.cgroups_path, cgroups_path), "
          "log_path = coalesce(excluded.log_path, log_path), "
          "legacy_nvidia_hook = coalesce(excluded.legacy_nvidia_hook, legacy_nvidia_hook), "
          "spec_nvidia_devices = coalesce(excluded.spec_nvidia_devices, spec_nvidia_devices), "
          "is_plugin = max(excluded.is_plugin, is_plugin)",
          ctx.bundle_id(), in.artifact_id, c.id, NullIfEmpty(c.name), NullIfEmpty(c.pod_name),
          NullIfEmpty(c.pod_namespace), NullIfEmpty(c.pod_uid), NullIfEmpty(c.image), NullIfEmpty(c.state),
          c.attempt, c.created.unix_ns, c.started.unix_ns, c.finished.unix_ns,
          exited ? c.exit_code : std::nullopt, BoolColumn(c.privileged), NullIfZero(c.pid),
          NullIfEmpty(c.cgroups_path), NullIfEmpty(c.log_path),
          c.runtime_type.empty() && c.cgroups_path.empty() ? std::nullopt
                                                           : std::optional<int64_t>(c.legacy_nvidia_hook),
          c.cgroups_path.empty() ? std::nullopt : std::optional<int64_t>(NvidiaDevicesInSpec(c)), is_plugin);
}

void AddSetting(LoadContext& ctx, const MemberInput& in, const std::optional<std::string>& container,
                const PluginSetting& s, const char* source) {
  ctx.Run("INSERT INTO plugin_config (artifact_id, container_id, key, value, source) VALUES (?,?,?,?,?)",
          in.artifact_id, container, s.key, s.value, source);
}

// Environment values the collector kept (it redacts all but settings);
// ContainerInspect holds only names, so they are read from the JSON here.
void AddEnvSettings(LoadContext& ctx, const MemberInput& in, const std::string& id) {
  auto doc = nlohmann::json::parse(in.bytes.begin(), in.bytes.end(), nullptr, false);
  if (doc.is_discarded()) return;
  const nlohmann::json* env = nullptr;
  for (const auto& path : {"/info/runtimeSpec/process/env", "/Spec/process/env"}) {
    auto pointer = nlohmann::json::json_pointer(path);
    if (doc.contains(pointer) && doc.at(pointer).is_array()) env = &doc.at(pointer);
  }
  if (!env) return;
  for (const auto& entry : *env) {
    if (!entry.is_string()) continue;
    std::string text = entry.get<std::string>();
    size_t eq = text.find('=');
    std::string key = eq == std::string::npos ? "" : SettingKeyForEnv(text.substr(0, eq));
    if (!key.empty()) AddSetting(ctx, in, id, {key, text.substr(eq + 1)}, "env");
  }
}

void AddSpecDeviceRules(LoadContext& ctx, const MemberInput& in, const ContainerInspect& c) {
  for (const auto& rule : c.device_rules) {
    ctx.Run("INSERT INTO device_cgroup_rules (artifact_id, container_id, source, allow, type, major, minor, access) "
            "VALUES (?,?,'oci_spec',?,?,?,?,?)",
            in.artifact_id, c.id, rule.allow, std::string(1, rule.type), rule.major, rule.minor,
            NullIfEmpty(rule.access));
  }
}

// The container runs the device plugin (common/plugin_roles.h): a sidecar,
// init container or validator in the plugin's pod is context, not the plugin.
bool RunsPlugin(LoadContext& ctx, const ContainerInspect& c, bool candidate) {
  const bool name_matches = candidate || ctx.IsPluginName(c.name) || ctx.IsPluginName(c.pod_name);
  return ClassifyPluginRole({c.name, c.image, c.args}, name_matches).role == PluginRole::kPlugin;
}

// `candidate`: the collector inspected it as a plugin container.
void LoadInspections(LoadContext& ctx, const MemberInput& in, const ContainerInspections& parsed, bool candidate) {
  ctx.WarnAll(in.artifact_id, in.output.member, parsed.warnings);
  for (const auto& c : parsed.containers) {
    if (c.id.empty()) continue;
    bool is_plugin = RunsPlugin(ctx, c, candidate);
    UpsertContainer(ctx, in, c, is_plugin);
    if (!is_plugin) continue;
    AddSpecDeviceRules(ctx, in, c);
    AddEnvSettings(ctx, in, c.id);
    for (const auto& s : SettingsFromArgs(c.args)) AddSetting(ctx, in, c.id, s, "args");
  }
}

void Fact(LoadContext& ctx, const MemberInput& in, const std::optional<std::string>& container, const std::string& key,
          const std::string& value) {
  ctx.Run("INSERT INTO cgroup_facts (artifact_id, container_id, key, value) VALUES (?,?,?,?)", in.artifact_id,
          container, key, value);
}

}  // namespace

void LoadCrictlPs(LoadContext& ctx, const MemberInput& in) {
  CriContainers parsed = ParseCrictlPs(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, parsed.warnings);
  for (const auto& row : parsed.containers) {
    ContainerInspect c;
    c.id = row.id;
    c.name = row.name;
    c.pod_name = row.pod_name;
    c.pod_namespace = row.pod_namespace;
    c.pod_uid = row.pod_uid;
    c.image = row.image;
    c.state = row.state;
    c.attempt = row.attempt;
    c.created.unix_ns = row.created_at_ns;
    UpsertContainer(ctx, in, c, RunsPlugin(ctx, c, false));
  }
}

void LoadCrictlInspect(LoadContext& ctx, const MemberInput& in) {
  LoadInspections(ctx, in, ParseCrictlInspect(in.bytes), /*candidate=*/true);
}

void LoadCtrContainerInfo(LoadContext& ctx, const MemberInput& in) {
  LoadInspections(ctx, in, ParseCtrContainerInfo(in.bytes), /*candidate=*/false);
}

// Runs after LoadNvidiaSmiRun (see the table in loader.cc), whose outcome
// the error row repeats so that one table answers "what did the container see".
void LoadContainerGpuView(LoadContext& ctx, const MemberInput& in) {
  const std::string& id = in.artifact.container_id;
  auto gpus = ParseNvidiaSmiList(in.bytes);
  if (gpus.empty()) {
    ctx.Run("INSERT INTO container_gpu_views (artifact_id, container_id, outcome, detail) "
            "SELECT artifact_id, ?, outcome, message FROM nvidia_smi_runs WHERE artifact_id = ?",
            id, in.artifact_id);
    return;
  }
  for (const auto& g : gpus) {
    ctx.Run("INSERT INTO container_gpu_views (artifact_id, container_id, outcome, line, gpu_index, name, uuid) "
            "VALUES (?,?,'ok',?,?,?,?)",
            in.artifact_id, id, g.line, g.index, g.name, g.uuid);
  }
}

void LoadDevicesList(LoadContext& ctx, const MemberInput& in) {
  DevicesList list = ParseDevicesList(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, list.warnings);
  for (const auto& rule : list.rules) {
    ctx.Run("INSERT INTO device_cgroup_rules (artifact_id, container_id, source, line, allow, type, major, minor, "
            "access) VALUES (?,?,'devices.list',?,1,?,?,?,?)",
            in.artifact_id, in.artifact.container_id, rule.line, std::string(1, rule.type), rule.major, rule.minor,
            rule.access);
  }
}

void LoadSystemdScope(LoadContext& ctx, const MemberInput& in) {
  SystemdShow show = ParseSystemctlShow(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, show.warnings);
  const std::string& id = in.artifact.container_id;
  for (const auto& unit : show.units) {
    for (const auto& [key, values] : unit.values) {
      for (const auto& value : values) Fact(ctx, in, id, key, value);
    }
    for (const auto& allow : unit.values.count("DeviceAllow") ? unit.values.at("DeviceAllow")
                                                               : std::vector<std::string>{}) {
      // "/dev/char/195:0 rw" is the only form that names a device offline.
      unsigned major = 0, minor = 0;
      char access[8] = {};
      if (std::sscanf(allow.c_str(), "/dev/char/%u:%u %7s", &major, &minor, access) == 3) {
        ctx.Run("INSERT INTO device_cgroup_rules (artifact_id, container_id, source, allow, type, major, minor, "
                "access) VALUES (?,?,'systemd_device_allow',1,'c',?,?,?)",
                in.artifact_id, id, int64_t{major}, int64_t{minor}, std::string(access));
      }
    }
  }
}

namespace {

constexpr int64_t kNvidiaMajor = 195;  // /dev/nvidiaN, nvidiactl (255), nvidia-modeset (254)

// "rw", "r", "w" or "": what the program lets through to c 195:minor.
std::string NvidiaAccess(const BpfDeviceProgram& program, int64_t minor) {
  auto allows = [&](int access) {
    return BpfDeviceAllows(program, 'c', kNvidiaMajor, minor, access).value_or(false);
  };
  if (allows(kBpfDevRead | kBpfDevWrite)) return "rw";
  if (allows(kBpfDevRead)) return "r";
  if (allows(kBpfDevWrite)) return "w";
  return "";
}

}  // namespace

// One device program of a container's cgroup (v2), run for every NVIDIA
// minor: a row per minor it lets through, or one row for all when it treats
// them alike; a program that lets none through says so in a deny row, so
// that each program has rows. Several programs on one cgroup must all allow.
void LoadBpfDeviceProgram(LoadContext& ctx, const MemberInput& in) {
  BpfDeviceProgram program = ParseBpfXlated(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, program.warnings);
  if (!program.readable) return;
  std::vector<std::string> access(256);
  for (int64_t minor = 0; minor < 256; ++minor) access[minor] = NvidiaAccess(program, minor);
  auto insert = [&](int64_t allow, std::optional<int64_t> minor, const std::string& what) {
    ctx.Run("INSERT INTO device_cgroup_rules (artifact_id, container_id, source, allow, type, major, minor, access) "
            "VALUES (?,?,'bpf_program',?,'c',?,?,?)",
            in.artifact_id, in.artifact.container_id, allow, kNvidiaMajor, minor, what);
  };
  if (std::all_of(access.begin(), access.end(), [&](const std::string& a) { return a == access[0]; })) {
    insert(access[0].empty() ? 0 : 1, std::nullopt, access[0].empty() ? "rw" : access[0]);
    return;
  }
  for (int64_t minor = 0; minor < 256; ++minor) {
    if (!access[minor].empty()) insert(1, minor, access[minor]);
  }
}

void LoadBpftoolCgroup(LoadContext& ctx, const MemberInput& in) {
  BpfCgroupPrograms parsed = ParseBpftoolCgroup(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, parsed.warnings);
  int64_t device_programs = 0;
  for (const auto& p : parsed.programs) {
    if (p.attach_type == "cgroup_device" || p.attach_type == "device") ++device_programs;
  }
  Fact(ctx, in, in.artifact.container_id, "bpf_device_programs", std::to_string(device_programs));
}

// /proc/PID/cgroup: "0::/path" (v2) or "N:devices:/path" (v1), the
// container's cgroup as the kernel sees it.
void LoadProcCgroup(LoadContext& ctx, const MemberInput& in) {
  ForEachLine(in.bytes, [&](int, std::string_view line) {
    size_t first = line.find(':');
    size_t second = first == std::string_view::npos ? first : line.find(':', first + 1);
    if (second == std::string_view::npos) return;
    std::string_view controllers = line.substr(first + 1, second - first - 1);
    std::string path(line.substr(second + 1));
    if (line.substr(0, first) == "0" && controllers.empty()) {
      Fact(ctx, in, in.artifact.container_id, "cgroup_path_v2", path);
    } else if (("," + std::string(controllers) + ",").find(",devices,") != std::string::npos) {
      Fact(ctx, in, in.artifact.container_id, "cgroup_path_devices", path);
    }
  });
}

void LoadMountinfo(LoadContext& ctx, const MemberInput& in) {
  CgroupLayout layout = ParseCgroupMountinfo(in.bytes);
  ctx.WarnAll(in.artifact_id, in.output.member, layout.warnings);
  if (!layout.mode.empty()) Fact(ctx, in, std::nullopt, "mode", layout.mode);
  Fact(ctx, in, std::nullopt, "v1_devices_controller", layout.v1_devices ? "true" : "false");
}

void LoadStatfs(LoadContext& ctx, const MemberInput& in) {
  std::string word(in.bytes.substr(0, in.bytes.find('\n')));
  if (!word.empty()) Fact(ctx, in, std::nullopt, "statfs", word);
}

void LoadStaticPod(LoadContext& ctx, const MemberInput& in) {
  for (const auto& s : SettingsFromPodManifest(in.bytes)) AddSetting(ctx, in, std::nullopt, s, "static_pod");
}

}  // namespace gpuf
