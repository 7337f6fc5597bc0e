#include "formats/kube_node.h"

#include <nlohmann/json.hpp>

#include "common/time_format.h"

namespace gpuf {

namespace {

// The Node's status object, or nullptr when the text is not a Node.
const nlohmann::json* NodeStatus(const nlohmann::json& doc) {
  if (!doc.is_object()) return nullptr;
  auto status = doc.find("status");
  return status != doc.end() && status->is_object() ? &*status : nullptr;
}

std::string StringField(const nlohmann::json& object, const char* key) {
  auto it = object.find(key);
  return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

}  // namespace

std::vector<NodeResource> ParseNodeResources(std::string_view text) {
  std::vector<NodeResource> resources;
  const auto doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  const nlohmann::json* status = NodeStatus(doc);
  if (status == nullptr) return resources;
  for (const char* field : {"capacity", "allocatable"}) {
    auto map = status->find(field);
    if (map == status->end() || !map->is_object()) continue;
    for (auto it = map->begin(); it != map->end(); ++it) {
      if (it.key().find('/') == std::string::npos || !it.value().is_string()) continue;
      resources.push_back({field, it.key(), it.value().get<std::string>()});
    }
  }
  return resources;
}

std::vector<NodeCondition> ParseNodeConditions(std::string_view text) {
  std::vector<NodeCondition> conditions;
  const auto doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  const nlohmann::json* status = NodeStatus(doc);
  if (status == nullptr) return conditions;
  auto list = status->find("conditions");
  if (list == status->end() || !list->is_array()) return conditions;
  for (const auto& c : *list) {
    if (!c.is_object() || StringField(c, "type").empty()) continue;
    NodeCondition condition{StringField(c, "type"), StringField(c, "status"), StringField(c, "reason"),
                            StringField(c, "message"), std::nullopt};
    if (auto when = ParseRfc3339(StringField(c, "lastTransitionTime")); when.ok()) condition.last_transition_ns = *when;
    conditions.push_back(std::move(condition));
  }
  return conditions;
}

}  // namespace gpuf
