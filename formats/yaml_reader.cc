#include "formats/yaml_reader.h"

#include <algorithm>
#include <cctype>

#include "formats/yaml_error.h"

namespace gpuf {

namespace {

std::string JoinChoices(std::span<const std::string_view> choices) {
  std::string out;
  for (auto c : choices) out += (out.empty() ? "" : ", ") + std::string(c);
  return out;
}

}  // namespace

bool YamlReader::ErrorAt(YamlMark mark, const std::string& message) {
  // A node that is not in the text (a missing key, an empty file) has no mark.
  if (mark.line < 0) mark = {0, 0};
  if (error_.empty()) error_ = FormatYamlError(file_, text_, mark.line, mark.column, message);
  return false;
}

YamlMark YamlReader::MarkOf(const YAML::Node& node) {
  YAML::Mark m = node.Mark();
  return {m.line, m.column};
}

bool YamlReader::Fields(const YAML::Node& map, std::string_view what, std::initializer_list<std::string_view> allowed,
                        std::initializer_list<std::string_view> required) {
  if (!map.IsMap()) return Error(map, std::string(what) + " must be a map of fields");
  std::vector<std::string> seen;
  for (const auto& item : map) {
    std::string key = item.first.IsScalar() ? item.first.Scalar() : "";
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      return Error(item.first, "unknown field '" + key + "' in " + std::string(what) + " (" +
                                   JoinChoices(std::span<const std::string_view>(allowed.begin(), allowed.size())) + ")");
    }
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) {
      return Error(item.first, "field '" + key + "' given twice in " + std::string(what));
    }
    seen.push_back(key);
  }
  for (auto field : required) {
    if (std::find(seen.begin(), seen.end(), field) == seen.end()) {
      return Error(map, std::string(what) + " lacks the field '" + std::string(field) + "'");
    }
  }
  return true;
}

bool YamlReader::Scalar(const YAML::Node& node, std::string_view what, std::string* out, bool nonempty) {
  if (!node.IsScalar()) return Error(node, std::string(what) + " must be a single value");
  *out = node.Scalar();
  if (nonempty && out->empty()) return Error(node, std::string(what) + " is empty");
  return true;
}

bool IsKebab(std::string_view id) {
  if (id.empty() || id.front() == '-' || id.back() == '-' || id.find("--") != std::string_view::npos) return false;
  return std::all_of(id.begin(), id.end(), [](char c) { return std::islower(static_cast<unsigned char>(c)) ||
                                                               std::isdigit(static_cast<unsigned char>(c)) || c == '-'; });
}

bool YamlReader::Choice(const YAML::Node& node, std::string_view what, std::span<const std::string_view> choices,
                        std::string* out) {
  if (!Scalar(node, what, out)) return false;
  if (std::find(choices.begin(), choices.end(), *out) == choices.end()) {
    return Error(node, "unknown " + std::string(what) + " '" + *out + "' (" + JoinChoices(choices) + ")");
  }
  return true;
}

bool YamlReader::Strings(const YAML::Node& node, std::string_view what, std::vector<std::string>* out) {
  if (node.IsScalar()) {
    std::string value;
    if (!Scalar(node, what, &value)) return false;
    out->push_back(value);
    return true;
  }
  if (!node.IsSequence()) return Error(node, std::string(what) + " must be a value or a list of values");
  for (const auto& item : node) {
    std::string value;
    if (!Scalar(item, what, &value)) return false;
    out->push_back(value);
  }
  return true;
}

}  // namespace gpuf
