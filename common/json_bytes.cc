#include "common/json_bytes.h"

#include <cstdio>

namespace gpuf {

namespace {

// The length of the valid UTF-8 sequence that starts `bytes[at]`, or 0 when
// none does (RFC 3629: no overlong forms, no surrogates, nothing past U+10FFFF).
size_t Utf8SequenceAt(std::string_view bytes, size_t at) {
  const auto byte = [&](size_t i) { return static_cast<unsigned char>(bytes[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return 1;
  size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3;
    if (lead == 0xE0) low = 0xA0;
    if (lead == 0xED) high = 0x9F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4;
    if (lead == 0xF0) low = 0x90;
    if (lead == 0xF4) high = 0x8F;
  } else {
    return 0;
  }
  if (at + length > bytes.size()) return 0;
  if (byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (size_t i = 2; i < length; ++i) {
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
  }
  return length;
}

template <typename Json>
Json Utf8Copy(const Json& value, NonUtf8 policy) {
  if (value.is_string()) {
    const auto& text = value.template get_ref<const std::string&>();
    if (IsUtf8(text)) return value;
    if (policy == NonUtf8::kEscaped) return Json(EscapeNonUtf8(text));
    Json bytes = Json::array();
    for (unsigned char c : text) bytes.push_back(static_cast<int>(c));
    return bytes;
  }
  if (value.is_array()) {
    Json copy = Json::array();
    for (const auto& item : value) copy.push_back(Utf8Copy(item, policy));
    return copy;
  }
  if (value.is_object()) {
    Json copy = Json::object();
    for (auto it = value.begin(); it != value.end(); ++it) copy[EscapeNonUtf8(it.key())] = Utf8Copy(it.value(), policy);
    return copy;
  }
  return value;
}

template <typename Json>
std::string Dump(const Json& doc, int indent, NonUtf8 policy) {
  try {
    return doc.dump(indent);
  } catch (const typename Json::type_error&) {
    // Not UTF-8 somewhere: the rare case pays for the copy.
  }
  try {
    return Utf8Copy(doc, policy).dump(indent);
  } catch (const typename Json::exception&) {
    return doc.dump(indent, ' ', false, Json::error_handler_t::replace);
  }
}

}  // namespace

bool IsUtf8(std::string_view bytes) {
  for (size_t at = 0; at < bytes.size();) {
    const size_t length = Utf8SequenceAt(bytes, at);
    if (length == 0) return false;
    at += length;
  }
  return true;
}

std::string EscapedByte(unsigned char byte) {
  char escaped[5];
  std::snprintf(escaped, sizeof escaped, "\\x%02X", byte);
  return escaped;
}

std::string EscapeNonUtf8(std::string_view bytes) {
  std::string out;
  out.reserve(bytes.size());
  for (size_t at = 0; at < bytes.size();) {
    const size_t length = Utf8SequenceAt(bytes, at);
    if (length > 0) {
      out.append(bytes.substr(at, length));
      at += length;
      continue;
    }
    out += EscapedByte(static_cast<unsigned char>(bytes[at]));
    ++at;
  }
  return out;
}

void AppendJsonString(std::string& out, std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += '"';
  size_t run = 0;  // start of the bytes copied as they are
  for (size_t at = 0; at < bytes.size();) {
    const unsigned char c = static_cast<unsigned char>(bytes[at]);
    if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
      ++at;
      continue;
    }
    if (c >= 0x80) {
      const size_t length = Utf8SequenceAt(bytes, at);
      if (length > 0) {
        at += length;
        continue;
      }
    }
    out.append(bytes.substr(run, at - run));
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out += kHex[c >> 4];
          out += kHex[c & 0xF];
        } else {
          out += '\\' + EscapedByte(c);  // a byte outside UTF-8: \xNN, its backslash escaped
        }
    }
    run = ++at;
  }
  out.append(bytes.substr(run));
  out += '"';
}

nlohmann::json JsonForBytes(std::string_view bytes, NonUtf8 policy) {
  return Utf8Copy(nlohmann::json(std::string(bytes)), policy);
}

std::optional<std::string> BytesFromJson(const nlohmann::json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (!value.is_array()) return std::nullopt;
  std::string bytes;
  for (const auto& item : value) {
    if (!item.is_number_unsigned() || item.get<uint64_t>() > 0xFF) return std::nullopt;
    bytes += static_cast<char>(item.get<uint64_t>());
  }
  return bytes;
}

std::string DumpJson(const nlohmann::json& doc, int indent, NonUtf8 policy) { return Dump(doc, indent, policy); }

std::string DumpJson(const nlohmann::ordered_json& doc, int indent, NonUtf8 policy) {
  return Dump(doc, indent, policy);
}

}  // namespace gpuf
