#include "analyzer/journal/journal_boot_ends.h"

namespace gpuf {

void JournalBootEnds::Note(const std::string& boot_id, std::optional<int64_t> boot_offset,
                           std::optional<int64_t> realtime_us, std::optional<int64_t> monotonic_us) {
  if (boot_id.empty() || !realtime_us || !monotonic_us) return;
  auto [it, inserted] = ends_.try_emplace(boot_id, JournalBootEnd{boot_offset, *realtime_us, *monotonic_us});
  if (inserted) return;
  JournalBootEnd& end = it->second;
  bool later = *realtime_us > end.realtime_us;
  bool same_but_placed = *realtime_us == end.realtime_us && !end.boot_offset && boot_offset;
  if (later || same_but_placed) end = {boot_offset, *realtime_us, *monotonic_us};
}

}  // namespace gpuf
