// Splits one `journalctl -o json` run into the journal slices its entries
// belong to: the journal is read once per boot, with the union of the
// slices' matches, and each entry goes to every slice whose match selects
// it, as a run per slice would have given it.
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
  // Routes a last line the output did not end with a newline.
  Status Finish();

  // Lines no slice took: not a journal entry, or one the match reads apart.
  int64_t unrouted_lines() const { return unrouted_lines_; }

 private:
  Status Route(std::string_view line);
  void Flush(size_t slice);

  std::vector<Slice> slices_;
  std::vector<std::string> pending_;  // routed lines not yet written, by slice
  std::vector<std::string> fields_;  // what the matches read
  std::vector<std::string> values_;  // this line's, by fields_ index
  std::string partial_;              // a line not yet ended
  int64_t unrouted_lines_ = 0;
  Status first_error_;
};

// The string values of `fields` in one journal JSON line, "" where absent
// or not a string (a byte array is no unit name). False when the line is
// not a flat JSON object.
bool ReadJournalJsonFields(std::string_view line, const std::vector<std::string>& fields,
                           std::vector<std::string>& values);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_JOURNAL_SPLITTER_H_
