#include "formats/journal_json.h"

#include <simdjson.h>

#include <cstring>
#include <memory>

namespace gpuf {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

// A journal value: string, array of byte values, or array of those (the
// field repeated), into `out` (its buffer reused). The first occurrence wins
// for repeated fields.
void AssignValueText(element value, std::string& out) {
  out.clear();
  if (value.is_string()) {
    out.assign(std::string_view(value));
    return;
  }
  if (!value.is_array()) return;
  simdjson::dom::array items(value);
  if (items.size() == 0) return;
  element front = items.at(0).value_unsafe();
  if (front.is_int64() || front.is_uint64()) {
    for (element b : items) {
      if (b.is_int64()) out += static_cast<char>(static_cast<int>(int64_t(b)) & 0xff);
      else if (b.is_uint64()) out += static_cast<char>(static_cast<int>(uint64_t(b)) & 0xff);
    }
    return;
  }
  AssignValueText(front, out);
}

std::string ValueText(element value) {
  std::string text;
  AssignValueText(value, text);
  return text;
}

std::optional<int64_t> IntOf(std::string_view text) {
  if (text.empty() || text.size() > 18) return std::nullopt;
  int64_t value = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    value = value * 10 + (c - '0');
  }
  return value;
}

// journalctl writes numbers as strings of digits: read in place, not copied.
std::optional<int64_t> IntValue(element value) {
  if (value.is_string()) return IntOf(std::string_view(value));
  return IntOf(ValueText(value));
}

// The parser and a padded copy of the line, reused from line to line: the
// journal is parsed a million lines at a time, and simdjson reads up to
// SIMDJSON_PADDING bytes past the end of its input.
struct LineParser {
  simdjson::dom::parser parser;
  std::unique_ptr<char[]> buffer;
  size_t capacity = 0;

  simdjson::simdjson_result<element> Parse(std::string_view line) {
    if (line.size() + simdjson::SIMDJSON_PADDING > capacity) {
      capacity = 2 * line.size() + simdjson::SIMDJSON_PADDING;
      buffer = std::make_unique<char[]>(capacity);
    }
    std::memcpy(buffer.get(), line.data(), line.size());
    std::memset(buffer.get() + line.size(), 0, simdjson::SIMDJSON_PADDING);
    return parser.parse(buffer.get(), line.size(), /*realloc_if_needed=*/false);
  }
};

}  // namespace

bool ParseJournalJsonLine(std::string_view line, JournalEntry& e) {
  thread_local LineParser line_parser;
  thread_local std::string about;  // UNIT
  auto parsed = line_parser.Parse(line);
  if (parsed.error() || !parsed.value_unsafe().is_object()) return false;
  e.realtime_us = e.monotonic_us = e.source_monotonic_us = e.pid = e.priority = std::nullopt;
  for (std::string* text : {&e.boot_id, &e.unit, &e.identifier, &e.transport, &e.message, &about}) text->clear();
  // A key given twice keeps its last value, as a JSON object read into a map does.
  for (auto field : simdjson::dom::object(parsed.value_unsafe())) {
    std::string_view key = field.key;
    if (key.empty() || (key[0] != '_' && key[0] != 'M' && key[0] != 'U' && key[0] != 'S' && key[0] != 'P')) continue;
    if (key == "MESSAGE") AssignValueText(field.value, e.message);
    else if (key == "__REALTIME_TIMESTAMP") e.realtime_us = IntValue(field.value);
    else if (key == "__MONOTONIC_TIMESTAMP") e.monotonic_us = IntValue(field.value);
    else if (key == "_SOURCE_MONOTONIC_TIMESTAMP") e.source_monotonic_us = IntValue(field.value);
    else if (key == "_BOOT_ID") AssignValueText(field.value, e.boot_id);
    else if (key == "_SYSTEMD_UNIT") AssignValueText(field.value, e.unit);
    else if (key == "UNIT") AssignValueText(field.value, about);
    else if (key == "SYSLOG_IDENTIFIER") AssignValueText(field.value, e.identifier);
    else if (key == "_PID") e.pid = IntValue(field.value);
    else if (key == "PRIORITY") e.priority = IntValue(field.value);
    else if (key == "_TRANSPORT") AssignValueText(field.value, e.transport);
  }
  if ((e.unit.empty() || e.unit == "init.scope") && !about.empty()) e.unit = about;
  return true;
}

std::optional<JournalEntry> ParseJournalJsonLine(std::string_view line) {
  JournalEntry e;
  if (!ParseJournalJsonLine(line, e)) return std::nullopt;
  return e;
}

}  // namespace gpuf
