// Node identity on a real host: gathers what ResolveNodeIdentity
// (node_identity.h) needs from this process (options, environment,
// hostname) and the host (its files, its kubelet journal through
// journalctl), and turns the kubeconfig into what kubectl must be given.
#ifndef GPUF_COLLECTOR_IDENTIFY_NODE_H_
#define GPUF_COLLECTOR_IDENTIFY_NODE_H_

#include <string>

#include "collector/collect.h"
#include "collector/host_exec.h"
#include "collector/host_root.h"
#include "collector/node_identity.h"
#include "common/platforms.h"

namespace gpuf {

struct IdentifiedNode {
  NodeIdentity identity;
  // The kubeconfig as the host's kubectl must be given it (exec.HostPathArg),
  // "" when there is none; with in_cluster, kubectl runs without one.
  std::string kubectl_kubeconfig;
  bool in_cluster = false;
};

// `scratch_dir` holds the journalctl output while it is read, and nothing
// after; "" skips the journal step (watch checks run every few minutes).
// Never fails: what cannot be read gives no name.
IdentifiedNode IdentifyNode(const CollectOptions& options, const HostRoot& host, const HostExec& exec,
                            const PlatformMatch& platform, const std::string& scratch_dir);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_IDENTIFY_NODE_H_
