#include "collector/journal_export.h"

#include <cstdio>
#include <cstring>

namespace gpuf {

namespace {

// One UTF-8 sequence at s[i]: its code point and length; length 0 when invalid.
size_t DecodeUtf8(std::string_view s, size_t i, char32_t& code) {
  const auto byte = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char c = byte(i);
  size_t length;
  if (c < 0x80) {
    code = c;
    return 1;
  } else if ((c & 0xE0) == 0xC0) {
    length = 2;
    code = c & 0x1F;
  } else if ((c & 0xF0) == 0xE0) {
    length = 3;
    code = c & 0x0F;
  } else if ((c & 0xF8) == 0xF0) {
    length = 4;
    code = c & 0x07;
  } else {
    return 0;
  }
  if (i + length > s.size()) return 0;
  for (size_t k = 1; k < length; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return 0;
    code = (code << 6) | (byte(i + k) & 0x3F);
  }
  static constexpr char32_t kSmallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (code < kSmallest[length] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return 0;
  return length;
}

// systemd's utf8_is_printable_newline(.., true): valid UTF-8 without C0
// controls (tab and newline aside), DEL or C1 controls.
bool PrintableUtf8(std::string_view s) {
  for (size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7F) {
      ++i;
      continue;
    }
    char32_t code = 0;
    const size_t length = DecodeUtf8(s, i, code);
    if (length == 0) return false;
    if ((code < 0x20 && code != '\t' && code != '\n') || (code >= 0x7F && code <= 0x9F)) return false;
    i += length;
  }
  return true;
}

void AppendJsonString(std::string_view s, std::string& out) {
  out += '"';
  size_t plain = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(s.substr(plain, i - plain));
    plain = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      default: {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
        out += escaped;
      }
    }
  }
  out.append(s.substr(plain));
  out += '"';
}

void AppendValue(std::string_view value, std::string& out) {
  if (PrintableUtf8(value)) return AppendJsonString(value, out);
  out += '[';
  for (size_t i = 0; i < value.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(static_cast<unsigned char>(value[i]));
  }
  out += ']';
}

// journald's field names are A-Z, 0-9 and '_'; lower case is let through.
// Anything else is no field journalctl could print, and is passed over.
bool ValidFieldName(std::string_view name) {
  if (name.empty() || name.size() > 256) return false;
  for (char c : name) {
    if (!(c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
  }
  return true;
}

uint64_t ReadLe64(const char* p) {
  uint64_t v = 0;
  for (int k = 7; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(p[k]);
  return v;
}

}  // namespace

void JournalExportReader::Feed(std::string_view bytes) {
  if (broken_) return;
  buffer_.append(bytes);
  size_t at = 0;
  while (at < buffer_.size() && !broken_) {
    const size_t end = ParseEntry(at);
    if (end == 0) break;
    at = end;
  }
  buffer_.erase(0, at);
  if (buffer_.size() > kMaxEntryBytes) broken_ = true;
  if (broken_) buffer_.clear();
}

void JournalExportReader::Finish() {
  if (!buffer_.empty() && buffer_.find_first_not_of('\n') != std::string::npos) ++cut_entries_;
  buffer_.clear();
}

size_t JournalExportReader::ParseEntry(size_t at) {
  fields_.clear();
  const char* data = buffer_.data();
  const size_t size = buffer_.size();
  size_t q = at;
  while (true) {
    if (q >= size) return 0;
    if (data[q] == '\n') {
      if (!fields_.empty()) on_entry_(fields_);
      return q + 1;
    }
    const void* newline = std::memchr(data + q, '\n', size - q);
    if (!newline) return 0;
    const size_t nl = static_cast<const char*>(newline) - data;
    const void* equals = std::memchr(data + q, '=', nl - q);
    if (equals) {
      const size_t eq = static_cast<const char*>(equals) - data;
      if (eq == q) {
        broken_ = true;
        return 0;
      }
      const std::string_view name(data + q, eq - q);
      if (ValidFieldName(name)) fields_.push_back({name, std::string_view(data + eq + 1, nl - eq - 1)});
      q = nl + 1;
      continue;
    }
    if (size - nl - 1 < 8) return 0;
    const uint64_t length = ReadLe64(data + nl + 1);
    if (length > kMaxEntryBytes) {
      broken_ = true;
      return 0;
    }
    const size_t value_at = nl + 9;
    if (size - value_at < length + 1) return 0;
    const std::string_view name(data + q, nl - q);
    if (ValidFieldName(name)) fields_.push_back({name, std::string_view(data + value_at, length)});
    q = value_at + length + 1;
  }
}

void AppendJournalJson(const JournalExportEntry& entry, std::string& out) {
  out += '{';
  bool first = true;
  for (size_t i = 0; i < entry.size(); ++i) {
    const std::string_view name = entry[i].name;
    bool seen = false;
    for (size_t k = 0; k < i && !seen; ++k) seen = entry[k].name == name;
    if (seen) continue;  // written with its first value
    size_t count = 0;
    for (size_t k = i; k < entry.size(); ++k) count += entry[k].name == name;
    if (!first) out += ',';
    first = false;
    AppendJsonString(name, out);
    out += ':';
    if (count == 1) {
      AppendValue(entry[i].value, out);
      continue;
    }
    out += '[';
    for (size_t k = i, written = 0; k < entry.size(); ++k) {
      if (entry[k].name != name) continue;
      if (written++) out += ',';
      AppendValue(entry[k].value, out);
    }
    out += ']';
  }
  out += "}\n";
}

std::string_view JournalExportValue(const JournalExportEntry& entry, std::string_view name) {
  for (const auto& field : entry) {
    if (field.name == name) return field.value;
  }
  return {};
}

}  // namespace gpuf
