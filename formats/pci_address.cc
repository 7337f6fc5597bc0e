#include "formats/pci_address.h"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace gpuf {

namespace {

bool ParseHex(std::string_view text, uint32_t& out, size_t max_digits = 8) {
  if (text.empty() || text.size() > max_digits) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out, 16);
  return ec == std::errc() && ptr == text.data() + text.size();
}

std::string Format(uint32_t domain, uint32_t bus, uint32_t device, uint32_t function) {
  char out[32];
  std::snprintf(out, sizeof out, "%04x:%02x:%02x.%x", domain, bus, device, function);
  return out;
}

}  // namespace

std::optional<std::string> NormalizePciBusId(std::string_view text) {
  size_t first = text.find(':');
  size_t second = first == std::string_view::npos ? first : text.find(':', first + 1);
  size_t dot = second == std::string_view::npos ? second : text.find('.', second + 1);
  if (dot == std::string_view::npos) return std::nullopt;
  uint32_t domain = 0, bus = 0, device = 0, function = 0;
  if (!ParseHex(text.substr(0, first), domain) || !ParseHex(text.substr(first + 1, second - first - 1), bus) ||
      !ParseHex(text.substr(second + 1, dot - second - 1), device) || !ParseHex(text.substr(dot + 1), function) ||
      bus > 0xff || device > 0x1f || function > 7) {
    return std::nullopt;
  }
  return Format(domain, bus, device, function);
}

std::optional<std::string> NormalizeGpuAddress(std::string_view text) {
  if (text.size() >= 4 && (text.substr(0, 4) == "PCI:" || text.substr(0, 4) == "pci:")) text.remove_prefix(4);
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    size_t colon = text.find(':', start);
    parts.push_back(text.substr(start, colon == std::string_view::npos ? colon : colon - start));
    if (colon == std::string_view::npos) break;
    start = colon + 1;
  }
  if (parts.size() < 2 || parts.size() > 3) return std::nullopt;
  uint32_t domain = 0, bus = 0, device = 0, function = 0;
  std::string_view last = parts.back();
  if (size_t dot = last.find('.'); dot != std::string_view::npos) {
    if (!ParseHex(last.substr(dot + 1), function, 1) || function > 7) return std::nullopt;
    last = last.substr(0, dot);
  }
  if (parts.size() == 3 && !ParseHex(parts[0], domain)) return std::nullopt;
  if (!ParseHex(parts[parts.size() - 2], bus, 2) || !ParseHex(last, device, 2) || device > 0x1f) return std::nullopt;
  return Format(domain, bus, device, function);
}

}  // namespace gpuf
