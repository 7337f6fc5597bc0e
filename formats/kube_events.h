// Kubernetes events as kubectl prints them, one row each:
//   `kubectl get events` (LAST SEEN TYPE REASON OBJECT MESSAGE, the header often cut):
//     3m45s       Warning   FailedCreatePodSandBox   pod/nvidia-operator-validator-l4754            Failed to create pod sandbox: ...
//   the Events table of `kubectl describe` (Type Reason Age From Message):
//     Warning  FailedCreatePodSandBox  12s (x10 over 2m11s)  kubelet            Failed to create pod sandbox: ...
//   the same table as Kubernetes 1.4 printed it, tab-separated from the From column on:
//     {kubelet 0c-c4-7a-82-c5-bc}	spec.containers{worker}	Warning		Failed		Failed to start container ...
//   and `kubectl get events -o json|yaml` (an EventList, or one Event).
// A line that is no row continues the message of the row before it: a
// container runtime's error carries the hook's stderr on the next line.
// Ages are relative to a capture time the text does not give, so text rows
// have no time; JSON and YAML give lastTimestamp or eventTime.
#ifndef GPUF_FORMATS_KUBE_EVENTS_H_
#define GPUF_FORMATS_KUBE_EVENTS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"

namespace gpuf {

struct KubeEvent {
  int line = 0;                        // 1-based, the row's first line
  std::optional<std::string> object;   // "pod/nvidia-device-plugin-x"; absent in describe rows
  std::optional<std::string> type;     // "Normal" | "Warning"
  std::optional<std::string> reason;
  std::optional<std::string> age;      // as printed: "12s (x10 over 2m11s)"
  std::optional<int64_t> count;        // 10 for "(x10 over ...)", 1 for a row printed once
  std::optional<std::string> source;   // "kubelet", "default-scheduler", "kubelet 0c-c4-7a-82-c5-bc"
  std::optional<int64_t> last_seen_ns; // JSON and YAML only, Unix ns UTC
  std::string message;                 // continuation lines joined with '\n'
};

struct KubeEvents {
  std::vector<KubeEvent> events;
  std::vector<ParseWarning> warnings;
};

// A whole `kubectl get events` or Events-table text, or its JSON or YAML.
// Lines a person added (prompts, "...") are skipped without a warning.
KubeEvents ParseKubeEvents(std::string_view text);

// One row of any text form, or std::nullopt.
std::optional<KubeEvent> ParseKubeEventRow(std::string_view line);

// True for what people add around an output: a prompt and command, an
// elision ("....", "..."), a table's dashes. Parsers of saved kubectl text skip these.
bool IsKubectlNoise(std::string_view line);

}  // namespace gpuf

#endif  // GPUF_FORMATS_KUBE_EVENTS_H_
