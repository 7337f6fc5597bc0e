#include "kube/triage_verdict.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_CASE("TriageVerdict: the first failed step and what it saw, else how many steps are unknown") {
  // As collect prints its triage (collector/triage.cc).
  const std::string triage =
      "gpuforensics collect: triage for node gpu-a\n"
      "  Node:                                 gpu-a (option)\n"
      "  PCI devices:                          ok (8 NVIDIA GPU functions on the PCI bus)\n"
      "  NVML on the host (nvidia-smi):        ok (8 GPUs listed)\n"
      "  device plugin NVML init:              failed (Failed to initialize NVML: Unknown Error)\n"
      "  registration with kubelet:            failed (no registration since the plugin started)\n"
      "  Node capacity/allocatable:            unknown ('kubectl' not found on PATH)\n";
  CHECK(TriageVerdict(triage) == "BROKEN at device plugin NVML init (Failed to initialize NVML: Unknown Error)");
  CHECK(TriageVerdict("  PCI devices:                          ok (8 NVIDIA GPU functions on the PCI bus)\n"
                      "  Node capacity/allocatable:            unknown ('kubectl' not found on PATH)\n") ==
        "no step failed (1 unknown)");
  CHECK(TriageVerdict("  PCI devices:                          ok (8 NVIDIA GPU functions on the PCI bus)\n") ==
        "every step ok");
  const std::string hostile = TriageVerdict("  device plugin NVML init:              failed (\x1b]0;owned\x07 \xff)\n");
  CHECK(hostile.rfind("BROKEN at device plugin NVML init (", 0) == 0);
  CHECK(hostile.find('\x1b') == std::string::npos);
  CHECK(hostile.find('\x07') == std::string::npos);
  CHECK(TriageVerdict("gpuforensics collect: creating a staging directory in '/tmp': No space left on device\n") == "");
}

}  // namespace gpuf
