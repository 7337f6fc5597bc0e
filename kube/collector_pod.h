// The pod kubectl-gpuforensics starts on a node to collect it, as data.
//
// One short-lived pod per node, pinned with nodeName (no scheduler: a
// cordoned or tainted node still gets it), tolerating every taint, with the
// host's PID namespace and the host's "/" read-only at /host. Its container
// only sleeps; the collection runs through `kubectl exec` as
//   gpuforensics-collect collect --root /host --exec chroot --output - ...
// so the bundle comes back on the exec stream's stdout. The sleep and
// activeDeadlineSeconds end the pod by themselves should the plugin die
// before it deletes it. deploy/README.md explains every privilege.
#ifndef GPUF_KUBE_COLLECTOR_POD_H_
#define GPUF_KUBE_COLLECTOR_POD_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

// Every pod of one run carries this label with the run's id; cleanup deletes by it.
inline constexpr std::string_view kRunLabel = "gpuforensics.io/run";
inline constexpr std::string_view kManagedByLabel = "app.kubernetes.io/managed-by";
inline constexpr std::string_view kManagedByValue = "kubectl-gpuforensics";
inline constexpr std::string_view kCollectorContainer = "collect";

struct CollectorPodSpec {
  std::string node;
  std::string run_id;     // [a-z0-9]{8}
  std::string image;
  int64_t lifetime_s = 0;  // the pod ends itself after this
};

// "gpuforensics-<node>-<run id>", a valid pod name whatever the node is called.
std::string CollectorPodName(std::string_view node, std::string_view run_id);

nlohmann::json CollectorPod(const CollectorPodSpec& spec);

// The command `kubectl exec` runs in the pod: collect with the bundle on
// stdout, and with `node_object_on_stdin` the Node's JSON on its stdin.
std::vector<std::string> CollectCommand(int64_t deadline_s, bool no_driver, bool node_object_on_stdin);

}  // namespace gpuf

#endif  // GPUF_KUBE_COLLECTOR_POD_H_
