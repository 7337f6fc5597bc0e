// Reading checked values out of a yaml-cpp document without exceptions: each
// accessor returns false after recording the first error at the offending
// node, formatted as a file:line error (yaml_error.h). Callers stop at the
// first false and hand back status().
#ifndef GPUF_FORMATS_YAML_READER_H_
#define GPUF_FORMATS_YAML_READER_H_

#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"
#include "common/vocabulary.h"
#include "formats/yaml_error.h"

namespace gpuf {

// An id of a rule or catalogue entry: a-z, 0-9 and single '-' between them.
bool IsKebab(std::string_view id);

class YamlReader {
 public:
  YamlReader(std::string file, std::string_view text) : file_(std::move(file)), text_(text) {}

  // Records an error at `mark` (0-based line and column); the first one wins.
  bool ErrorAt(YamlMark mark, const std::string& message);
  bool Error(const YAML::Node& at, const std::string& message) { return ErrorAt(MarkOf(at), message); }
  Status status() const { return error_.empty() ? Status::Ok() : Status::BadInput(error_); }
  const std::string& file() const { return file_; }
  std::string_view text() const { return text_; }

  static YamlMark MarkOf(const YAML::Node& node);

  // Each key of `map` must be one of `allowed`; each of `required` present.
  bool Fields(const YAML::Node& map, std::string_view what, std::initializer_list<std::string_view> allowed,
              std::initializer_list<std::string_view> required);
  // A plain value (not a list or map); `nonempty` refuses "".
  bool Scalar(const YAML::Node& node, std::string_view what, std::string* out, bool nonempty = true);
  // A scalar that must be one of `choices`.
  bool Choice(const YAML::Node& node, std::string_view what, std::initializer_list<std::string_view> choices,
              std::string* out) {
    return Choice(node, what, std::span<const std::string_view>(choices.begin(), choices.size()), out);
  }
  bool Choice(const YAML::Node& node, std::string_view what, std::span<const std::string_view> choices,
              std::string* out);
  // A scalar naming a value of a word list of common/vocabulary.h, parsed
  // here, at the border, and carried typed from then on.
  template <typename E>
  bool Word(const YAML::Node& node, std::string_view what, E* out) {
    std::string text;
    if (!Choice(node, what, Names<E>(), &text)) return false;
    *out = *Parse<E>(text);
    return true;
  }
  template <typename E>
  bool Word(const YAML::Node& node, std::string_view what, std::optional<E>* out) {
    E value{};
    if (!Word(node, what, &value)) return false;
    *out = value;
    return true;
  }
  // One scalar or a list of scalars.
  bool Strings(const YAML::Node& node, std::string_view what, std::vector<std::string>* out);

 private:
  std::string file_;
  std::string_view text_;
  std::string error_;
};

}  // namespace gpuf

#endif  // GPUF_FORMATS_YAML_READER_H_
