// kubectl's text for people (describe, get events, get pods, a Node's YAML
// or jq parts) through the parsers of k8s_events, k8s_pod_states,
// node_resources and node_labels.
#include "formats/kube_events.h"
#include "formats/kube_text.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = gpuf::FuzzText(data, size);
  (void)gpuf::ParseKubeEvents(text);
  (void)gpuf::ParseKubePodText(text);
  (void)gpuf::ParseKubeGetPods(text);
  (void)gpuf::ParseKubeNodeText(text);
  return 0;
}
