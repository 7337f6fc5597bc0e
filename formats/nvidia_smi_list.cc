#include "formats/nvidia_smi_list.h"

#include <re2/re2.h>

#include "common/byte_pattern.h"

namespace gpuf {

std::vector<ListedGpu> ParseNvidiaSmiList(std::string_view text) {
  static const RE2 gpu_line(R"(GPU (\d+): (.*) \(UUID: ([^)]+)\)\s*)", BytePatternOptions());
  static const RE2 mig_line(R"(\s+MIG .*Device\s+\d+: \(UUID: [^)]+\)\s*)", BytePatternOptions());
  std::vector<ListedGpu> gpus;
  int line_number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    re2::StringPiece line(text.data() + start, end - start);
    ++line_number;
    start = end + 1;
    ListedGpu gpu;
    if (RE2::FullMatch(line, gpu_line, &gpu.index, &gpu.name, &gpu.uuid)) {
      gpu.line = line_number;
      gpus.push_back(gpu);
    } else if (!gpus.empty() && RE2::FullMatch(line, mig_line)) {
      ++gpus.back().mig_devices;
    }
  }
  return gpus;
}

}  // namespace gpuf
