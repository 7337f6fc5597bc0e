// What kubectl-gpuforensics reads from the API server's objects, as `kubectl
// get -o json` prints them: whether a node can take a pod at all, and how
// far a collector pod has come.
//
//   {"kind":"Node",...,"status":{"conditions":[{"type":"Ready","status":"Unknown",
//    "reason":"NodeStatusUnknown","message":"Kubelet stopped posting node status."}]}}
//   {"kind":"Pod",...,"status":{"phase":"Pending","containerStatuses":[{"state":
//    {"waiting":{"reason":"ImagePullBackOff","message":"Back-off pulling image ..."}}}]}}
#ifndef GPUF_KUBE_CLUSTER_OBJECTS_H_
#define GPUF_KUBE_CLUSTER_OBJECTS_H_

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "common/status.h"

namespace gpuf {

struct NodeTarget {
  std::string name;
  bool ready = false;
  std::string not_ready;  // why not, as the Ready condition says: "Unknown: Kubelet stopped posting node status."
};

// The nodes of `kubectl get node(s) ... -o json`: one Node, or a NodeList or
// List of them. Fails with BadInput when the text is not that.
Result<std::vector<NodeTarget>> NodesFromJson(const std::string& text);

enum class PodProgress {
  kStarting,  // Pending, nothing wrong yet (scheduled, pulling, creating)
  kRunning,   // the container runs: exec can start
  kFailed,    // it will never run: `reason` says why
};

struct PodState {
  PodProgress progress = PodProgress::kStarting;
  std::string reason;  // "ImagePullBackOff: Back-off pulling image ...", "phase Failed: Evicted"
};

// The state of the collector container in a Pod object. Fails with BadInput
// when the text is not a Pod.
Result<PodState> PodStateFromJson(const std::string& text);

}  // namespace gpuf

#endif  // GPUF_KUBE_CLUSTER_OBJECTS_H_
