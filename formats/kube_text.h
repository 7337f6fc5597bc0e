// Pods and Nodes as kubectl prints them for people, read into rows.
//
// `kubectl describe pod` (any part of it), its Status and each container's
// State and Last State, a Message continuing on the lines after it:
//   Status:              Failed
//   Reason:            UnexpectedAdmissionError
//   Message:         Pod Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. ...
//       Last State:   Terminated
//         Reason:     StartError
//         Message:    failed to create containerd task: ... stderr: Auto-detected mode as 'legacy'
//   nvidia-container-cli: initialization error: nvml error: driver/library version mismatch: unknown
// (two fields a wide terminal put on one row are read as two), its Events
// table (formats/kube_events.h), and `kubectl get pod -o yaml|json`.
//
// `kubectl get pods`, with or without its header:
//   hami-device-plugin-tp8b9                       0/2     CrashLoopBackOff             532 (2m19s ago)   3d16h
//
// A Node's extended resources and labels from `kubectl describe node`
// (Capacity:, Allocatable:, Labels:), `kubectl get node -o yaml|json`, or a
// part of it a `jq` path printed ("$ kubectl get nodes -o json | jq
// '.items[0].status.allocatable'" then the object):
//   Allocatable:
//     nvidia.com/gpu:     7
// Elisions and prompt lines are skipped; lines in a Capacity, Allocatable
// or Labels block that are not key and value are warnings.
#ifndef GPUF_FORMATS_KUBE_TEXT_H_
#define GPUF_FORMATS_KUBE_TEXT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"
#include "formats/kube_events.h"
#include "formats/kube_node.h"

namespace gpuf {

struct KubePodState {
  int line = 0;                          // 1-based, where the block starts
  std::optional<std::string> pod;        // when the text names it
  std::optional<std::string> namespace_;
  std::optional<std::string> container;  // absent: the pod itself
  std::optional<bool> init_container;
  std::string which;                     // "pod" | "state" | "last_state" | "get"
  std::optional<std::string> state;      // "Waiting", "Terminated", pod "Failed", get's STATUS
  std::optional<std::string> reason;
  std::optional<int64_t> exit_code;
  std::optional<std::string> message;
  std::optional<int64_t> restart_count;
  std::optional<std::string> ready;      // get pods: "0/1"
};

struct KubePodText {
  std::vector<KubePodState> states;
  std::vector<KubeEvent> events;
  std::vector<ParseWarning> warnings;
};

KubePodText ParseKubePodText(std::string_view text);
KubePodText ParseKubeGetPods(std::string_view text);

struct KubeNodeLabel {
  int line = 0;
  std::string key;
  std::string value;
};

struct KubeNodeText {
  std::vector<NodeResource> resources;  // extended resources only (a '/' in the name), as node_resources
  std::vector<int> resource_lines;      // parallel to resources
  std::vector<KubeNodeLabel> labels;
  std::vector<ParseWarning> warnings;
};

KubeNodeText ParseKubeNodeText(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_KUBE_TEXT_H_
