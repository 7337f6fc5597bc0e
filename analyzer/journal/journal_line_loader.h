// Storing a journal slice's entries: parsed and classified (formats/), kept
// as journal_entries rows, each boot's end noted, and the plugin's own
// lines where it runs as a host service. The loaders of dmesg and the
// kubelet's log file store their entries through it too.
#ifndef GPUF_ANALYZER_JOURNAL_JOURNAL_LINE_LOADER_H_
#define GPUF_ANALYZER_JOURNAL_JOURNAL_LINE_LOADER_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "analyzer/load/load_context.h"
#include "formats/journal_event.h"
#include "formats/journal_json.h"
#include "formats/plugin_log.h"

namespace gpuf {

// A journal slice one line at a time, as the loader streams it (in.bytes is
// not read): the same rows as LoadJournal.
class JournalLineLoader {
 public:
  // One line's JSON taken apart, without the database, or the line as read
  // for the thread that stores it to parse: the loader parses a slice on
  // the reading thread while another classifies and stores the rows, and
  // hands over lines unparsed while the storing thread has time to spare.
  struct Row {
    int number = 0;
    bool blank = false;
    std::optional<JournalEntry> entry;  // nullopt: not a journal JSON object
    std::optional<JournalEvent> event;  // classified already (else Store classifies)
    bool parsed = true;                 // false: `text` waits for ParseAndStore
    std::string text;                   // the line, while not parsed
  };
  // Overwrites `row`, reusing its entry's buffers; classifies the entry too
  // when `classify`.
  static void Parse(int number, std::string_view line, Row& row, bool classify = false);
  // Overwrites `row` with the line itself, reusing its buffer.
  static void Keep(int number, std::string_view line, Row& row);

  JournalLineLoader(LoadContext& ctx, const MemberInput& in);
  // For lines that are not a journal slice's: all of boot `boot_offset`.
  JournalLineLoader(LoadContext& ctx, const MemberInput& in, std::optional<int64_t> boot_offset)
      : ctx_(ctx), in_(in), boot_(boot_offset) {}
  void Store(const Row& row);
  // An entry parsed from another format (dmesg, kubelet.log).
  void Store(int number, JournalEntry entry) {
    Row row;
    row.number = number;
    row.entry = std::move(entry);
    Store(row);
  }
  // Store, parsing first a row that Keep filled.
  void ParseAndStore(Row& row);
  void Line(int number, std::string_view line) {
    Parse(number, line, line_);
    Store(line_);
  }
  // After the last row: the plugin's configuration dumps among its lines.
  void Finish();

 private:
  void StoreEntry(int number, const JournalEntry& entry, const JournalEvent& event);

  LoadContext& ctx_;
  const MemberInput& in_;
  std::optional<int64_t> boot_;
  Row line_;  // Line's, reused from line to line
  PluginConfigFinder plugin_configs_;  // among the plugin slice's own lines
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_JOURNAL_JOURNAL_LINE_LOADER_H_
