// `nvidia-smi -L` text.
#include "formats/nvidia_smi_list.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)gpuf::ParseNvidiaSmiList(gpuf::FuzzText(data, size));
  return 0;
}
