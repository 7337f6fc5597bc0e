#include "collector/discovery.h"

#include <re2/re2.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "common/plugin_roles.h"

namespace gpuf {

namespace {

using nlohmann::json;

std::string StringAt(const json& j, std::initializer_list<const char*> path) {
  const json* node = &j;
  for (const char* key : path) {
    if (!node->is_object()) return "";
    auto it = node->find(key);
    if (it == node->end()) return "";
    node = &*it;
  }
  return node->is_string() ? node->get<std::string>() : "";
}

int64_t IntAt(const json& j, std::initializer_list<const char*> path) {
  const json* node = &j;
  for (const char* key : path) {
    if (!node->is_object()) return 0;
    auto it = node->find(key);
    if (it == node->end()) return 0;
    node = &*it;
  }
  if (node->is_number_integer()) return node->get<int64_t>();
  if (node->is_string()) {
    try {
      return std::stoll(node->get<std::string>());
    } catch (...) {
      return 0;
    }
  }
  return 0;
}

bool Matches(const re2::RE2& pattern, const std::string& text) {
  return !text.empty() && re2::RE2::PartialMatch(text, pattern);
}

std::vector<std::string> StringsAt(const json& j, std::initializer_list<const char*> path) {
  const json* node = &j;
  for (const char* key : path) {
    if (!node->is_object() || !node->contains(key)) return {};
    node = &(*node)[key];
  }
  std::vector<std::string> out;
  if (!node->is_array()) return out;
  for (const auto& item : *node) {
    if (item.is_string()) out.push_back(item.get<std::string>());
  }
  return out;
}

// The container runs the plugin (common/plugin_roles.h): its command or
// image says so, or its name or its pod's matches the pattern and nothing
// marks it as a sidecar, init container or validator.
bool RunsPlugin(const PluginContainer& c, std::string_view image, std::vector<std::string> command,
                const re2::RE2& pattern) {
  const bool name_matches = Matches(pattern, c.name) || Matches(pattern, c.pod_name);
  return ClassifyPluginRole({c.name, image, std::move(command)}, name_matches).role == PluginRole::kPlugin;
}

// "kubepods-besteffort-pod1234.slice" -> "kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod1234.slice"
std::string ExpandSystemdSlice(const std::string& slice) {
  const std::string suffix = ".slice";
  if (slice.size() <= suffix.size() || slice.compare(slice.size() - suffix.size(), suffix.size(), suffix) != 0) {
    return slice;
  }
  std::string stem = slice.substr(0, slice.size() - suffix.size());
  std::string path;
  size_t dash = 0;
  while ((dash = stem.find('-', dash)) != std::string::npos) {
    path += stem.substr(0, dash) + suffix + "/";
    ++dash;
  }
  return path + slice;
}

}  // namespace

std::vector<PluginContainer> PluginContainersFromCrictlPs(std::string_view text, const re2::RE2& pattern,
                                                          size_t limit) {
  std::vector<PluginContainer> found;
  json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return found;
  auto containers = doc.find("containers");
  if (containers == doc.end() || !containers->is_array()) return found;
  for (const auto& c : *containers) {
    PluginContainer p;
    p.id = StringAt(c, {"id"});
    p.name = StringAt(c, {"metadata", "name"});
    p.pod_name = StringAt(c, {"labels", "io.kubernetes.pod.name"});
    p.pod_namespace = StringAt(c, {"labels", "io.kubernetes.pod.namespace"});
    p.state = StringAt(c, {"state"});
    p.created_at_ns = IntAt(c, {"createdAt"});
    if (p.id.empty() || p.id.find_first_not_of("0123456789abcdef") != std::string::npos) continue;
    if (RunsPlugin(p, StringAt(c, {"image", "image"}), {}, pattern)) found.push_back(p);
  }
  std::stable_sort(found.begin(), found.end(),
                   [](const auto& a, const auto& b) { return a.created_at_ns > b.created_at_ns; });
  if (found.size() > limit) found.resize(limit);
  return found;
}

std::vector<std::string> IdsFromCtrList(std::string_view text, size_t limit) {
  std::vector<std::string> ids;
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line) && ids.size() < limit) {
    while (!line.empty() && (line.back() == ' ' || line.back() == '\r')) line.pop_back();
    bool safe = !line.empty() && line.find_first_not_of(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_.") == std::string::npos;
    if (safe) ids.push_back(line);
  }
  return ids;
}

bool PluginContainerFromCtrInfo(std::string_view text, const re2::RE2& pattern, PluginContainer& out) {
  json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return false;
  out.id = StringAt(doc, {"ID"});
  out.name = StringAt(doc, {"Labels", "io.kubernetes.container.name"});
  out.pod_name = StringAt(doc, {"Labels", "io.kubernetes.pod.name"});
  out.pod_namespace = StringAt(doc, {"Labels", "io.kubernetes.pod.namespace"});
  return !out.id.empty() &&
         RunsPlugin(out, StringAt(doc, {"Image"}), StringsAt(doc, {"Spec", "process", "args"}), pattern);
}

ContainerFacts ContainerFactsFromInspect(std::string_view text) {
  ContainerFacts facts;
  json doc = json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return facts;
  // crictl: {"status":{...},"info":{"pid":N,"runtimeSpec":{...}}}; ctr: {"Spec":{...}}.
  facts.pid = IntAt(doc, {"info", "pid"});
  facts.cgroups_path = StringAt(doc, {"info", "runtimeSpec", "linux", "cgroupsPath"});
  if (facts.cgroups_path.empty()) facts.cgroups_path = StringAt(doc, {"Spec", "linux", "cgroupsPath"});
  facts.log_path = StringAt(doc, {"status", "logPath"});
  facts.running = StringAt(doc, {"status", "state"}) == "CONTAINER_RUNNING";
  return facts;
}

std::string ContainerCgroupDir(std::string_view proc_cgroup, std::string_view cgroups_path) {
  std::string v1_devices;
  std::istringstream in{std::string(proc_cgroup)};
  std::string line;
  while (std::getline(in, line)) {
    size_t first = line.find(':');
    size_t second = first == std::string::npos ? first : line.find(':', first + 1);
    if (second == std::string::npos) continue;
    std::string controllers = line.substr(first + 1, second - first - 1);
    std::string path = line.substr(second + 1);
    size_t start = path.find_first_not_of('/');
    path = start == std::string::npos ? "" : path.substr(start);
    if (line.compare(0, first, "0") == 0 && controllers.empty() && !path.empty()) return path;
    std::istringstream names(controllers);
    std::string controller;
    while (std::getline(names, controller, ',')) {
      if (controller == "devices") v1_devices = path;
    }
  }
  if (!v1_devices.empty()) return v1_devices;

  std::string spec(cgroups_path);
  if (spec.empty()) return "";
  if (spec[0] == '/') return spec.substr(1);
  // systemd driver: "slice:prefix:name" -> ".../prefix-name.scope"
  size_t c1 = spec.find(':');
  size_t c2 = c1 == std::string::npos ? c1 : spec.find(':', c1 + 1);
  if (c2 == std::string::npos) return "";
  std::string slice = spec.substr(0, c1);
  std::string prefix = spec.substr(c1 + 1, c2 - c1 - 1);
  std::string name = spec.substr(c2 + 1);
  return ExpandSystemdSlice(slice) + "/" + (prefix.empty() ? "" : prefix + "-") + name + ".scope";
}

std::string SystemdScopeOf(std::string_view cgroup_dir) {
  size_t slash = cgroup_dir.find_last_of('/');
  std::string last(slash == std::string_view::npos ? cgroup_dir : cgroup_dir.substr(slash + 1));
  const std::string suffix = ".scope";
  if (last.size() > suffix.size() && last.compare(last.size() - suffix.size(), suffix.size(), suffix) == 0) {
    return last;
  }
  return "";
}

}  // namespace gpuf
