// `ls -l` output, as a person saves it, turned into our listing format
// (schema/bundle.md, "Listing"):
//   crw-rw-rw- 1 root root 195,   0 Nov 18 11:18 /dev/nvidia0
//   lrwxrwxrwx 1 root root 10 Nov 18 11:18 /dev/char/195:0 -> ../nvidia0
//   srwxr-xr-x 1 root root    0 Nov 18 11:18 kubelet.sock
// Times may also be "Nov 18  2025" (older than six months), long-iso
// "2026-11-18 11:18" or --full-time "2026-11-18 11:18:07.516660000 +0800".
// Relative names are under the "DIR:" header that precedes them, else
// under `default_dir`. Owners other than root and numbers read as 0.
#ifndef GPUF_IMPORTER_LS_LISTING_H_
#define GPUF_IMPORTER_LS_LISTING_H_

#include <map>
#include <string>
#include <string_view>

#include "importer/journal_text.h"

namespace gpuf {

struct LsConversion {
  // logical name ("dev.nvidia_nodes", "dev.char_links", "kubelet.device_plugins")
  // -> listing text with its header line
  std::map<std::string, std::string> listings;
  int rows = 0;
  int lines_skipped = 0;  // "total N", blank, error lines of ls
};

LsConversion ConvertLsOutput(std::string_view text, const std::string& default_dir, const TimeHints& hints);

// Where a listed path belongs; "" when none of ours.
std::string ListingNameForPath(std::string_view path);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_LS_LISTING_H_
