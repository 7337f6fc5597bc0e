// The node's pods as the API serves them (`kubectl get pods -A
// --field-selector spec.nodeName=NODE -o json`), handed to collect as the
// k8s.node_pods artifact, and which of them are the device plugin, whose
// own events (BackOff, Killing, FailedCreatePodSandBox, Unhealthy) the
// plugin adds to the Node's:
//
//   {"kind":"PodList","items":[{"metadata":{"name":"nvidia-device-plugin-daemonset-7xk2p",
//     "namespace":"gpu-operator","labels":{"app":"nvidia-device-plugin-daemonset"}},...}]}
#ifndef GPUF_KUBE_PLUGIN_PODS_H_
#define GPUF_KUBE_PLUGIN_PODS_H_

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace gpuf {

struct PodRef {
  std::string namespace_;
  std::string name;
  std::string daemonset;  // the DaemonSet that owns it; "" for a static pod or a bare one
};

// The pods of `pod_list` whose name, or app / app.kubernetes.io/name label,
// says device-plugin (the NVIDIA chart's, the GPU Operator's, GKE's
// nvidia-gpu-device-plugin, vendors' builds), in the list's order, with
// the DaemonSet that owns each (metadata.ownerReferences). None for what
// is not a PodList.
std::vector<PodRef> DevicePluginPods(const nlohmann::json& pod_list);

// `events` (an EventList) with the items of `more` appended; `events`
// unchanged when `more` holds no items.
void AppendEvents(nlohmann::json& events, const nlohmann::json& more);

}  // namespace gpuf

#endif  // GPUF_KUBE_PLUGIN_PODS_H_
