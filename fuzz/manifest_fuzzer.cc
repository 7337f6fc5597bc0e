// manifest.json text through ParseManifest; what parses must serialize and
// parse again to the same text.
#include <cstdlib>

#include "common/manifest.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto manifest = gpuf::ParseManifest(gpuf::FuzzText(data, size));
  if (!manifest.ok()) return 0;
  std::string text = gpuf::SerializeManifest(*manifest);
  auto again = gpuf::ParseManifest(text);
  if (!again.ok() || gpuf::SerializeManifest(*again) != text) std::abort();
  return 0;
}
