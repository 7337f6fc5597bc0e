// cgroup facts: devices.list, mountinfo, `systemctl show`, `bpftool cgroup
// tree`. The first byte picks the parser; the rest is the artifact's text.
#include "formats/cgroup_facts.h"
#include "fuzz/fuzz_input.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  std::string_view text = gpuf::FuzzText(data + 1, size - 1);
  switch (data[0] % 4) {
    case 0: {
      auto list = gpuf::ParseDevicesList(text);
      (void)gpuf::DevicesListAllowsReadWrite(list.rules, 195, 0);
      break;
    }
    case 1: (void)gpuf::ParseCgroupMountinfo(text); break;
    case 2: (void)gpuf::ParseSystemctlShow(text); break;
    case 3: (void)gpuf::ParseBpftoolCgroup(text); break;
  }
  return 0;
}
