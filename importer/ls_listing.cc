#include "importer/ls_listing.h"

#include <optional>
#include <sstream>
#include <vector>

#include "common/artifacts.h"
#include "common/parse_int.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "importer/locale_months.h"

namespace gpuf {

namespace {

constexpr std::string_view kHeader =
    "# gpuforensics listing v1: path type mode uid gid major minor size_bytes mtime_ns link_target\n";

bool IsNumber(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) if (c < '0' || c > '9') return false;
  return true;
}

std::vector<std::string_view> Words(std::string_view line) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    size_t start = i;
    while (i < line.size() && line[i] != ' ') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

// Offset in `line` just after the n-th word (0-based).
size_t EndOfWord(std::string_view line, size_t n) {
  size_t i = 0;
  for (size_t w = 0; w <= n; ++w) {
    while (i < line.size() && line[i] == ' ') ++i;
    while (i < line.size() && line[i] != ' ') ++i;
  }
  return i;
}

// "rwxr-sr-t" -> 02755
std::optional<int> ModeBits(std::string_view perms) {
  if (perms.size() < 9) return std::nullopt;
  int mode = 0;
  const char* letters = "rwxrwxrwx";
  for (int i = 0; i < 9; ++i) {
    char c = perms[i];
    bool special = (i == 2 || i == 5 || i == 8) && (c == 's' || c == 'S' || c == 't' || c == 'T');
    if (c != letters[i] && c != '-' && !special) return std::nullopt;
    if (c == letters[i] || c == 's' || c == 't') mode |= 1 << (8 - i);
    if (special) mode |= i == 2 ? 04000 : i == 5 ? 02000 : 01000;
  }
  return mode;
}

// Reads the time words starting at `w`; returns the index of the name word.
std::optional<size_t> TakeTime(const std::vector<std::string_view>& words, size_t w, const TimeHints& hints,
                               int64_t& ns) {
  if (w + 2 >= words.size()) return std::nullopt;
  std::string_view a = words[w];
  int offset = hints.utc_offset_seconds;
  if (a.size() == 10 && a[4] == '-' && a[7] == '-') {  // long-iso or full-time
    std::string_view t = words[w + 1];
    if (t.size() < 5 || t[2] != ':') return std::nullopt;
    auto year = ParseInt64(a.substr(0, 4)), month = ParseInt64(a.substr(5, 2)), day = ParseInt64(a.substr(8, 2));
    auto hour = ParseInt64(t.substr(0, 2)), minute = ParseInt64(t.substr(3, 2));
    auto second = t.size() >= 8 ? ParseInt64(t.substr(6, 2)) : std::optional<int64_t>(0);
    if (!year || !month || !day || !hour || !minute || !second) return std::nullopt;
    auto utc = UnixNsFromUtcCivil(*year, *month, *day, *hour, *minute, *second);
    if (!utc) return std::nullopt;
    ns = *utc;
    if (t.size() > 9 && t[8] == '.') {
      std::string fraction(t.substr(9, 9));
      while (fraction.size() < 9) fraction += '0';
      if (IsNumber(fraction)) ns += Int64Or(fraction, 0);
    }
    size_t name = w + 2;
    std::string_view zone = words[name];
    if (zone.size() == 5 && (zone[0] == '+' || zone[0] == '-') && IsNumber(zone.substr(1))) {
      offset = (Int64Or(zone.substr(1, 2), 0) * 3600 + Int64Or(zone.substr(3, 2), 0) * 60) *
               (zone[0] == '-' ? -1 : 1);
      ++name;
    }
    ns -= int64_t{offset} * 1000000000LL;
    return name;
  }
  int month = MonthOfToken(a);
  std::string_view day = words[w + 1];
  std::string_view t = words[w + 2];
  if (month == 0 || !IsNumber(day) || day.size() > 2) return std::nullopt;
  int day_of_month = static_cast<int>(Int64Or(day, 0));
  if (t.size() == 5 && t[2] == ':' && IsNumber(t.substr(0, 2)) && IsNumber(t.substr(3, 2))) {
    ns = YearlessToUtcNs(month, day_of_month, static_cast<int>(Int64Or(t.substr(0, 2), 0)),
                         static_cast<int>(Int64Or(t.substr(3, 2), 0)), 0, hints);
  } else if (IsNumber(t) && t.size() == 4) {
    auto utc = UnixNsFromUtcCivil(Int64Or(t, 0), month, day_of_month, 0, 0, 0);
    if (!utc) return std::nullopt;
    ns = *utc - int64_t{offset} * 1000000000LL;
  } else {
    return std::nullopt;
  }
  return w + 3;
}

std::string Escape(std::string_view path) {
  std::string out;
  for (char c : path) {
    if (c == '\t') out += "\\t";
    else if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\\') out += "\\\\";
    else out += c;
  }
  return out;
}

int64_t Owner(std::string_view word) { return IsNumber(word) && word.size() < 10 ? Int64Or(word, 0) : 0; }

}  // namespace

std::string ListingNameForPath(std::string_view path) {
  if (path.rfind("/dev/char/", 0) == 0) return std::string(artifact::kDevCharLinks);
  if (path.rfind("/dev/nvidia", 0) == 0) return std::string(artifact::kDevNvidiaNodes);
  if (path.rfind("/var/lib/kubelet/device-plugins", 0) == 0) return std::string(artifact::kKubeletDevicePlugins);
  return "";
}

LsConversion ConvertLsOutput(std::string_view text, const std::string& default_dir, const TimeHints& hints) {
  LsConversion out;
  std::string dir = default_dir;
  ForEachLine(text, [&](int, std::string_view line) {
    if (Trim(line).empty()) return;
    if (line.back() == ':' && line.front() == '/') {  // "DIR:" before that directory's entries
      dir = std::string(line.substr(0, line.size() - 1));
      return;
    }
    std::vector<std::string_view> words = Words(line);
    if (words.size() < 7 || words[0].size() < 10) {
      ++out.lines_skipped;
      return;
    }
    char type = words[0][0] == '-' ? 'f' : words[0][0];
    std::optional<int> mode = ModeBits(words[0].substr(1, 9));
    if (std::string_view("fdlcbsp").find(type) == std::string_view::npos || !mode || !IsNumber(words[1])) {
      ++out.lines_skipped;
      return;
    }
    size_t w = 4;
    std::string major, minor, size = "0";
    if (type == 'c' || type == 'b') {
      // "195,   0" or "195,0"
      std::string_view m = words[w];
      size_t comma = m.find(',');
      if (comma == std::string_view::npos) {
        ++out.lines_skipped;
        return;
      }
      major = std::string(m.substr(0, comma));
      if (comma + 1 < m.size()) {
        minor = std::string(m.substr(comma + 1));
        w += 1;
      } else {
        minor = std::string(words[w + 1]);
        w += 2;
      }
      if (!IsNumber(major) || !IsNumber(minor)) {
        ++out.lines_skipped;
        return;
      }
    } else {
      if (!IsNumber(words[w])) {
        ++out.lines_skipped;
        return;
      }
      size = std::string(words[w]);
      w += 1;
    }
    int64_t mtime_ns = 0;
    auto name_word = TakeTime(words, w, hints, mtime_ns);
    if (!name_word || *name_word >= words.size()) {
      ++out.lines_skipped;
      return;
    }
    std::string_view rest = TrimLeft(line.substr(EndOfWord(line, *name_word - 1)));
    std::string name(rest), target;
    if (type == 'l') {
      size_t arrow = rest.find(" -> ");
      if (arrow != std::string_view::npos) {
        name = std::string(rest.substr(0, arrow));
        target = std::string(rest.substr(arrow + 4));
      }
    }
    if (name.front() != '/') name = dir.empty() ? name : dir + "/" + name;
    std::string logical = ListingNameForPath(name);
    if (logical.empty()) {
      ++out.lines_skipped;
      return;
    }
    char octal[16];
    std::snprintf(octal, sizeof octal, "%04o", *mode);
    std::ostringstream row;
    row << Escape(name) << '\t' << type << '\t' << octal << '\t' << Owner(words[2]) << '\t' << Owner(words[3]) << '\t'
        << major << '\t' << minor << '\t' << size << '\t' << mtime_ns << '\t' << Escape(target) << '\n';
    std::string& listing = out.listings[logical];
    if (listing.empty()) listing = kHeader;
    listing += row.str();
    ++out.rows;
  });
  return out;
}

}  // namespace gpuf
