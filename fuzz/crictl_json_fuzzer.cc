// crictl ps/pods/inspect -o json and `ctr containers info`. The first byte
// picks the parser.
#include "formats/crictl_json.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text = gpuf::FuzzText(data + 1, size - 1);
  switch (data[0] % 4) {
    case 0: (void)gpuf::ParseCrictlPs(text); break;
    case 1: (void)gpuf::ParseCrictlPods(text); break;
    case 2: (void)gpuf::ParseCrictlInspect(text); break;
    case 3: (void)gpuf::ParseCtrContainerInfo(text); break;
  }
  return 0;
}
