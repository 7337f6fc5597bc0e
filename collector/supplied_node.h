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
#include <string>

#include "collector/probe_runner.h"
#include "common/status.h"

namespace gpuf {

inline constexpr int64_t kMaxNodeObjectBytes = 16LL << 20;

struct SuppliedNode {
  std::string name;         // metadata.name
  std::string json;         // the Node object
  std::string source;       // where collect read it: a path, or "-" for stdin
  std::string events_json;  // the EventList handed with it; "" when none came
  std::string pods_json;    // the PodList of the node's pods handed with it; "" when none came
  std::string metrics_json;  // the MetricsCapture handed with it (kube/metrics_capture.h); "" when none came
  std::string cluster_json;  // the kube-system Namespace handed with it, which names the cluster; "" when none came
  std::string daemonset_json;  // the device plugin's DaemonSet handed with it; "" when none came
  // When collect read it, by the node's clock: against the plugin's clock
  // in the MetricsCapture, how far apart the two are.
  int64_t read_at_unix_ns = 0;
};

// Reads the object from `path` ("-": stdin, which must not be a terminal),
// waiting at most `timeout_ms` for the end of a pipe. Fails with
// InvalidArgument when it cannot be read, is larger than
// kMaxNodeObjectBytes, or is not one Node with a name.
Result<SuppliedNode> ReadSuppliedNode(const std::string& path, int64_t timeout_ms);

// Checks that `text` is one Node with a name, alone or in a v1 List with
// the EventList of the events about it and the MetricsCapture of its
// series (what the kubectl plugin hands over: {"kind":"List","items":
// [{"kind":"Node",...},{"kind":"EventList","items":[...]},{"kind":"PodList","items":[...]},
// {"kind":"DaemonSet",...},{"kind":"MetricsCapture",...},
// {"kind":"Namespace","metadata":{"name":"kube-system","uid":...}}]}).
// Fails with InvalidArgument saying what it is instead.
Result<SuppliedNode> ParseSuppliedNode(std::string text, std::string source);

// The k8s.node artifact of a supplied Node, its bytes staged in
// `staging_dir` and scrubbed as the host's `kubectl get node` output is.
Result<ProbeResult> SuppliedNodeResult(const SuppliedNode& node, const std::string& staging_dir);

// The k8s.events artifact of the Events handed with the Node (context
// "cluster"), in place of the host's own `kubectl get events`; call only
// when events_json is not empty.
Result<ProbeResult> SuppliedEventsResult(const SuppliedNode& node, const std::string& staging_dir);

// The k8s.node_pods artifact of the PodList handed with the Node (context
// "cluster"), in place of the host's own `kubectl get pods`; call only
// when pods_json is not empty.
Result<ProbeResult> SuppliedPodsResult(const SuppliedNode& node, const std::string& staging_dir);

// The k8s.cluster artifact of the kube-system Namespace handed with the
// Node (context "cluster"); call only when cluster_json is not empty.
Result<ProbeResult> SuppliedClusterResult(const SuppliedNode& node, const std::string& staging_dir);

// The k8s.plugin_daemonset artifact of the device plugin's DaemonSet
// handed with the Node (context "cluster"); call only when daemonset_json
// is not empty.
Result<ProbeResult> SuppliedDaemonSetResult(const SuppliedNode& node, const std::string& staging_dir);

// The k8s.metrics artifact of the MetricsCapture handed with the Node
// (context "cluster"); call only when metrics_json is not empty.
Result<ProbeResult> SuppliedMetricsResult(const SuppliedNode& node, const std::string& staging_dir);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_SUPPLIED_NODE_H_
