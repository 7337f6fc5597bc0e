#include "kube/yaml_text.h"

#include <yaml-cpp/yaml.h>

#include <string_view>

namespace gpuf {

namespace {

bool IsPlainChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
         c == '/' || c == '-';
}

// A string prints bare when it starts with a letter or '/', holds only
// name characters, and is none of the words YAML 1.1 readers (kubectl's
// among them) turn into booleans or null.
bool NeedsQuotes(std::string_view s) {
  if (s.empty()) return true;
  char first = s.front();
  if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z') || first == '/')) return true;
  for (char c : s) {
    if (!IsPlainChar(c)) return true;
  }
  static constexpr std::string_view kWords[] = {"y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
                                                "true", "True", "TRUE", "false", "False", "FALSE", "on", "On",
                                                "ON", "off", "Off", "OFF", "null", "Null", "NULL"};
  for (std::string_view w : kWords) {
    if (s == w) return true;
  }
  return false;
}

// Plain when NeedsQuotes allows, else double-quoted: yaml-cpp alone would
// print "360" or "yes" bare, which a YAML 1.1 reader takes for a number or a
// boolean.
void EmitString(const std::string& s, YAML::Emitter& out) {
  if (NeedsQuotes(s)) out << YAML::DoubleQuoted;
  out << s;
}

void Emit(const nlohmann::json& v, YAML::Emitter& out) {
  switch (v.type()) {
    case nlohmann::json::value_t::object:
      out << (v.empty() ? YAML::Flow : YAML::Block) << YAML::BeginMap;
      for (const auto& [key, value] : v.items()) {
        out << YAML::Key;
        EmitString(key, out);
        out << YAML::Value;
        Emit(value, out);
      }
      out << YAML::EndMap;
      return;
    case nlohmann::json::value_t::array:
      out << (v.empty() ? YAML::Flow : YAML::Block) << YAML::BeginSeq;
      for (const auto& item : v) Emit(item, out);
      out << YAML::EndSeq;
      return;
    case nlohmann::json::value_t::string:
      EmitString(v.get_ref<const std::string&>(), out);
      return;
    case nlohmann::json::value_t::boolean:
      out << v.get<bool>();
      return;
    case nlohmann::json::value_t::number_integer:
      out << v.get<int64_t>();
      return;
    case nlohmann::json::value_t::number_unsigned:
      out << v.get<uint64_t>();
      return;
    case nlohmann::json::value_t::number_float:
      // JSON's shortest form: yaml-cpp writes 0.1 as 0.10000000000000001.
      out << v.dump();
      return;
    default:  // null, and the binary and discarded values JSON text never holds
      out << YAML::Null;
      return;
  }
}

}  // namespace

std::string YamlText(const nlohmann::json& value) {
  YAML::Emitter out;
  out.SetNullFormat(YAML::LowerNull);
  Emit(value, out);
  return std::string(out.c_str()) + "\n";
}

}  // namespace gpuf
