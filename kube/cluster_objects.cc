#include "kube/cluster_objects.h"

#include <string_view>

namespace gpuf {

namespace {

using nlohmann::json;

std::string Text(const json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : "";
}

Result<json> ParseObject(const std::string& text, std::string_view what) {
  json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!parsed.is_object()) return Status::BadInput("kubectl did not print a JSON object for " + std::string(what));
  return parsed;
}

NodeTarget TargetOf(const json& node) {
  NodeTarget t;
  t.name = Text(node.value("metadata", json::object()), "name");
  t.not_ready = "no Ready condition";
  const json status = node.value("status", json::object());
  for (const auto& c : status.value("conditions", json::array())) {
    if (!c.is_object() || Text(c, "type") != "Ready") continue;
    t.ready = Text(c, "status") == "True";
    t.not_ready = t.ready ? "" : Text(c, "status") + ": " + Text(c, "message");
    if (!t.ready && Text(c, "message").empty()) t.not_ready = Text(c, "status") + " (" + Text(c, "reason") + ")";
  }
  return t;
}

// Waiting reasons after which the container will not start without someone
// changing something: waiting longer only delays the report.
bool IsHopeless(std::string_view reason) {
  static constexpr std::string_view kReasons[] = {
      "ErrImagePull",  "ImagePullBackOff",  "InvalidImageName",    "ErrImageNeverPull",
      "CreateContainerConfigError", "CreateContainerError", "RunContainerError", "CrashLoopBackOff"};
  for (std::string_view r : kReasons) {
    if (reason == r) return true;
  }
  return false;
}

}  // namespace

Result<std::vector<NodeTarget>> NodesFromJson(const std::string& text) {
  GPUF_ASSIGN_OR_RETURN(json parsed, ParseObject(text, "the nodes"));
  std::vector<NodeTarget> nodes;
  std::string kind = Text(parsed, "kind");
  if (kind == "Node") {
    nodes.push_back(TargetOf(parsed));
  } else if (kind == "NodeList" || kind == "List") {
    for (const auto& item : parsed.value("items", json::array())) {
      if (item.is_object()) nodes.push_back(TargetOf(item));
    }
  } else {
    return Status::BadInput("kubectl printed a '" + kind + "', not nodes");
  }
  return nodes;
}

Result<PodState> PodStateFromJson(const std::string& text) {
  GPUF_ASSIGN_OR_RETURN(json pod, ParseObject(text, "the pod"));
  if (Text(pod, "kind") != "Pod") return Status::BadInput("kubectl printed a '" + Text(pod, "kind") + "', not a pod");
  const json status = pod.value("status", json::object());
  const std::string phase = Text(status, "phase");
  PodState state;
  if (phase == "Failed" || phase == "Succeeded") {
    state.progress = PodProgress::kFailed;
    state.reason = "phase " + phase;
    if (!Text(status, "reason").empty()) state.reason += ": " + Text(status, "reason");
    if (!Text(status, "message").empty()) state.reason += ": " + Text(status, "message");
    return state;
  }
  for (const auto& c : status.value("containerStatuses", json::array())) {
    if (!c.is_object()) continue;
    const json s = c.value("state", json::object());
    if (s.contains("running") && phase == "Running") {
      state.progress = PodProgress::kRunning;
      return state;
    }
    const json waiting = s.value("waiting", json::object());
    if (IsHopeless(Text(waiting, "reason"))) {
      state.progress = PodProgress::kFailed;
      state.reason = Text(waiting, "reason");
      if (!Text(waiting, "message").empty()) state.reason += ": " + Text(waiting, "message");
      return state;
    }
    if (s.contains("terminated")) {
      state.progress = PodProgress::kFailed;
      state.reason = "container terminated: " + Text(s.value("terminated", json::object()), "reason");
      return state;
    }
  }
  return state;
}

}  // namespace gpuf
