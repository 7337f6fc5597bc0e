#include "formats/listing.h"

#include <charconv>

#include "common/text_lines.h"

namespace gpuf {

namespace {

std::string Unescape(std::string_view field) {
  std::string out;
  for (size_t i = 0; i < field.size(); ++i) {
    if (field[i] != '\\' || i + 1 == field.size()) {
      out += field[i];
      continue;
    }
    char next = field[++i];
    out += next == 't' ? '\t' : next == 'n' ? '\n' : next == 'r' ? '\r' : next;
  }
  return out;
}

bool ToInt(std::string_view text, int64_t& out, int base = 10) {
  if (text.empty()) return false;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), out, base);
  return ec == std::errc() && ptr == text.data() + text.size();
}

}  // namespace

ParsedListing ParseListing(std::string_view text) {
  ParsedListing parsed;
  ForEachLine(text, [&](int number, std::string_view line) {
    if (line.empty() || line[0] == '#') return;
    auto f = SplitTabs(line);
    ListingRow row;
    row.line = number;
    int64_t major = 0, minor = 0;
    bool ok = f.size() == 10 && ToInt(f[2], row.mode, 8) && ToInt(f[3], row.uid) && ToInt(f[4], row.gid) &&
              ToInt(f[7], row.size_bytes) && ToInt(f[8], row.mtime_ns) && f[1].size() == 1;
    if (ok && !f[5].empty()) ok = ToInt(f[5], major) && ToInt(f[6], minor);
    if (!ok) {
      parsed.bad_lines.push_back(number);
      return;
    }
    row.path = Unescape(f[0]);
    row.type = std::string(f[1]);
    if (!f[5].empty()) {
      row.major = major;
      row.minor = minor;
    }
    row.link_target = Unescape(f[9]);
    parsed.rows.push_back(std::move(row));
  });
  return parsed;
}

}  // namespace gpuf
