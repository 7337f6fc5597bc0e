#include "formats/kernel_ring.h"

#include <re2/re2.h>

#include "common/parse_int.h"
#include "common/text_lines.h"

namespace gpuf {

KernelRing ParseKernelRing(std::string_view text) {
  // "<6>" before the stamp is dmesg -r's priority. Latin-1: a message with
  // bytes that are not UTF-8 is still a record of its own.
  static const RE2 stamped(R"(^(?:<\d{1,3}>)?\[ *(\d{1,9})\.(\d{1,9})\] ?(.*)$)", RE2::Latin1);
  KernelRing ring;
  ForEachLine(text, [&](int number, std::string_view raw) {
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
    std::string seconds, fraction, message;
    if (RE2::FullMatch(re2::StringPiece(raw.data(), raw.size()), stamped, &seconds, &fraction, &message)) {
      fraction = fraction.substr(0, 6);
      while (fraction.size() < 6) fraction += '0';
      ring.records.push_back({number, Int64Or(seconds, 0) * 1000000 + Int64Or(fraction, 0), std::move(message)});
    } else if (ring.records.empty()) {
      if (!raw.empty()) ++ring.unread_lines;
    } else if (!raw.empty()) {
      ring.records.back().message += "\n" + std::string(raw);
    }
  });
  return ring;
}

}  // namespace gpuf
