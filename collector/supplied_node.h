// The Node object handed to collect with --node-object: what the API server
// answered `kubectl get node NAME -o json` off the node, for hosts that have
// no kubectl to ask it themselves (GKE's COS, Bottlerocket, OpenShift's
// RHCOS, a collector pod without API access). kubectl-gpuforensics reads it
// and pipes it to collect in the pod. It is stored as the k8s.node artifact,
// context "cluster", in place of the host's own `kubectl get node`:
//
//   {"apiVersion":"v1","kind":"Node","metadata":{"name":"gke-ml-...-k8x2",...},
//    "status":{"capacity":{"nvidia.com/gpu":"4",...},...}}
#ifndef GPUF_COLLECTOR_SUPPLIED_NODE_H_
#define GPUF_COLLECTOR_SUPPLIED_NODE_H_

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "collector/probe_runner.h"
#include "common/status.h"

namespace gpuf {

inline constexpr int64_t kMaxNodeObjectBytes = 16LL << 20;

// What a List handed by the kubectl plugin may hold besides its Node, and
// the artifact (context "cluster") each is stored as, in place of what the
// host's own kubectl would give, where it has one.
struct SuppliedKind {
  std::string_view kind;      // "EventList"
  std::string_view named;     // "an EventList", for people
  std::string_view artifact;  // "k8s.events"
};
std::span<const SuppliedKind> SuppliedKinds();

struct SuppliedNode {
  std::string name;    // metadata.name
  std::string json;    // the Node object
  std::string source;  // where collect read it: a path, or "-" for stdin
  // The List's other items as their artifacts' bytes, by artifact name;
  // what did not come is absent: events that were not read are unknown,
  // not none.
  std::map<std::string, std::string, std::less<>> parts;
  // When collect read it, by the node's clock: against the plugin's clock
  // in the MetricsCapture, how far apart the two are.
  int64_t read_at_unix_ns = 0;

  // k8s.node, or a part that came with it.
  bool Carries(std::string_view artifact) const;
  // A part's bytes; "" when it did not come.
  std::string_view Part(std::string_view artifact) const;
};

// Reads the object from `path` ("-": stdin, which must not be a terminal),
// waiting at most `timeout_ms` for the end of a pipe. Fails with
// InvalidArgument when it cannot be read, is larger than
// kMaxNodeObjectBytes, or is not one Node with a name.
Result<SuppliedNode> ReadSuppliedNode(const std::string& path, int64_t timeout_ms);

// Checks that `text` is one Node with a name, alone or in a v1 List with
// at most one of each SuppliedKinds() (what the kubectl plugin hands over:
// {"kind":"List","items":
// [{"kind":"Node",...},{"kind":"EventList","items":[...]},{"kind":"PodList","items":[...]},
// {"kind":"DaemonSet",...},{"kind":"MetricsCapture",...},
// {"kind":"Namespace","metadata":{"name":"kube-system","uid":...}}]}).
// Fails with InvalidArgument saying what it is instead.
Result<SuppliedNode> ParseSuppliedNode(std::string text, std::string source);

// Every artifact it carries, k8s.node first, then its parts in
// SuppliedKinds() order, each staged in `staging_dir` and scrubbed as the
// host's own kubectl output of it is.
Result<std::vector<ProbeResult>> SuppliedResults(const SuppliedNode& node, const std::string& staging_dir);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_SUPPLIED_NODE_H_
