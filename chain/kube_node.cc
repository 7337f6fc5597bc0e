#include "chain/kube_node.h"

#include <nlohmann/json.hpp>

namespace gpuf {

std::vector<NodeResource> ParseNodeResources(std::string_view text) {
  std::vector<NodeResource> resources;
  auto doc = nlohmann::json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return resources;
  auto status = doc.find("status");
  if (status == doc.end() || !status->is_object()) return resources;
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

ChainFacts::Node NodeGpuResources(const std::vector<NodeResource>& resources) {
  ChainFacts::Node node;
  for (const auto& r : resources) {
    if (r.resource == "nvidia.com/gpu") (r.field == "capacity" ? node.gpu_capacity : node.gpu_allocatable) = r.quantity;
    if (r.resource.rfind("nvidia.com/mig-", 0) == 0 && r.field == "allocatable" && r.quantity != "0") {
      node.mig_allocatable = true;
    }
    if (r.resource == "nvidia.com/gpu.shared" && r.field == "allocatable" && r.quantity != "0") {
      node.shared_allocatable = true;
    }
  }
  return node;
}

}  // namespace gpuf
