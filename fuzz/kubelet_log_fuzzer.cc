// kubelet and systemd journal messages through their classifiers, a line at
// a time.
#include "formats/kubelet_log.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gpuf::ForEachLine(gpuf::FuzzText(data, size), [](std::string_view line) {
    (void)gpuf::ClassifyKubeletMessage(line);
    (void)gpuf::ClassifySystemdMessage(line);
  });
  return 0;
}
