// Runtime configurations: containerd, nvidia-container-runtime and CRI-O
// TOML, kubelet YAML, the kubelet device checkpoint JSON. The first byte
// picks the parser.
#include "formats/runtime_config.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text = gpuf::FuzzText(data + 1, size - 1);
  switch (data[0] % 5) {
    case 0: (void)gpuf::ParseContainerdConfig(text); break;
    case 1: (void)gpuf::ParseNvidiaRuntimeConfig(text); break;
    case 2: (void)gpuf::ParseCrioConfig(text); break;
    case 3: (void)gpuf::ParseKubeletConfig(text); break;
    case 4: (void)gpuf::ParseKubeletCheckpoint(text); break;
  }
  return 0;
}
