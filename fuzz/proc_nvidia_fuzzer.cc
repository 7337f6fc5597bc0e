// /proc/driver/nvidia/version, .../gpus/*/information, /proc/devices and the
// PCI table. The first byte picks the parser.
#include "formats/proc_nvidia.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text = gpuf::FuzzText(data + 1, size - 1);
  switch (data[0] % 4) {
    case 0: (void)gpuf::ParseNvidiaDriverVersion(text); break;
    case 1: (void)gpuf::ParseNvidiaGpuInformation(text); break;
    case 2: (void)gpuf::ParseProcDevices(text); break;
    case 3: (void)gpuf::ParsePciTable(text); break;
  }
  return 0;
}
