// Splits one `journalctl -o export` run over a boot into the journal
// slices its entries belong to: the journal is read once per boot, and each
// entry goes, as the JSON line `journalctl -o json -a` prints for it, to
// every slice whose match selects it - as a run per slice would have given
// it. Entries no slice selects are passed over.
//
// On a journal of gigabytes the busiest slices fill their caps long before
// the read ends, and what follows is mostly theirs. Once the slices still
// open took under a tenth of the last kWindowEntries entries, the splitter
// takes no more and asks for a narrower read: from the last entry it took
// (its cursor), only the open slices' matches, which journalctl serves from
// its indexes without reading the rest.
//
//   JournalSplitter splitter({{kernel_match, &kernel_file}, {kubelet_match, &kubelet_file}});
//   spec.stop_when = [&] { return splitter.narrowing(); };
//   RunCommand(spec, splitter, err, interrupt);
//   if (splitter.narrowing() && !splitter.open_slices().empty()) {
//     splitter.Continue();  // then run journalctl --cursor=C with open_match()'s arguments
//     RunCommand(narrower, splitter, err, interrupt);
//   }
//   splitter.Finish();
#ifndef GPUF_COLLECTOR_JOURNAL_SPLITTER_H_
#define GPUF_COLLECTOR_JOURNAL_SPLITTER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "collector/byte_sink.h"
#include "collector/journal_export.h"
#include "common/journal_match.h"

namespace gpuf {

class JournalSplitter : public ByteSink {
 public:
  struct Slice {
    JournalMatch match;
    ByteSink* sink = nullptr;
  };
  explicit JournalSplitter(std::vector<Slice> slices);

  Status Write(std::string_view bytes) override;
  // Writes what is pending; an entry the output ended inside is dropped.
  Status Finish();

  int64_t entries_read() const { return entries_read_; }
  int64_t entries_routed() const { return entries_routed_; }
  const JournalExportReader& reader() const { return reader_; }

  // The read should go on narrower from narrow_cursor(): nothing past it is taken.
  bool narrowing() const { return !narrow_cursor_.empty() && !continued_; }
  const std::string& narrow_cursor() const { return narrow_cursor_; }
  // The slices not full when narrowing began (none: nothing more would be kept).
  const std::vector<size_t>& open_slices() const { return open_slices_; }
  // Either open slice's match: what the narrower read selects.
  JournalMatch open_match() const;
  // Takes the narrower read's output from here on (it begins at the cursor's
  // own entry, already taken). A read is narrowed once at most.
  void Continue();

  static constexpr int64_t kWindowEntries = 8192;

 private:
  void Route(const JournalExportEntry& entry);
  // Counts the entry against the window; narrows when the window was wasted.
  void Watch(const JournalExportEntry& entry, bool kept_by_open_slice);
  void Flush(size_t slice);

  std::vector<Slice> slices_;
  std::vector<std::string> pending_;  // routed lines not yet written, by slice
  std::vector<std::string> fields_;   // what the matches read
  std::vector<std::string_view> values_;  // this entry's, by fields_ index
  std::string line_;                  // the entry being routed, as JSON
  JournalExportReader reader_;
  int64_t entries_read_ = 0;
  int64_t entries_routed_ = 0;
  int64_t window_read_ = 0;
  int64_t window_kept_ = 0;  // of window_read_, those an open slice took
  std::string narrow_cursor_;
  std::vector<size_t> open_slices_;
  bool continued_ = false;
  std::string skip_cursor_;  // the narrower read's first entry, when it is this one
  Status first_error_;
};

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_JOURNAL_SPLITTER_H_
