// NVIDIA PCI functions as sysfs lists them (vendor 0x10de), read inside the
// host root without touching the driver.
#ifndef GPUF_COLLECTOR_NVIDIA_PCI_H_
#define GPUF_COLLECTOR_NVIDIA_PCI_H_

#include <string>
#include <vector>

#include "collector/host_root.h"

namespace gpuf {

struct NvidiaPciFunction {
  std::string address;    // "0000:18:00.0"
  std::string device;     // "0x2324", "" when unreadable
  std::string pci_class;  // "0x030200", "" when unreadable
};

// Functions under `dir` (normally /sys/bus/pci/devices); empty when unreadable.
std::vector<NvidiaPciFunction> ReadNvidiaPciFunctions(const HostRoot& host,
                                                      const std::string& dir = "/sys/bus/pci/devices");

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_NVIDIA_PCI_H_
