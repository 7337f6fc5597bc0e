// The kernel ring as dmesg prints it: stamped records, continuation lines,
// lines before the first stamp, stamps out of range.
#include <cstdlib>

#include "formats/kernel_ring.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gpuf::KernelRing ring = gpuf::ParseKernelRing(gpuf::FuzzText(data, size));
  int previous_line = 0;
  for (const auto& record : ring.records) {
    // Records come in the order of their first lines, and no stamp is negative.
    if (record.line <= previous_line || record.since_boot_us < 0) std::abort();
    previous_line = record.line;
  }
  return 0;
}
