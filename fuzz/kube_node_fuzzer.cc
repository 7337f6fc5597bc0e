// `kubectl get node -o json` through the node resources parser.
#include "formats/kube_node.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)gpuf::ParseNodeResources(gpuf::FuzzText(data, size));
  return 0;
}
