// Directory listings (ls -l style rows of /dev, /dev/char, sockets).
#include "formats/listing.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  (void)gpuf::ParseListing(gpuf::FuzzText(data, size));
  return 0;
}
