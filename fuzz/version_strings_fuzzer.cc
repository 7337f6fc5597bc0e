// `--version` outputs of the node's components, and version splitting.
#include "formats/version_strings.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view text = gpuf::FuzzText(data, size);
  (void)gpuf::ParseVersionOutput(text);
  gpuf::ForEachLine(text, [](std::string_view line) { (void)gpuf::SplitVersion(line); });
  return 0;
}
