// One journal line, however it was printed (journalctl short text, syslog,
// dmesg), written as the `journalctl -o json` line our journal slices hold,
// into the slice its identifier belongs to (common/journal_slices.h).
// Shared by the journal-text and kernel-log conversions.
#ifndef GPUF_IMPORTER_JOURNAL_WRITER_H_
#define GPUF_IMPORTER_JOURNAL_WRITER_H_

#include <cstdint>
#include <optional>
#include <string>

#include "importer/journal_text.h"

namespace gpuf {

struct ShortLine {
  int64_t time_ns = 0;
  bool timed = true;  // false: the text printed no time (a line pasted without its prefix)
  std::string hostname;
  std::string identifier;
  std::optional<int64_t> pid;
  std::string message;
};

class SliceWriter {
 public:
  explicit SliceWriter(const TimeHints& hints);

  // `boots_back` > 0: the line is from that many boots before the hints' one,
  // whose id is `earlier_id` when a marker named it. Lines of no slice
  // (sshd, a user's systemd manager) are dropped.
  void Add(const ShortLine& l, bool kernel, std::optional<int64_t> source_monotonic_us, int boots_back = 0,
           const std::string& earlier_id = "");

  JournalSplit& out() { return out_; }

 private:
  std::string EarlierStandIn(int boots_back) const;

  const TimeHints& hints_;
  std::string boot_id_;
  JournalSplit out_;
};

// The unit a PID 1 line is about, from "Started X." / "Starting X..." / ...;
// `fallback` when the line names none we know.
std::string UnitOfSystemdLine(const std::string& message, const std::string& fallback);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_JOURNAL_WRITER_H_
