// Parses one line of `journalctl -o json`.
//   {"__REALTIME_TIMESTAMP":"1763436496123456","__MONOTONIC_TIMESTAMP":"36123456",
//    "_BOOT_ID":"9c1d...","_SYSTEMD_UNIT":"kubelet.service","MESSAGE":"..."}
// Every value is a string; MESSAGE may instead be an array of byte values
// (non-UTF-8 or control characters) or an array of strings (repeated field).
#ifndef GPUF_FORMATS_JOURNAL_JSON_H_
#define GPUF_FORMATS_JOURNAL_JSON_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace gpuf {

struct JournalEntry {
  std::optional<int64_t> realtime_us;
  std::optional<int64_t> monotonic_us;
  std::optional<int64_t> source_monotonic_us;  // _SOURCE_MONOTONIC_TIMESTAMP: kernel lines' own time
  std::string boot_id;
  std::string unit;        // _SYSTEMD_UNIT, or UNIT for PID 1 messages about a unit
  std::string identifier;  // SYSLOG_IDENTIFIER
  std::optional<int64_t> pid;
  std::optional<int64_t> priority;
  std::string transport;
  std::string message;
};

// std::nullopt when the line is not a JSON object.
std::optional<JournalEntry> ParseJournalJsonLine(std::string_view line);
// The same into `into`, every field overwritten and its buffers reused (a
// million lines parsed into the same few entries allocate nothing); false,
// with `into` left as it was, when the line is not a JSON object.
bool ParseJournalJsonLine(std::string_view line, JournalEntry& into);

}  // namespace gpuf

#endif  // GPUF_FORMATS_JOURNAL_JSON_H_
