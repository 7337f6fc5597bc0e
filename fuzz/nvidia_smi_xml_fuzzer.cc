// `nvidia-smi -q -x` XML.
#include "formats/nvidia_smi_xml.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)gpuf::ParseNvidiaSmiXml(gpuf::FuzzText(data, size));
  return 0;
}
