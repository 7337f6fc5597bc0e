// `journalctl --list-boots` as saved by a sos report: each boot's offset, id
// and first and last entry, in the old form and the table form of systemd 255+:
//   -1 9041bba558bd41d70d8d3d4dd1461f95 Mon 2026-11-02 09:12:03 CST—Wed 2026-11-18 11:17:30 CST
// The weekday is in the host's locale ("Di" in German); times are the host's
// local time, so the caller gives its UTC offset.
#ifndef GPUF_IMPORTER_BOOT_LIST_H_
#define GPUF_IMPORTER_BOOT_LIST_H_

#include <cstdint>
#include <map>
#include <string>
#include <string_view>

namespace gpuf {

struct ListedBoot {
  std::string id;        // 32 hex digits
  int64_t start_ns = 0;  // first entry, UTC
  int64_t last_ns = 0;   // last entry, UTC; 0 where the row does not show it
};

// By offset (0 the current boot, -1 the one before, ...); rows that do not
// read are left out.
std::map<int, ListedBoot> ParseBootList(std::string_view text, int utc_offset_seconds);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_BOOT_LIST_H_
