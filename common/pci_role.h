// What an NVIDIA PCI function is, from its sysfs class ("0x030200"): the
// one reading of PCI classes that the collector's triage and watch check and
// the analyzer's PCI table share.
#ifndef GPUF_COMMON_PCI_ROLE_H_
#define GPUF_COMMON_PCI_ROLE_H_

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuf {

// "gpu" (class 0x0300xx VGA or 0x0302xx 3D controller: data-centre GPUs have
// no display), "nvswitch" (0x0680xx), "audio" (0x0403xx), "other";
// std::nullopt when the class is not "0x" and at most six hex digits.
inline std::optional<std::string_view> PciRole(std::string_view pci_class) {
  if (pci_class.substr(0, 2) != "0x" || pci_class.size() < 3) return std::nullopt;
  uint32_t code = 0;
  auto [ptr, ec] = std::from_chars(pci_class.data() + 2, pci_class.data() + pci_class.size(), code, 16);
  if (ec != std::errc() || ptr != pci_class.data() + pci_class.size() || code > 0xffffff) return std::nullopt;
  switch (code >> 8) {
    case 0x0300:
    case 0x0302: return "gpu";
    case 0x0680: return "nvswitch";
    case 0x0403: return "audio";
  }
  return "other";
}

}  // namespace gpuf

#endif  // GPUF_COMMON_PCI_ROLE_H_
