// Parses what the kernel tells about NVIDIA devices without asking NVML: the
// loaded driver's /proc/driver/nvidia/version, each GPU's
// /proc/driver/nvidia/gpus/<pci>/information, /proc/devices, and the
// collector's PCI table (schema/bundle.md, "PCI table").
//   NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  565.57.01  Release Build  (dvs-builder@U16-A24-9-2)  Thu Oct 10 12:15:00 UTC 2024
//   Model: 		 NVIDIA H100 80GB HBM3
//   510 nvidia-uvm
//   0000:18:00.0	0x10de	0x2324	0x030200
// None of these fail: what cannot be read comes back as warnings next to
// whatever could be.
#ifndef GPUF_FORMATS_PROC_NVIDIA_H_
#define GPUF_FORMATS_PROC_NVIDIA_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/parse_warning.h"

namespace gpuf {

// /proc/driver/nvidia/version: the kernel module actually loaded, which can
// differ from the userspace NVML after an upgrade without a reboot.
struct NvidiaDriverVersion {
  std::optional<std::string> version;  // "565.57.01"
  std::optional<bool> open_module;     // "Open Kernel Module" vs the proprietary "Kernel Module"
  std::vector<ParseWarning> warnings;
};

NvidiaDriverVersion ParseNvidiaDriverVersion(std::string_view text);

// /proc/driver/nvidia/gpus/<pci>/information: "Key: \t value" lines. Keys not
// listed here (DMA Size, DMA Mask, GPU Firmware, BARn) are skipped.
struct NvidiaGpuInformation {
  std::optional<std::string> model;         // "NVIDIA H100 80GB HBM3"
  std::optional<int64_t> irq;
  std::optional<std::string> uuid;          // "GPU-..."; absent while the GPU is not initialised
  std::optional<std::string> video_bios;    // "96.00.99.00.01"; "??.??.??.??.??" when unreadable
  std::optional<std::string> bus_type;      // "PCIe" | "PCI"
  std::optional<std::string> bus_location;  // already the sysfs form "0000:18:00.0"
  std::optional<int64_t> device_minor;      // N of /dev/nvidiaN
  std::optional<bool> excluded;             // "GPU Excluded" (older drivers: "Blacklisted")
  std::vector<ParseWarning> warnings;
};

NvidiaGpuInformation ParseNvidiaGpuInformation(std::string_view text);

// /proc/devices, "Character devices:" section only ("%3d name" lines), so
// that callers can find the dynamic majors of nvidia-uvm and nvidia-caps.
struct ProcDevices {
  // Name -> major. A name registered under two majors (infiniband_mad) keeps
  // the first, as the kernel lists them in ascending order.
  std::map<std::string, int> character_majors;
  std::vector<ParseWarning> warnings;
};

ProcDevices ParseProcDevices(std::string_view text);

// One row of the collector's PCI table: an NVIDIA PCI function as sysfs
// describes it.
struct PciFunction {
  int line = 0;
  std::string address;    // "0000:18:00.0"
  std::string vendor;     // "0x10de"
  std::string device;     // "0x2324"
  std::string pci_class;  // "0x030200"
  std::string role;       // "gpu" (class 0x0300xx, 0x0302xx), "nvswitch" (0x0680xx), "audio" (0x0403xx), "other"
};

struct PciTable {
  std::vector<PciFunction> rows;
  std::vector<ParseWarning> warnings;
};

PciTable ParsePciTable(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_PROC_NVIDIA_H_
