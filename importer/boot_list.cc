#include "importer/boot_list.h"

#include <re2/re2.h>

#include <optional>

#include "common/byte_pattern.h"
#include "common/text_lines.h"
#include "common/time_format.h"

namespace gpuf {

std::map<int, ListedBoot> ParseBootList(std::string_view text, int utc_offset_seconds) {
  static const RE2 row(R"(^\s*(-?\d+)\s+([0-9a-f]{32})\s+\S+ (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d))",
                       BytePatternOptions());
  static const RE2 last_entry(R"(\d\d:\d\d:\d\d.* (\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d))", BytePatternOptions());
  std::map<int, ListedBoot> boots;
  ForEachLine(text, [&](int, std::string_view line) {
    int offset, y, mo, d, h, mi, s;
    std::string id;
    if (!RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), row, &offset, &id, &y, &mo, &d, &h, &mi, &s)) {
      return;
    }
    auto utc = UnixNsFromUtcCivil(y, mo, d, h, mi, s);
    if (!utc) return;
    const int64_t offset_ns = int64_t{utc_offset_seconds} * 1000000000LL;
    ListedBoot boot{id, *utc - offset_ns};
    // The last entry is the last time on the row, after a dash or a blank.
    std::optional<int64_t> last;
    if (RE2::PartialMatch(re2::StringPiece(line.data(), line.size()), last_entry, &y, &mo, &d, &h, &mi, &s)) {
      last = UnixNsFromUtcCivil(y, mo, d, h, mi, s);
    }
    if (last) boot.last_ns = *last - offset_ns;
    boots[offset] = boot;
  });
  return boots;
}

}  // namespace gpuf
