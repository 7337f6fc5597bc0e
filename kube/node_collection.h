// One node collected from a laptop, start to end:
//
//   1. a node that is not Ready gets no pod: it is reported at once
//   2. kubectl create the collector pod (collector_pod.h)
//   3. kubectl get it until its container runs; a pod that can never run
//      (image pull refused, evicted) is reported at once
//   4. kubectl get node NAME -o json, its events, and with --metrics its
//      series (metrics_capture.h); then kubectl exec -i collect --output -
//      --node-object - with them on stdin and stdout into "<bundle>.partial"
//   5. verify the bundle (sizes and sha256 of every member, as `gpuforensics
//      verify`) and give it its name, gpuforensics-<node>-<UTC time>.tar.zst
//   6. kubectl delete the pod, whatever happened before (also on interrupt)
//
// Steps 2 to 5 share the node's deadline; step 6 has its own, so that it
// still runs once the deadline or an interrupt ended the rest.
#ifndef GPUF_KUBE_NODE_COLLECTION_H_
#define GPUF_KUBE_NODE_COLLECTION_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "kube/cluster_objects.h"
#include "kube/kubectl_runner.h"
#include "kube/metrics_capture.h"

namespace gpuf {

struct NodeCollectionPlan {
  const KubectlRunner* kubectl = nullptr;
  std::string run_id;
  std::string image;
  std::string output_dir;
  std::string output_path;       // one node's bundle, as -o named it; "" for a name of its own in output_dir
  int64_t deadline_ms = 300000;  // per node, pod creation to verified bundle
  bool no_driver = false;
  MetricsPlan metrics;  // --metrics or --metrics-service; no fetcher: none asked for
  // The kube-system Namespace as the API served it, which names the
  // cluster (its UID); "" when it could not be read.
  std::string cluster_namespace;
  const std::atomic<bool>* interrupt = nullptr;
  // Told what happens, one short line at a time ("pod gpuforensics-a-1 running").
  std::function<void(const std::string& node, const std::string& line)> progress;
};

struct NodeOutcome {
  std::string node;
  std::string bundle;       // the verified bundle's path; "" when none
  std::string problem;      // why there is none; "" on success
  std::string kept;         // a bundle that came back but did not verify, kept as evidence
  std::string collect_err;  // what collect printed on stderr in the pod (its triage)
  std::string chain_verdict;  // TriageVerdict of collect_err: one line, safe on a terminal
  int64_t bytes = 0;
  int members = 0;
  std::string bundle_id;  // the verified bundle's ID (BundleId)
  // With --metrics: what of the metrics store's record is missing and why
  // ("metrics from URL incomplete: alerts: HTTP 503: ..."); "" when none is.
  std::string metrics_problem;
};

NodeOutcome CollectNode(const NodeTarget& node, const NodeCollectionPlan& plan);

// Seconds collect in the pod may take, given what is left of the node's
// deadline: its own default (120 s), less when less is left, so that it
// ends with an incomplete but valid bundle before the stream is cut.
int64_t CollectDeadlineSeconds(int64_t remaining_ms);

}  // namespace gpuf

#endif  // GPUF_KUBE_NODE_COLLECTION_H_
