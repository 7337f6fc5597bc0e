// journalctl's export format, read as it streams, and each entry written
// as the JSON line `journalctl -o json -a` prints for it.
//
// Export is what journalctl formats fastest (a fifth of the time -o json
// takes on the same journal) and is binary-safe: "NAME=value\n" for a
// printable value, "NAME\n" + 64-bit little-endian size + bytes + "\n" for
// any other; a blank line ends an entry. A field whose name journald could
// not have written (not A-Z, 0-9, '_') is passed over.
//
//   JournalExportReader reader([&](const JournalExportEntry& e) { AppendJournalJson(e, line); });
//   reader.Feed(bytes); ... reader.Finish();
#ifndef GPUF_COLLECTOR_JOURNAL_EXPORT_H_
#define GPUF_COLLECTOR_JOURNAL_EXPORT_H_

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

struct JournalExportField {
  std::string_view name;
  std::string_view value;
};

// The fields of one entry in order; views valid during the callback only.
using JournalExportEntry = std::vector<JournalExportField>;

class JournalExportReader {
 public:
  using EntryCallback = std::function<void(const JournalExportEntry&)>;
  explicit JournalExportReader(EntryCallback on_entry) : on_entry_(std::move(on_entry)) {}

  void Feed(std::string_view bytes);
  // An entry the stream ended inside (a timeout) is not one: it is counted.
  void Finish();
  // Forgets a partial entry without counting it: the stream was ended on
  // purpose, and what it was cut inside is read again.
  void Reset() { buffer_.clear(); }

  int64_t cut_entries() const { return cut_entries_; }
  // The stream broke the format (a size past kMaxEntryBytes, a field
  // without a name); what followed was not read.
  bool broken() const { return broken_; }

  static constexpr size_t kMaxEntryBytes = 64 << 20;

 private:
  // Parses the entry at `at`; its end, 0 when more bytes are needed.
  size_t ParseEntry(size_t at);

  EntryCallback on_entry_;
  std::string buffer_;
  JournalExportEntry fields_;
  int64_t cut_entries_ = 0;
  bool broken_ = false;
};

// Appends the entry as journalctl -o json -a prints it, with a newline: a
// value that is printable UTF-8 (newlines and tabs allowed) as a string,
// any other as an array of its bytes; a field given more than once as an
// array of its values.
void AppendJournalJson(const JournalExportEntry& entry, std::string& out);

// The first value of `name` in the entry; "" when absent.
std::string_view JournalExportValue(const JournalExportEntry& entry, std::string_view name);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_JOURNAL_EXPORT_H_
