// `kubectl gpuforensics collect`: collect nodes from wherever kubectl
// reaches the cluster, at most --jobs at once, each bundle streamed back,
// verified and named here (node_collection.h says how one node goes).
// Every pod of the run carries the run's label; whatever ends the run
// (success, failures, the deadline, Ctrl-C) deletes what is left by that
// label before exiting.
#ifndef GPUF_KUBE_KUBECTL_COLLECT_H_
#define GPUF_KUBE_KUBECTL_COLLECT_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

inline constexpr std::string_view kKubectlCollectHelp =
    "collect GPU nodes from here: a short-lived pod per node, the bundle streamed back and verified";

int RunKubectlCollect(const std::vector<std::string>& args);

}  // namespace gpuf

#endif  // GPUF_KUBE_KUBECTL_COLLECT_H_
