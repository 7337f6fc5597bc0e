#include "kube/plugin_pods.h"

namespace gpuf {

namespace {

std::string StringAt(const nlohmann::json& object, const char* key) {
  if (!object.is_object()) return "";
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

bool SaysDevicePlugin(const std::string& text) { return text.find("device-plugin") != std::string::npos; }

std::string OwningDaemonSet(const nlohmann::json& metadata) {
  auto owners = metadata.is_object() ? metadata.find("ownerReferences") : metadata.end();
  if (!metadata.is_object() || owners == metadata.end() || !owners->is_array()) return "";
  for (const auto& owner : *owners) {
    if (StringAt(owner, "kind") == "DaemonSet") return StringAt(owner, "name");
  }
  return "";
}

}  // namespace

std::vector<PodRef> DevicePluginPods(const nlohmann::json& pod_list) {
  std::vector<PodRef> pods;
  if (!pod_list.is_object() || StringAt(pod_list, "kind") != "PodList") return pods;
  auto items = pod_list.find("items");
  if (items == pod_list.end() || !items->is_array()) return pods;
  for (const auto& pod : *items) {
    const nlohmann::json metadata = pod.is_object() ? pod.value("metadata", nlohmann::json::object()) : nullptr;
    const nlohmann::json labels = metadata.is_object() ? metadata.value("labels", nlohmann::json::object()) : nullptr;
    PodRef ref{StringAt(metadata, "namespace"), StringAt(metadata, "name"), OwningDaemonSet(metadata)};
    if (ref.name.empty() || ref.namespace_.empty()) continue;
    if (SaysDevicePlugin(ref.name) || SaysDevicePlugin(StringAt(labels, "app")) ||
        SaysDevicePlugin(StringAt(labels, "app.kubernetes.io/name"))) {
      pods.push_back(std::move(ref));
    }
  }
  return pods;
}

void AppendEvents(nlohmann::json& events, const nlohmann::json& more) {
  if (!events.is_object() || !more.is_object()) return;
  auto items = more.find("items");
  if (items == more.end() || !items->is_array() || items->empty()) return;
  if (!events.contains("items") || !events["items"].is_array()) events["items"] = nlohmann::json::array();
  for (const auto& item : *items) events["items"].push_back(item);
}

}  // namespace gpuf
