#include "importer/journal_text.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <nlohmann/json.hpp>
#include <optional>
#include <vector>

#include "common/artifacts.h"
#include "common/byte_pattern.h"
#include "common/journal_slices.h"
#include "common/parse_int.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "formats/klog.h"
#include "importer/journal_writer.h"
#include "importer/locale_months.h"

namespace gpuf {

namespace {

// Unit Descriptions as the packages ship them.
struct DescriptionRow {
  std::string_view description;
  std::string_view unit;
};

constexpr DescriptionRow kDescriptions[] = {
    {"NVIDIA Persistence Daemon", "nvidia-persistenced.service"},
    {"NVIDIA fabric manager service", "nvidia-fabricmanager.service"},
    {"FabricManager service", "nvidia-fabricmanager.service"},
    {"kubelet: The Kubernetes Node Agent", "kubelet.service"},
    {"Kubernetes Kubelet Server", "kubelet.service"},
    {"kubelet", "kubelet.service"},
    {"containerd container runtime", "containerd.service"},
    {"NVIDIA Fabric Manager Daemon", "nvidia-fabricmanager.service"},
};

bool Digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) if (c < '0' || c > '9') return false;
  return true;
}

int ToInt(std::string_view s) {
  int v = 0;
  for (char c : s) v = v * 10 + (c - '0');
  return v;
}

// ".625123" -> nanoseconds; consumes the fraction from `rest`.
int64_t TakeFraction(std::string_view& rest) {
  if (rest.empty() || rest.front() != '.') return 0;
  size_t n = 1;
  while (n < rest.size() && rest[n] >= '0' && rest[n] <= '9') ++n;
  std::string digits(rest.substr(1, n - 1));
  rest.remove_prefix(n);
  digits = digits.substr(0, 9);
  while (digits.size() < 9) digits += '0';
  return Int64Or(digits, 0);
}

// The time at the start of a short or short-iso line, in UTC ns; `rest`
// is what follows it.
std::optional<int64_t> TakeTime(std::string_view line, const TimeHints& hints, std::string_view& rest) {
  if (line.size() >= 19 && line[4] == '-' && line[7] == '-' && line[10] == 'T' && Digits(line.substr(0, 4))) {
    std::string_view d = line;
    if (!Digits(d.substr(5, 2)) || !Digits(d.substr(8, 2)) || !Digits(d.substr(11, 2)) || !Digits(d.substr(14, 2)) ||
        !Digits(d.substr(17, 2))) {
      return std::nullopt;
    }
    auto utc = UnixNsFromUtcCivil(ToInt(d.substr(0, 4)), ToInt(d.substr(5, 2)), ToInt(d.substr(8, 2)),
                                  ToInt(d.substr(11, 2)), ToInt(d.substr(14, 2)), ToInt(d.substr(17, 2)));
    if (!utc) return std::nullopt;
    int64_t ns = *utc;
    rest = line.substr(19);
    ns += TakeFraction(rest);
    if (!rest.empty() && rest.front() == 'Z') {
      rest.remove_prefix(1);
    } else if (rest.size() >= 5 && (rest[0] == '+' || rest[0] == '-')) {
      std::string_view z = rest.substr(1, rest[3] == ':' ? 5 : 4);
      std::string hhmm = z.size() == 5 ? std::string(z.substr(0, 2)) + std::string(z.substr(3, 2)) : std::string(z);
      if (!Digits(hhmm)) return std::nullopt;
      int offset = (ToInt(hhmm.substr(0, 2)) * 3600 + ToInt(hhmm.substr(2, 2)) * 60) * (rest[0] == '-' ? -1 : 1);
      ns -= int64_t{offset} * 1000000000LL;
      rest.remove_prefix(1 + z.size());
    } else {
      ns -= int64_t{hints.utc_offset_seconds} * 1000000000LL;
    }
    return ns;
  }
  // "Nov 18 11:18:16", or the month as another locale prints it ("11月 15 14:15:47", "Mai 22 08:07:35").
  static const RE2 yearless(R"(^ *(\S+(?: \S+)*?) +(\d{1,2}) (\d\d):(\d\d):(\d\d))", BytePatternOptions());
  re2::StringPiece input(line.data(), line.size());
  std::string token;
  int day = 0, hour = 0, minute = 0, second = 0;
  if (!RE2::Consume(&input, yearless, &token, &day, &hour, &minute, &second)) return std::nullopt;
  int month = MonthOfToken(token);
  if (month == 0 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  int64_t ns = YearlessToUtcNs(month, day, hour, minute, second, hints);
  rest = std::string_view(input.data(), input.size());
  return ns + TakeFraction(rest);
}

// syslog forwarders put the priority before a klog header
// ("info I0419 03:02:12.910991 ..."); the header is what parsers anchor on.
void DropPriorityWord(std::string& message) {
  static const RE2 word(R"(^(?:emerg|alert|crit|err|warning|notice|info|debug) [IWEF]\d{4} )", BytePatternOptions());
  if (RE2::PartialMatch(message, word)) message.erase(0, message.find(' ') + 1);
}

// "ident[pid]: message", "ident: message" or "ident:" (an empty message).
std::optional<ShortLine> ParseTaggedMessage(std::string_view rest) {
  size_t colon = rest.find(": ");
  if (colon == std::string_view::npos) {
    if (rest.empty() || rest.back() != ':') return std::nullopt;
    colon = rest.size() - 1;
  }
  std::string_view tag = rest.substr(0, colon);
  ShortLine out;
  size_t bracket = tag.find('[');
  if (bracket != std::string_view::npos && tag.back() == ']') {
    std::string_view pid = tag.substr(bracket + 1, tag.size() - bracket - 2);
    if (!Digits(pid) || pid.size() > 10) return std::nullopt;
    out.pid = Int64Or(pid, 0);
    tag = tag.substr(0, bracket);
  }
  if (tag.empty() || tag.find(' ') != std::string_view::npos) return std::nullopt;
  out.identifier = std::string(tag);
  out.message = std::string(colon + 2 <= rest.size() ? rest.substr(colon + 2) : std::string_view());
  DropPriorityWord(out.message);
  return out;
}

// " host ident[pid]: message" after the time.
std::optional<ShortLine> ParseShortLine(std::string_view line, const TimeHints& hints) {
  std::string_view rest;
  auto time = TakeTime(line, hints, rest);
  if (!time || rest.empty() || rest.front() != ' ') return std::nullopt;
  rest.remove_prefix(1);
  size_t host_end = rest.find(' ');
  if (host_end == std::string_view::npos || host_end == 0) return std::nullopt;
  // journalctl leaves the host out when the entry has no _HOSTNAME; no host name ends in ':'.
  std::string hostname;
  if (rest[host_end - 1] != ':') {
    hostname = std::string(rest.substr(0, host_end));
    rest.remove_prefix(host_end + 1);
  }
  auto tagged = ParseTaggedMessage(rest);
  if (!tagged) return std::nullopt;
  tagged->time_ns = *time;
  tagged->hostname = std::move(hostname);
  return tagged;
}

// "kubelet[1311]: ..." or "kernel: NVRM: ...": a journal line pasted without
// its date and host. Only identifiers of our slices count: "Note: text" is
// not a journal line.
std::optional<ShortLine> ParseBareLine(std::string_view line) {
  auto tagged = ParseTaggedMessage(line);
  if (!tagged) return std::nullopt;
  // "nvidia-docker.service: Main process exited, ...": PID 1's message about a unit.
  static const RE2 unit(R"([\w@.-]+\.(?:service|socket|scope|mount|timer))", BytePatternOptions());
  if (RE2::FullMatch(tagged->identifier, unit)) {
    tagged->message = std::string(line);
    tagged->identifier = "systemd";
    tagged->pid = 1;
  }
  if (tagged->identifier != "kernel" && tagged->identifier != "systemd" &&
      JournalSliceForIdentifier(tagged->identifier) == nullptr) {
    return std::nullopt;
  }
  tagged->timed = false;
  return tagged;
}

// kern.log keeps the kernel's own stamp inside the message
// ("kernel: [  219.470994] NVRM: Xid ..."): seconds since boot.
std::optional<int64_t> TakeKernelStamp(std::string& message) {
  static const RE2 stamp(R"(^\[ *(\d{1,9})\.(\d{1,9})\] )", BytePatternOptions());
  std::string seconds, fraction;
  if (!RE2::PartialMatch(message, stamp, &seconds, &fraction)) return std::nullopt;
  fraction = fraction.substr(0, 6);
  while (fraction.size() < 6) fraction += '0';
  message.erase(0, message.find("] ") + 2);
  return Int64Or(seconds, 0) * 1000000 + Int64Or(fraction, 0);
}

}  // namespace

int64_t YearlessToUtcNs(int month, int day, int hour, int minute, int second, const TimeHints& hints) {
  const int64_t offset_ns = int64_t{hints.utc_offset_seconds} * 1000000000LL;
  if (hints.not_after_ns <= 0) return UnixNsFromUtcCivil(hints.year, month, day, hour, minute, second).value_or(0) - offset_ns;
  std::time_t seconds = static_cast<std::time_t>((hints.not_after_ns + offset_ns) / 1000000000LL);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  int64_t ns = UnixNsFromUtcCivil(tm.tm_year + 1900, month, day, hour, minute, second).value_or(0) - offset_ns;
  // A December line read in January belongs to the year before.
  if (ns > hints.not_after_ns + 86400LL * 1000000000LL) ns = UnixNsFromUtcCivil(tm.tm_year + 1899, month, day, hour, minute, second).value_or(0) - offset_ns;
  return ns;
}

std::string UnitForDescription(std::string_view description) {
  for (const auto& row : kDescriptions) {
    if (row.description == description) return std::string(row.unit);
  }
  return "";
}

JournalSplit ConvertJournalText(std::string_view text, const TimeHints& hints) {
  // "-- Boot 9041bba558bd41d70d8d3d4dd1461f95 --" (systemd 255+) or "-- Reboot --"
  // between boots: the text after the last one is the hints' boot.
  static const RE2 marker(R"(^-- (?:Boot ([0-9a-f]{32}) |Reboot )--$)", BytePatternOptions());
  std::vector<std::string> marker_ids;  // in text order
  ForEachLine(text, [&](int, std::string_view line) {
    std::string id;
    if (RE2::FullMatch(line, marker, &id)) marker_ids.push_back(id);
  });
  int markers_seen = 0;
  SliceWriter writer(hints);
  ShortLine pending;
  bool has_pending = false;
  auto flush = [&] {
    if (!has_pending) return;
    has_pending = false;
    int back = static_cast<int>(marker_ids.size()) - markers_seen;
    std::string id;
    // The marker before the line names its boot.
    if (back > 0 && markers_seen > 0) id = marker_ids[markers_seen - 1];
    if (marker_ids.empty() && hints.boot_start_ns > 0 && pending.time_ns < hints.boot_start_ns - 1000000000LL) {
      back = 1;  // older than the boot's start: an earlier boot
    }
    const bool kernel = pending.identifier == "kernel";
    std::optional<int64_t> monotonic_us = kernel ? TakeKernelStamp(pending.message) : std::nullopt;
    writer.Add(pending, kernel, monotonic_us, back, id);
  };
  ForEachLine(text, [&](int, std::string_view line) {
    if (line.empty()) return;
    ++writer.out().lines_read;
    if (RE2::FullMatch(line, marker)) {
      flush();
      ++markers_seen;
      ++writer.out().lines_skipped;
      return;
    }
    if (auto parsed = ParseShortLine(line, hints)) {
      flush();
      if (writer.out().hostname.empty()) writer.out().hostname = parsed->hostname;
      pending = std::move(*parsed);
      has_pending = true;
      return;
    }
    if (has_pending && (line.front() == ' ' || line.front() == '\t') && line.rfind(" -- ", 0) != 0) {
      pending.message += "\n" + std::string(Trim(line));
      return;
    }
    if (auto bare = ParseBareLine(line)) {
      flush();
      pending = std::move(*bare);
      has_pending = true;
      return;
    }
    ++writer.out().lines_skipped;
  });
  flush();
  return std::move(writer.out());
}

bool IsJournalLine(std::string_view line) {
  static const TimeHints probe;
  return ParseShortLine(line, probe).has_value() || ParseBareLine(line).has_value();
}

JournalSplit ConvertKlogAsJournal(std::string_view text, const std::string& identifier, const TimeHints& hints) {
  SliceWriter writer(hints);
  ShortLine pending;
  bool has_pending = false;
  auto flush = [&] {
    if (has_pending) writer.Add(pending, false, std::nullopt);
    has_pending = false;
  };
  ForEachLine(text, [&](int, std::string_view raw) {
    if (Trim(raw).empty()) return;
    ++writer.out().lines_read;
    std::string_view line = StripGlogFilePrefix(raw);
    if (auto klog = ParseKlogHeader(line)) {
      flush();
      pending = ShortLine();
      pending.identifier = identifier;
      pending.time_ns = YearlessToUtcNs(klog->month, klog->day, klog->hour, klog->minute, klog->second, hints) +
                        int64_t{klog->microsecond} * 1000;
      pending.pid = klog->pid;
      pending.message = std::string(line);
      has_pending = true;
      return;
    }
    if (has_pending && (raw.front() == ' ' || raw.front() == '\t')) {
      pending.message += "\n" + std::string(Trim(raw));
      return;
    }
    flush();
    ++writer.out().lines_skipped;
  });
  flush();
  return std::move(writer.out());
}

std::string_view StripGlogFilePrefix(std::string_view line) {
  // "kubelet.pc-zjdbai51.root.log.INFO.20210709-193402.2247:I0716 14:19:19.114528 ..."
  static const RE2 prefix(R"(^[^ :]+\.log\.(?:INFO|WARNING|ERROR|FATAL)\.\d{8}-\d{6}\.\d+:)", BytePatternOptions());
  re2::StringPiece input(line.data(), line.size());
  if (!RE2::Consume(&input, prefix)) return line;
  return std::string_view(input.data(), input.size());
}


}  // namespace gpuf
