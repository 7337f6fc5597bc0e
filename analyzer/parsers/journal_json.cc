#include "analyzer/parsers/journal_json.h"

#include <nlohmann/json.hpp>

namespace gpuf {

namespace {

using nlohmann::json;

// A journal value: string, array of byte values, or array of those (the
// field repeated). The first occurrence wins for repeated fields.
std::string ValueText(const json& value) {
  if (value.is_string()) return value.get<std::string>();
  if (value.is_array() && !value.empty()) {
    if (value.front().is_number_integer()) {
      std::string bytes;
      for (const auto& b : value) {
        if (b.is_number_integer()) bytes += static_cast<char>(b.get<int>() & 0xff);
      }
      return bytes;
    }
    return ValueText(value.front());
  }
  return "";
}

std::optional<int64_t> ValueInt(const json& object, const char* key) {
  auto it = object.find(key);
  if (it == object.end()) return std::nullopt;
  std::string text = ValueText(*it);
  if (text.empty() || text.find_first_not_of("0123456789") != std::string::npos || text.size() > 18) {
    return std::nullopt;
  }
  return std::stoll(text);
}

std::string Field(const json& object, const char* key) {
  auto it = object.find(key);
  return it == object.end() ? "" : ValueText(*it);
}

}  // namespace

std::optional<JournalEntry> ParseJournalJsonLine(std::string_view line) {
  json doc = json::parse(line.begin(), line.end(), nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) return std::nullopt;
  JournalEntry e;
  e.realtime_us = ValueInt(doc, "__REALTIME_TIMESTAMP");
  e.monotonic_us = ValueInt(doc, "__MONOTONIC_TIMESTAMP");
  e.source_monotonic_us = ValueInt(doc, "_SOURCE_MONOTONIC_TIMESTAMP");
  e.boot_id = Field(doc, "_BOOT_ID");
  e.unit = Field(doc, "_SYSTEMD_UNIT");
  if (e.unit.empty() || e.unit == "init.scope") {
    std::string about = Field(doc, "UNIT");
    if (!about.empty()) e.unit = about;
  }
  e.identifier = Field(doc, "SYSLOG_IDENTIFIER");
  e.pid = ValueInt(doc, "_PID");
  e.priority = ValueInt(doc, "PRIORITY");
  e.transport = Field(doc, "_TRANSPORT");
  e.message = Field(doc, "MESSAGE");
  return e;
}

}  // namespace gpuf
