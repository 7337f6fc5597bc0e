// `nvidia-smi -q` as text, whole or a pasted part.
#include "formats/nvidia_smi_query_text.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)gpuf::ParseNvidiaSmiQueryText(gpuf::FuzzText(data, size));
  return 0;
}
