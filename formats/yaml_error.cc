#include "formats/yaml_error.h"

namespace gpuf {

std::string FormatYamlError(std::string_view file, std::string_view text, int line, int column,
                            std::string_view message) {
  std::string out = std::string(file) + ":" + std::to_string(line + 1) + ": " + std::string(message);
  if (line < 0 || column < 0) return out;
  size_t start = 0;
  for (int i = 0; i < line; ++i) {
    start = text.find('\n', start);
    if (start == std::string_view::npos) return out;
    ++start;
  }
  size_t end = text.find('\n', start);
  std::string_view source = text.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  if (!source.empty() && source.back() == '\r') source.remove_suffix(1);
  constexpr size_t kTruncateColumn = 72;
  if (static_cast<size_t>(column) >= kTruncateColumn) return out;
  out += "\n";
  if (source.size() > kTruncateColumn) {
    out += std::string(source.substr(0, kTruncateColumn)) + "...";
  } else {
    out += std::string(source);
  }
  out += "\n" + std::string(column, ' ') + "^ near here";
  return out;
}

}  // namespace gpuf
