// Iterating over the lines of a text held in memory, without copying it.
#ifndef GPUF_COMMON_TEXT_LINES_H_
#define GPUF_COMMON_TEXT_LINES_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

// Calls fn(line_number, line) for each line (1-based), without the trailing
// "\n" or "\r\n". A final line without a newline is included.
template <typename Fn>
void ForEachLine(std::string_view text, Fn fn) {
  int number = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    fn(++number, line);
    start = end + 1;
  }
}

// `text` with A-Z made a-z and every other byte as it is: the same on any
// locale, and safe on bytes that are not UTF-8.
inline std::string AsciiLower(std::string_view text) {
  std::string out(text);
  for (char& c : out) {
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  }
  return out;
}

inline constexpr std::string_view kWhitespace = " \t\r\n";

// Without the trailing (leading, both) characters of `chars`.
inline std::string_view TrimRight(std::string_view text, std::string_view chars = kWhitespace) {
  size_t end = text.find_last_not_of(chars);
  return end == std::string_view::npos ? std::string_view() : text.substr(0, end + 1);
}

inline std::string_view TrimLeft(std::string_view text, std::string_view chars = kWhitespace) {
  size_t begin = text.find_first_not_of(chars);
  return begin == std::string_view::npos ? std::string_view() : text.substr(begin);
}

inline std::string_view Trim(std::string_view text, std::string_view chars = kWhitespace) {
  return TrimLeft(TrimRight(text, chars), chars);
}

// The first line, without trailing whitespace.
inline std::string FirstLine(std::string_view text) { return std::string(TrimRight(text.substr(0, text.find('\n')))); }

// "a\tb\t" -> {"a", "b", ""}: every field, empty ones included.
inline std::vector<std::string_view> SplitTabs(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    size_t tab = line.find('\t', start);
    fields.push_back(line.substr(start, tab == std::string_view::npos ? std::string_view::npos : tab - start));
    if (tab == std::string_view::npos) return fields;
    start = tab + 1;
  }
}

// `text` with every `what` replaced by `with` (what `with` brings in is not
// searched again).
inline std::string ReplaceAll(std::string text, std::string_view what, std::string_view with) {
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + with.size())) {
    text.replace(at, what.size(), with);
  }
  return text;
}

// {"a", "b"}, "; " -> "a; b".
inline std::string Join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const auto& part : parts) {
    if (!out.empty()) out += separator;
    out += part;
  }
  return out;
}

}  // namespace gpuf

#endif  // GPUF_COMMON_TEXT_LINES_H_
