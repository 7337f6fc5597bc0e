// Container logs: the CRI log file format and `crictl logs -t` output. The
// first byte picks the reader.
#include "formats/cri_log.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text = gpuf::FuzzText(data + 1, size - 1);
  if (data[0] & 1)
    (void)gpuf::ParseCrictlTimestampedLogs(text);
  else
    (void)gpuf::ParseCriLog(text);
  return 0;
}
