// Extended resources from `kubectl get node NAME -o json`:
//   "status": {"capacity": {"nvidia.com/gpu": "8", ...}, "allocatable": {...}}
// Only resources with a '/' in the name (extended resources) are returned.
#ifndef GPUF_ANALYZER_PARSERS_KUBE_NODE_H_
#define GPUF_ANALYZER_PARSERS_KUBE_NODE_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

struct NodeResource {
  std::string field;     // "capacity" | "allocatable"
  std::string resource;  // "nvidia.com/gpu"
  std::string quantity;  // "8"
};

// Empty when the text is not a Node object.
std::vector<NodeResource> ParseNodeResources(std::string_view json_text);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_PARSERS_KUBE_NODE_H_
