// Each boot's latest journal entry that carries both clocks, gathered while
// the slices are stored. The timeline places a boot at that entry's realtime
// minus its monotonic stamp (after any clock step at boot); finding the
// entry afterwards took a scan of every stored line.
#ifndef GPUF_ANALYZER_JOURNAL_JOURNAL_BOOT_ENDS_H_
#define GPUF_ANALYZER_JOURNAL_JOURNAL_BOOT_ENDS_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace gpuf {

struct JournalBootEnd {
  std::optional<int64_t> boot_offset;  // of the slice the entry came from
  int64_t realtime_us = 0;
  int64_t monotonic_us = 0;
};

class JournalBootEnds {
 public:
  // One stored entry. Entries without a boot id or either clock are ignored.
  void Note(const std::string& boot_id, std::optional<int64_t> boot_offset, std::optional<int64_t> realtime_us,
            std::optional<int64_t> monotonic_us);

  // By boot id. Of entries with the same latest realtime stamp, one whose
  // slice names its boot offset.
  const std::map<std::string, JournalBootEnd>& ends() const { return ends_; }

 private:
  std::map<std::string, JournalBootEnd> ends_;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_JOURNAL_JOURNAL_BOOT_ENDS_H_
