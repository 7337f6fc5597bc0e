// PCI addresses in the one form the analyzer compares: sysfs's lower-case
// "0000:01:00.0". nvidia-smi writes "00000000:01:00.0" (8-digit domain,
// upper case); the kernel's NVRM lines "PCI:0000:01:00" (no function).
#ifndef GPUF_FORMATS_PCI_ADDRESS_H_
#define GPUF_FORMATS_PCI_ADDRESS_H_

#include <optional>
#include <string>
#include <string_view>

namespace gpuf {

// "00000000:1B:00.0" -> "0000:1b:00.0"; std::nullopt when not of the form
// domain:bus:device.function in hex.
std::optional<std::string> NormalizePciBusId(std::string_view text);

// A GPU's address in any notation a line gives it, in the same form:
// "PCI:0000:3B:00" (the kernel's, without the function), "3b:00.0"
// (without the domain) -> "0000:3b:00.0". A GPU is function 0 where the
// notation leaves it out. std::nullopt when not an address.
std::optional<std::string> NormalizeGpuAddress(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_FORMATS_PCI_ADDRESS_H_
