#include "kube/yaml_text.h"

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

std::string Scalar(const nlohmann::json& v) {
  if (v.is_string()) {
    const std::string& s = v.get_ref<const std::string&>();
    // JSON's double-quoted form is also YAML's.
    return NeedsQuotes(s) ? v.dump() : s;
  }
  return v.dump();  // numbers, booleans, null
}

bool IsEmptyCollection(const nlohmann::json& v) { return (v.is_object() || v.is_array()) && v.empty(); }

void Emit(const nlohmann::json& v, int indent, std::string& out);

// A value after "key:" or "- ": scalars and empty collections on the same
// line, the rest below (objects indented, sequences at the key's level).
void EmitAfterKey(const nlohmann::json& v, int indent, std::string& out) {
  if (v.is_object() && !v.empty()) {
    out += "\n";
    Emit(v, indent + 2, out);
  } else if (v.is_array() && !v.empty()) {
    out += "\n";
    Emit(v, indent, out);
  } else {
    out += " " + (IsEmptyCollection(v) ? std::string(v.is_object() ? "{}" : "[]") : Scalar(v)) + "\n";
  }
}

void Emit(const nlohmann::json& v, int indent, std::string& out) {
  const std::string pad(static_cast<size_t>(indent), ' ');
  if (v.is_object()) {
    for (const auto& [key, value] : v.items()) {
      out += pad + (NeedsQuotes(key) ? nlohmann::json(key).dump() : key) + ":";
      EmitAfterKey(value, indent, out);
    }
    return;
  }
  if (v.is_array()) {
    for (const auto& item : v) {
      if (item.is_object() && !item.empty()) {
        // "- " then the object's first key on the same line, the rest aligned under it.
        std::string nested;
        Emit(item, indent + 2, nested);
        out += pad + "- " + nested.substr(static_cast<size_t>(indent) + 2);
      } else if (item.is_array() && !item.empty()) {
        out += pad + "-\n";
        Emit(item, indent + 2, out);
      } else {
        out += pad + "- " + (IsEmptyCollection(item) ? std::string(item.is_object() ? "{}" : "[]") : Scalar(item)) +
               "\n";
      }
    }
    return;
  }
  out += pad + Scalar(v) + "\n";
}

}  // namespace

std::string YamlText(const nlohmann::json& value) {
  std::string out;
  Emit(value, 0, out);
  return out;
}

}  // namespace gpuf
