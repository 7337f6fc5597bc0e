// PCI addresses in the one form the analyzer compares: sysfs's lower-case
// "0000:01:00.0". nvidia-smi writes "00000000:01:00.0" (8-digit domain,
// upper case); the kernel's NVRM lines "PCI:0000:01:00" (no function).
#ifndef GPUF_ANALYZER_PARSERS_PCI_ADDRESS_H_
#define GPUF_ANALYZER_PARSERS_PCI_ADDRESS_H_

#include <optional>
#include <string>
#include <string_view>

namespace gpuf {

// "00000000:1B:00.0" -> "0000:1b:00.0"; std::nullopt when not of the form
// domain:bus:device.function in hex.
std::optional<std::string> NormalizePciBusId(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_PARSERS_PCI_ADDRESS_H_
