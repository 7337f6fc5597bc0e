// `bpftool prog dump xlated` of a cgroup device program, parsed and run for
// a few devices (the step bound keeps a hostile program finite).
#include "formats/bpf_device_program.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  gpuf::BpfDeviceProgram program = gpuf::ParseBpfXlated(gpuf::FuzzText(data, size));
  for (int minor : {0, 7, 255}) {
    (void)gpuf::BpfDeviceAllows(program, 'c', 195, minor, gpuf::kBpfDevRead | gpuf::kBpfDevWrite);
  }
  (void)gpuf::BpfDeviceAllows(program, 'b', 8, 0, gpuf::kBpfDevMknod);
  return 0;
}
