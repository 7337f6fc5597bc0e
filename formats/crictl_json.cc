#include "formats/crictl_json.h"

#include <algorithm>
#include <charconv>
#include <initializer_list>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "common/time_format.h"
#include "formats/json_syntax.h"

namespace gpuf {

namespace {

using nlohmann::json;
using Path = std::initializer_list<const char*>;

// Runtimes write "never" as the Go zero time (year 1) or as the Unix epoch,
// in whatever zone crictl ran in; nothing real happened before 1971.
constexpr int64_t kFirstNsOf1971 = 365LL * 86400 * 1000000000;
// int64 nanoseconds end in April 2262.
constexpr int kLastYear = 2261;

const json* At(const json& node, Path path) {
  const json* at = &node;
  for (const char* key : path) {
    if (!at->is_object()) return nullptr;
    auto it = at->find(key);
    if (it == at->end()) return nullptr;
    at = &*it;
  }
  return at;
}

std::string Str(const json& node, Path path) {
  const json* at = At(node, path);
  return at && at->is_string() ? at->get<std::string>() : "";
}

const json& Array(const json& node, Path path) {
  static const json empty = json::array();
  const json* at = At(node, path);
  return at && at->is_array() ? *at : empty;
}

std::vector<std::string> Strings(const json& node, Path path) {
  std::vector<std::string> out;
  for (const auto& item : Array(node, path)) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

std::string OffsetOf(std::string_view text) {
  if (!text.empty() && (text.back() == 'Z' || text.back() == 'z')) return "Z";
  if (text.size() >= 6 && (text[text.size() - 6] == '+' || text[text.size() - 6] == '-') &&
      text[text.size() - 3] == ':') {
    return std::string(text.substr(text.size() - 6));
  }
  return "";
}

// Reads typed fields of one entry and reports the ones of the wrong type as
// "containers[2].createdAt: not an integer: true".
class Fields {
 public:
  Fields(std::vector<ParseWarning>& warnings, int line, std::string where)
      : warnings_(warnings), line_(line), where_(std::move(where)) {}

  Fields Sub(const std::string& more) const { return Fields(warnings_, line_, Join(where_, more)); }

  // `field` is relative to this entry; "" for the entry itself.
  void Warn(const std::string& field, const std::string& problem) {
    std::string where = Join(where_, field);
    warnings_.push_back({line_, where.empty() ? problem : where + ": " + problem});
  }

  std::optional<int64_t> Int(const json& node, Path path) {
    const json* at = At(node, path);
    if (!at || at->is_null()) return std::nullopt;
    int64_t value = 0;
    if (at->is_number_integer() && !at->is_number_unsigned()) return at->get<int64_t>();
    if (at->is_number_unsigned() && at->get<uint64_t>() <= uint64_t{std::numeric_limits<int64_t>::max()}) {
      return static_cast<int64_t>(at->get<uint64_t>());
    }
    if (at->is_string()) {
      const std::string& s = at->get_ref<const std::string&>();
      auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
      if (!s.empty() && ec == std::errc() && ptr == s.data() + s.size()) return value;
    }
    Warn(Name(path), "not an integer: " + Shown(*at));
    return std::nullopt;
  }

  std::optional<int64_t> UnixNs(const json& node, Path path) {
    auto ns = Int(node, path);
    return ns && *ns >= kFirstNsOf1971 ? ns : std::nullopt;
  }

  CriTime Time(const json& node, Path path) {
    CriTime time;
    const json* at = At(node, path);
    if (!at || at->is_null()) return time;
    if (!at->is_string() || IsDigits(at->get_ref<const std::string&>())) {
      time.unix_ns = UnixNs(node, path);
      return time;
    }
    const std::string& text = at->get_ref<const std::string&>();
    int year = text.size() >= 4 && IsDigits(text.substr(0, 4)) ? std::stoi(text.substr(0, 4)) : -1;
    if (year >= 0 && year <= 1970) {
      time.offset = OffsetOf(text);
      return time;
    }
    if (year > kLastYear) {
      Warn(Name(path), "out of range: " + text);
      return time;
    }
    auto ns = ParseRfc3339(text);
    if (!ns.ok()) {
      Warn(Name(path), ns.status().message());
      return time;
    }
    time.unix_ns = *ns;
    time.offset = OffsetOf(text);
    return time;
  }

 private:
  static bool IsDigits(const std::string& s) {
    size_t start = !s.empty() && s[0] == '-' ? 1 : 0;
    return s.size() > start && s.find_first_not_of("0123456789", start) == std::string::npos;
  }

  static std::string Join(const std::string& a, const std::string& b) {
    return a.empty() || b.empty() || b[0] == '[' ? a + b : a + "." + b;
  }

  static std::string Name(Path path) {
    std::string name;
    for (const char* key : path) name += (name.empty() ? "" : ".") + std::string(key);
    return name;
  }

  static std::string Shown(const json& value) {
    std::string text = value.dump();
    return text.size() > 64 ? text.substr(0, 64) + "..." : text;
  }

  std::vector<ParseWarning>& warnings_;
  int line_;
  std::string where_;
};

// Older crictl printed one object per ID, one after another; nlohmann reads
// one value per call, so the stream is cut at depth-zero closing brackets.
struct JsonDocument {
  int line = 1;
  std::string_view text;
};

std::vector<JsonDocument> SplitJsonValues(std::string_view text, std::vector<ParseWarning>& warnings) {
  std::vector<JsonDocument> docs;
  int line = 1;
  size_t pos = 0;
  while (pos < text.size()) {
    char c = text[pos];
    if (c == '\n') ++line;
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n') {
      ++pos;
      continue;
    }
    if (c != '{' && c != '[') {
      size_t end = std::min(text.find('\n', pos), text.size());
      warnings.push_back({line, "not JSON: " + std::string(text.substr(pos, end - pos))});
      pos = end;
      continue;
    }
    JsonDocument doc{line, {}};
    size_t start = pos;
    int depth = 0;
    bool in_string = false;
    for (; pos < text.size(); ++pos) {
      char ch = text[pos];
      if (ch == '\n') ++line;
      if (in_string) {
        if (ch == '\\') ++pos;
        else if (ch == '"') in_string = false;
      } else if (ch == '"') {
        in_string = true;
      } else if (ch == '{' || ch == '[') {
        ++depth;
      } else if ((ch == '}' || ch == ']') && --depth == 0) {
        ++pos;
        break;
      }
    }
    pos = std::min(pos, text.size());
    doc.text = text.substr(start, pos - start);
    docs.push_back(doc);
  }
  if (docs.empty() && warnings.empty()) warnings.push_back(JsonSyntaxWarning(text, 1));
  return docs;
}

void ReadPodLabels(const json& labels, std::string& name, std::string& ns, std::string& uid) {
  name = Str(labels, {"io.kubernetes.pod.name"});
  ns = Str(labels, {"io.kubernetes.pod.namespace"});
  uid = Str(labels, {"io.kubernetes.pod.uid"});
}

bool IsLegacyNvidiaHook(const std::string& path) {
  std::string base = path.substr(path.find_last_of('/') + 1);
  return base == "nvidia-container-runtime-hook" || base == "nvidia-container-toolkit";
}

void AddCdiAnnotations(const json* annotations, std::set<std::string>& keys) {
  if (!annotations || !annotations->is_object()) return;
  for (auto it = annotations->begin(); it != annotations->end(); ++it) {
    if (it.key().rfind("cdi.k8s.io/", 0) == 0) keys.insert(it.key());
  }
}

void ReadDeviceRules(const json& spec, Fields fields, std::vector<OciDeviceRule>& rules) {
  const json& list = Array(spec, {"linux", "resources", "devices"});
  for (size_t i = 0; i < list.size(); ++i) {
    const json& item = list[i];
    Fields f = fields.Sub("linux.resources.devices[" + std::to_string(i) + "]");
    std::string type = Str(item, {"type"});
    if (!item.is_object() || (type != "" && type != "a" && type != "b" && type != "c")) {
      f.Warn("", "not a device rule: " + item.dump());
      continue;
    }
    OciDeviceRule rule;
    const json* allow = At(item, {"allow"});
    rule.allow = allow && allow->is_boolean() && allow->get<bool>();
    rule.type = type.empty() ? 'a' : type[0];
    // Some writers spell "any" as -1, runc's own wildcard value.
    rule.major = f.Int(item, {"major"});
    if (rule.major && *rule.major < 0) rule.major.reset();
    rule.minor = f.Int(item, {"minor"});
    if (rule.minor && *rule.minor < 0) rule.minor.reset();
    rule.access = Str(item, {"access"});
    rules.push_back(rule);
  }
}

void ReadBindMounts(const json& spec, std::vector<ContainerMount>& mounts) {
  for (const auto& m : Array(spec, {"mounts"})) {
    auto options = Strings(m, {"options"});
    bool bind = Str(m, {"type"}) == "bind";
    for (const auto& option : options) bind = bind || option == "bind" || option == "rbind";
    if (bind) mounts.push_back({Str(m, {"destination"}), Str(m, {"source"})});
  }
}

// The OCI runtime spec, the same under crictl's info.runtimeSpec and ctr's Spec.
void ReadRuntimeSpec(const json& spec, Fields fields, ContainerInspect& c, std::set<std::string>& cdi) {
  c.cgroups_path = Str(spec, {"linux", "cgroupsPath"});
  for (const auto& entry : Strings(spec, {"process", "env"})) c.env_names.push_back(entry.substr(0, entry.find('=')));
  c.args = Strings(spec, {"process", "args"});
  for (const auto& hook : Array(spec, {"hooks", "prestart"})) {
    std::string path = Str(hook, {"path"});
    if (path.empty()) continue;
    c.legacy_nvidia_hook = c.legacy_nvidia_hook || IsLegacyNvidiaHook(path);
    c.prestart_hooks.push_back(path);
  }
  for (const auto& device : Array(spec, {"linux", "devices"})) {
    std::string path = Str(device, {"path"});
    if (!path.empty()) c.device_paths.push_back(path);
  }
  ReadDeviceRules(spec, fields, c.device_rules);
  AddCdiAnnotations(At(spec, {"annotations"}), cdi);
}

// containerd's info.config is the CRI ContainerConfig kubelet sent, in
// snake_case; CRI-O prints no config but a top-level info.privileged.
void ReadCriInfo(const json& info, Fields fields, ContainerInspect& c, std::set<std::string>& cdi) {
  c.pid = fields.Int(info, {"pid"});
  c.runtime_type = Str(info, {"runtimeType"});
  c.sandbox_id = Str(info, {"sandboxID"});
  const json* config = At(info, {"config"});
  if (config && config->is_object()) {
    const json* privileged = At(*config, {"linux", "security_context", "privileged"});
    c.privileged = privileged && privileged->is_boolean() && privileged->get<bool>();
    AddCdiAnnotations(At(*config, {"annotations"}), cdi);
    for (const char* key : {"CDI_devices", "CDIDevices"}) {
      for (const auto& device : Array(*config, {key})) c.cdi_devices.push_back(Str(device, {"name"}));
    }
  } else if (const json* privileged = At(info, {"privileged"}); privileged && privileged->is_boolean()) {
    c.privileged = privileged->get<bool>();
  }
  if (const json* spec = At(info, {"runtimeSpec"}); spec && spec->is_object()) {
    ReadRuntimeSpec(*spec, fields.Sub("runtimeSpec"), c, cdi);
  }
  if (config && config->is_object()) {
    if (c.env_names.empty()) {
      for (const auto& env : Array(*config, {"envs"})) c.env_names.push_back(Str(env, {"key"}));
    }
    if (c.args.empty()) {
      c.args = Strings(*config, {"command"});
      for (auto& arg : Strings(*config, {"args"})) c.args.push_back(std::move(arg));
    }
  }
}

// The array under `key` of a list response, which may omit it when empty.
json ParseList(std::string_view text, const char* key, std::vector<ParseWarning>& warnings) {
  json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) {
    warnings.push_back(JsonSyntaxWarning(text, 1));
    return json::array();
  }
  const json* items = At(doc, {key});
  if (!doc.is_object() || (items && !items->is_array() && !items->is_null())) {
    warnings.push_back({0, "no \"" + std::string(key) + "\" array"});
    return json::array();
  }
  return items && items->is_array() ? std::move(doc[key]) : json::array();
}

std::optional<ContainerInspect> ReadCrictlInspect(const json& doc, Fields f) {
  if (!doc.is_object()) {
    f.Warn("", "not an object");
    return std::nullopt;
  }
  static const json no_object = json::object();
  const json* found = At(doc, {"status"});
  const json& status = found && found->is_object() ? *found : no_object;
  ContainerInspect c;
  c.id = Str(status, {"id"});
  if (c.id.empty()) {
    f.Warn("status.id", "missing");
    return std::nullopt;
  }
  Fields s = f.Sub("status");
  c.name = Str(status, {"metadata", "name"});
  c.attempt = s.Int(status, {"metadata", "attempt"}).value_or(0);
  c.state = Str(status, {"state"});
  c.created = s.Time(status, {"createdAt"});
  c.started = s.Time(status, {"startedAt"});
  c.finished = s.Time(status, {"finishedAt"});
  c.exit_code = s.Int(status, {"exitCode"});
  c.reason = Str(status, {"reason"});
  c.message = Str(status, {"message"});
  c.log_path = Str(status, {"logPath"});
  c.image = Str(status, {"image", "image"});
  c.image_ref = Str(status, {"imageRef"});
  if (const json* labels = At(status, {"labels"})) ReadPodLabels(*labels, c.pod_name, c.pod_namespace, c.pod_uid);
  c.restart_count = s.Int(status, {"annotations", "io.kubernetes.container.restartCount"});
  std::set<std::string> cdi;
  AddCdiAnnotations(At(status, {"annotations"}), cdi);
  for (const auto& m : Array(status, {"mounts"})) {
    c.mounts.push_back({Str(m, {"containerPath"}), Str(m, {"hostPath"})});
  }
  const json* info = At(doc, {"info"});
  if (info && info->is_object()) {
    ReadCriInfo(*info, f.Sub("info"), c, cdi);
    const json* spec = At(*info, {"runtimeSpec"});
    if (c.mounts.empty() && spec) ReadBindMounts(*spec, c.mounts);
  }
  c.cdi_annotations.assign(cdi.begin(), cdi.end());
  return c;
}

}  // namespace

CriContainers ParseCrictlPs(std::string_view text) {
  CriContainers out;
  json list = ParseList(text, "containers", out.warnings);
  for (size_t i = 0; i < list.size(); ++i) {
    const json& item = list[i];
    Fields f(out.warnings, 0, "containers[" + std::to_string(i) + "]");
    CriContainer c;
    c.id = Str(item, {"id"});
    if (c.id.empty()) {
      f.Warn("id", "missing");
      continue;
    }
    c.pod_sandbox_id = Str(item, {"podSandboxId"});
    c.name = Str(item, {"metadata", "name"});
    c.attempt = f.Int(item, {"metadata", "attempt"}).value_or(0);
    c.image = Str(item, {"image", "image"});
    c.image_ref = Str(item, {"imageRef"});
    c.state = Str(item, {"state"});
    c.created_at_ns = f.UnixNs(item, {"createdAt"});
    if (const json* labels = At(item, {"labels"})) ReadPodLabels(*labels, c.pod_name, c.pod_namespace, c.pod_uid);
    c.container_name = Str(item, {"labels", "io.kubernetes.container.name"});
    c.restart_count = f.Int(item, {"annotations", "io.kubernetes.container.restartCount"});
    out.containers.push_back(std::move(c));
  }
  return out;
}

CriSandboxes ParseCrictlPods(std::string_view text) {
  CriSandboxes out;
  json list = ParseList(text, "items", out.warnings);
  for (size_t i = 0; i < list.size(); ++i) {
    const json& item = list[i];
    Fields f(out.warnings, 0, "items[" + std::to_string(i) + "]");
    CriSandbox s;
    s.id = Str(item, {"id"});
    if (s.id.empty()) {
      f.Warn("id", "missing");
      continue;
    }
    s.name = Str(item, {"metadata", "name"});
    s.pod_namespace = Str(item, {"metadata", "namespace"});
    s.uid = Str(item, {"metadata", "uid"});
    s.attempt = f.Int(item, {"metadata", "attempt"}).value_or(0);
    s.state = Str(item, {"state"});
    s.created_at_ns = f.UnixNs(item, {"createdAt"});
    s.runtime_handler = Str(item, {"runtimeHandler"});
    out.sandboxes.push_back(std::move(s));
  }
  return out;
}

ContainerInspections ParseCrictlInspect(std::string_view text) {
  ContainerInspections out;
  for (const auto& piece : SplitJsonValues(text, out.warnings)) {
    json doc = json::parse(piece.text.begin(), piece.text.end(), nullptr, false);
    if (doc.is_discarded()) {
      out.warnings.push_back(JsonSyntaxWarning(piece.text, piece.line));
      continue;
    }
    if (!doc.is_array()) {
      if (auto c = ReadCrictlInspect(doc, Fields(out.warnings, piece.line, ""))) out.containers.push_back(*c);
      continue;
    }
    for (size_t i = 0; i < doc.size(); ++i) {
      Fields f(out.warnings, piece.line, "[" + std::to_string(i) + "]");
      if (auto c = ReadCrictlInspect(doc[i], f)) out.containers.push_back(*c);
    }
  }
  return out;
}

ContainerInspections ParseCtrContainerInfo(std::string_view text) {
  ContainerInspections out;
  json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) {
    out.warnings.push_back(JsonSyntaxWarning(text, 1));
    return out;
  }
  Fields f(out.warnings, 0, "");
  ContainerInspect c;
  c.id = Str(doc, {"ID"});
  if (c.id.empty()) {
    f.Warn("ID", "missing");
    return out;
  }
  if (const json* labels = At(doc, {"Labels"})) {
    ReadPodLabels(*labels, c.pod_name, c.pod_namespace, c.pod_uid);
    c.name = Str(*labels, {"io.kubernetes.container.name"});
  }
  c.image = Str(doc, {"Image"});
  c.runtime_type = Str(doc, {"Runtime", "Name"});
  c.sandbox_id = Str(doc, {"SandboxID"});
  c.created = f.Time(doc, {"CreatedAt"});
  // ctr before 1.2 printed the spec as {"type_url": ..., "value": ...}.
  const json* spec = At(doc, {"Spec"});
  if (spec && At(*spec, {"type_url"}) && At(*spec, {"value"})) spec = At(*spec, {"value"});
  std::set<std::string> cdi;
  if (spec && spec->is_object()) {
    ReadRuntimeSpec(*spec, f.Sub("Spec"), c, cdi);
    ReadBindMounts(*spec, c.mounts);
  }
  c.cdi_annotations.assign(cdi.begin(), cdi.end());
  out.containers.push_back(std::move(c));
  return out;
}

}  // namespace gpuf
