// Extended resources and conditions from `kubectl get node NAME -o json`:
//   "status": {"capacity": {"nvidia.com/gpu": "8", ...}, "allocatable": {...},
//              "conditions": [{"type": "Ready", "status": "False", "reason": "KubeletNotReady",
//                              "message": "...", "lastTransitionTime": "2026-03-01T10:02:11Z"}, ...]}
// Only resources with a '/' in the name (extended resources) are returned.
// The one reader of the Node object: the analyzer's node_resources rows,
// the collector's summary and `watch` take it from here (the chain's
// NodeGpuResources reads what the Node step needs of it).
#ifndef GPUF_FORMATS_KUBE_NODE_H_
#define GPUF_FORMATS_KUBE_NODE_H_

#include <cstdint>
#include <optional>
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

struct NodeCondition {
  std::string type;    // "Ready", "MemoryPressure", ...
  std::string status;  // "True" | "False" | "Unknown"
  std::string reason;
  std::string message;
  std::optional<int64_t> last_transition_ns;  // Unix ns UTC; absent when missing or unreadable
};

// In the object's order; empty when the text is not a Node object.
std::vector<NodeCondition> ParseNodeConditions(std::string_view json_text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_KUBE_NODE_H_
