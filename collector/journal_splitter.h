// Splits one `journalctl -o export` run over a boot into the journal
// slices its entries belong to: the journal is read once per boot, and each
// entry goes, as the JSON line `journalctl -o json -a` prints for it, to
// every slice whose match selects it - as a run per slice would have given
// it. Entries no slice selects are passed over.
//
//   JournalSplitter splitter({{kernel_match, &kernel_file}, {kubelet_match, &kubelet_file}});
//   RunCommand(spec, splitter, err, interrupt);
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

 private:
  void Route(const JournalExportEntry& entry);
  void Flush(size_t slice);

  std::vector<Slice> slices_;
  std::vector<std::string> pending_;  // routed lines not yet written, by slice
  std::vector<std::string> fields_;   // what the matches read
  std::vector<std::string_view> values_;  // this entry's, by fields_ index
  std::string line_;                  // the entry being routed, as JSON
  JournalExportReader reader_;
  int64_t entries_read_ = 0;
  int64_t entries_routed_ = 0;
  Status first_error_;
};

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_JOURNAL_SPLITTER_H_
