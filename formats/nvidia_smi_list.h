// Parses `nvidia-smi -L`.
//   GPU 0: NVIDIA H800 (UUID: GPU-5b3c8a8e-0d1f-4a43-9a8e-2b1d3c4e5f60)
//     MIG 1g.10gb     Device  0: (UUID: MIG-0f6c...)
// Product names may hold spaces and parentheses, so the UUID is split off at
// the last " (UUID: ". Lines that are neither form (error text) are ignored.
#ifndef GPUF_FORMATS_NVIDIA_SMI_LIST_H_
#define GPUF_FORMATS_NVIDIA_SMI_LIST_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

struct ListedGpu {
  int line = 0;         // 1-based
  int index = 0;
  std::string name;
  std::string uuid;
  int mig_devices = 0;
};

std::vector<ListedGpu> ParseNvidiaSmiList(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_NVIDIA_SMI_LIST_H_
