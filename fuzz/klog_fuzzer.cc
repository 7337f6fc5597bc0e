// klog and Go log lines: headers, their times against a carrier clock, and
// klog's structured "msg" key="value" messages.
#include "formats/klog.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gpuf::LineClock clock;
  clock.carrier_ns = 1700000000LL * 1000000000LL;
  clock.utc_offset_seconds = 3600;
  clock.offset_known = true;
  gpuf::ForEachLine(gpuf::FuzzText(data, size), [&](std::string_view line) {
    if (auto header = gpuf::ParseKlogHeader(line)) (void)gpuf::KlogTime(*header, clock);
    if (auto header = gpuf::ParseGoLogHeader(line)) (void)gpuf::GoLogTime(*header, clock);
    (void)gpuf::SplitStructuredMessage(line);
  });
  return 0;
}
