// nvidia-smi's failure output classifier. The first byte is the exit status
// (255 standing for none: the process was killed); the rest is split at the
// first NUL into stdout and stderr.
#include "formats/nvidia_smi_error.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::optional<int> exit_code;
  if (data[0] != 255) exit_code = data[0];
  std::string_view text = gpuf::FuzzText(data + 1, size - 1);
  size_t split = text.find('\0');
  std::string_view out = text.substr(0, split);
  std::string_view err = split == std::string_view::npos ? std::string_view() : text.substr(split + 1);
  (void)gpuf::ClassifyNvidiaSmi(out, err, exit_code);
  return 0;
}
