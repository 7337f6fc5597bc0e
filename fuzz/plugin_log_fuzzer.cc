// NVIDIA device plugin log: each line through the event classifier, and all
// lines together through the "Running with config:" scan.
#include <vector>

#include "formats/pci_address.h"
#include "formats/plugin_log.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::vector<gpuf::LogMessage> messages;
  gpuf::ForEachLine(gpuf::FuzzText(data, size), [&](std::string_view line) {
    (void)gpuf::ClassifyPluginMessage(line);
    (void)gpuf::NormalizePciBusId(line);
    (void)gpuf::NormalizeGpuAddress(line);
    messages.push_back({static_cast<int>(messages.size()) + 1, line});
  });
  (void)gpuf::FindPluginConfigs(messages);
  return 0;
}
