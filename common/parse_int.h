// Decimal integers from text without exceptions. Parsers read hostile input
// (bundles and captures from strangers): std::stoi throws on "abcd" and on
// 20 digits, which would escape a library boundary; these say "not a number".
#ifndef GPUF_COMMON_PARSE_INT_H_
#define GPUF_COMMON_PARSE_INT_H_

#include <charconv>
#include <cstdint>
#include <optional>
#include <string_view>

namespace gpuf {

// The whole of `text` as a base-10 integer (a leading '-' allowed); nullopt
// when it is empty, holds anything else, or does not fit in 64 bits.
inline std::optional<int64_t> ParseInt64(std::string_view text) {
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// ParseInt64, or `fallback` when the text is not such a number.
inline int64_t Int64Or(std::string_view text, int64_t fallback) { return ParseInt64(text).value_or(fallback); }

}  // namespace gpuf

#endif  // GPUF_COMMON_PARSE_INT_H_
