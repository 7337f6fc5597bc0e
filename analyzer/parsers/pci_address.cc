#include "analyzer/parsers/pci_address.h"

#include <charconv>
#include <cstdint>
#include <cstdio>

namespace gpuf {

namespace {

bool ParseHex(std::string_view text, uint32_t& out) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out, 16);
  return ec == std::errc() && ptr == text.data() + text.size();
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
  char out[32];
  std::snprintf(out, sizeof out, "%04x:%02x:%02x.%x", domain, bus, device, function);
  return std::string(out);
}

}  // namespace gpuf
