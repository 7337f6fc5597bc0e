// The kernel ring as dmesg prints it, in each of its stamp formats, to
// journal.kernel lines:
//   [ 1843.308145] NVRM: The NVIDIA GPU 0000:b3:00.0              seconds since boot (default)
//   [Fri Aug 30 11:43:09 2024] NVRM: Xid (PCI:0000:cb:00): 13, ... -T / --ctime: local time, no zone
//   kern  :warn  : 2025-01-21T04:41:44,283302+00:00 NVRM: Xid ...  --decode --time-format iso
//   [Feb23 16:24] ... then [  +0.000010] ...                       -H / --reltime: minutes, then deltas
//   6,3964,206764307,-;nvidia-nvswitch2: open (major=510)          /dev/kmsg records (microseconds)
//   <5>[    0.000000] Linux version 4.9.84-1 ...                    -r: the priority before the stamp
//   10.5.0.2: kern: warning: [2024-05-02T10:11:12.123456789Z]: NVRM: ...  talosctl dmesg: node, facility, level, UTC
//   NVRM: Xid (PCI:0000:ca:00): 79, pid='<unknown>', ...           printk.time=0, or stamps cut off
//   [   10.004542] nvidia-device-plugin[4284]: I0207 00:54:34 ...  a console log: the service's line, to its slice
// A notice of several lines indents the lines after the first; a stamped
// line may itself start with a blank where a paste kept one.
#include <re2/re2.h>

#include <optional>
#include <string>

#include "common/byte_pattern.h"
#include "common/journal_slices.h"
#include "common/parse_int.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "importer/journal_text.h"
#include "importer/journal_writer.h"
#include "importer/locale_months.h"

namespace gpuf {

namespace {

struct Stamped {
  std::string message;
  std::optional<int64_t> monotonic_us;  // seconds since boot, when printed
  std::optional<int64_t> wall_ns;       // UTC, when a wall clock was printed
  bool relative = false;                // -H's "[  +0.000010]": since the stamp before
};

int64_t Micros(const std::string& seconds, std::string fraction) {
  fraction = fraction.substr(0, 6);
  while (fraction.size() < 6) fraction += '0';
  return Int64Or(seconds, 0) * 1000000 + Int64Or(fraction, 0);
}

std::optional<int64_t> LocalToUtcNs(int year, int month, int day, int hour, int minute, int second,
                                    const TimeHints& hints) {
  if (year < 1970 || year > 2200 || month < 1 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) {
    return std::nullopt;  // beyond 2200, ns since 1970 overflow int64
  }
  auto utc = UnixNsFromUtcCivil(year, month, day, hour, minute, second);
  if (!utc) return std::nullopt;
  return *utc - int64_t{hints.utc_offset_seconds} * 1000000000LL;
}

// One line in any of the stamp formats of the header; std::nullopt when unstamped.
std::optional<Stamped> ParseStamp(std::string_view raw, const TimeHints& hints) {
  static const RE2 decode(R"(^(?:\w+ *:\w+ *: |<\d{1,3}>))",
                          BytePatternOptions());  // --decode: "kern  :warn  : "; -r: "<5>"
  static const RE2 seconds(R"(^\[ *(\d{1,9})\.(\d+)(?: <[ \d.]+>)?\] ?(.*)$)", BytePatternOptions());
  static const RE2 ctime(R"(^\[\S+ +(\S+) +(\d{1,2}) (\d\d):(\d\d):(\d\d) (\d{4})\] ?(.*)$)", BytePatternOptions());
  static const RE2 iso(R"(^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)[,.](\d+)([+-])(\d\d):?(\d\d) (.*)$)",
                       BytePatternOptions());
  static const RE2 minutes(R"(^\[([^\d\s\]]+) ?(\d{1,2}) (\d\d):(\d\d)\] ?(.*)$)", BytePatternOptions());
  static const RE2 delta(R"(^\[ *\+(\d{1,9})\.(\d+)\] ?(.*)$)", BytePatternOptions());
  static const RE2 kmsg(R"(^\d+,\d+,(\d{1,15}),[^;]*;(.*)$)", BytePatternOptions());
  static const RE2 talos(R"(^(?:\S+: )?[a-z]+: +[a-z]+: \[(\d{4}-\d\d-\d\dT[\d:.]+Z)\]: (.*)$)", BytePatternOptions());
  re2::StringPiece input(raw.data(), raw.size());
  while (!input.empty() && input[0] == ' ') input.remove_prefix(1);
  RE2::Consume(&input, decode);
  std::string line(input.data(), input.size());
  Stamped s;
  std::string a, b, c;
  int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
  if (RE2::FullMatch(line, talos, &a, &s.message)) {
    auto utc = ParseRfc3339(a);
    if (!utc.ok()) return std::nullopt;
    s.wall_ns = *utc;
    return s;
  }
  if (RE2::FullMatch(line, seconds, &a, &b, &s.message)) {
    s.monotonic_us = Micros(a, b);
    return s;
  }
  if (RE2::FullMatch(line, ctime, &a, &day, &hour, &minute, &second, &year, &s.message)) {
    if (auto wall = LocalToUtcNs(year, MonthOfToken(a), day, hour, minute, second, hints)) {
      s.wall_ns = *wall;
      return s;
    }
    return std::nullopt;
  }
  std::string fraction, sign, hh, mm;
  if (RE2::FullMatch(line, iso, &year, &month, &day, &hour, &minute, &second, &fraction, &sign, &hh, &mm,
                     &s.message)) {
    auto utc = UnixNsFromUtcCivil(year, month, day, hour, minute, second);
    if (!utc) return std::nullopt;
    int64_t offset = (Int64Or(hh, 0) * 3600 + Int64Or(mm, 0) * 60) * (sign == "-" ? -1 : 1);
    s.wall_ns = *utc - offset * 1000000000LL + Micros("0", fraction) * 1000;
    return s;
  }
  if (RE2::FullMatch(line, minutes, &a, &day, &hour, &minute, &s.message)) {
    int m = MonthOfToken(a);
    if (m == 0 || day < 1 || day > 31 || hour > 23 || minute > 59) return std::nullopt;
    s.wall_ns = YearlessToUtcNs(m, day, hour, minute, 0, hints);
    return s;
  }
  if (RE2::FullMatch(line, delta, &a, &b, &s.message)) {
    s.monotonic_us = Micros(a, b);
    s.relative = true;
    return s;
  }
  if (RE2::FullMatch(line, kmsg, &a, &s.message)) {
    s.monotonic_us = Int64Or(a, 0);
    return s;
  }
  return std::nullopt;
}

// A service's line as the console shows it, behind the kernel's stamp
// ("[   10.004542] nvidia-device-plugin[4284]: I0207 ..."): journald
// forwards it there. It belongs to the service's slice, not the kernel's.
// Only services with a slice count: "python3[811]: segfault at ..." is the
// kernel's own line about a process.
std::optional<ShortLine> ConsoleServiceLine(std::string_view message) {
  static const RE2 service(R"(^([A-Za-z][\w.@-]*)\[(\d{1,9})\]: (.*)$)", BytePatternOptions());
  std::string identifier, rest;
  int64_t pid = 0;
  if (!RE2::FullMatch(message, service, &identifier, &pid, &rest)) return std::nullopt;
  if (identifier == "kernel" || (identifier != "systemd" && JournalSliceForIdentifier(identifier) == nullptr)) {
    return std::nullopt;
  }
  ShortLine l;
  l.identifier = std::move(identifier);
  l.pid = pid;
  l.message = std::move(rest);
  return l;
}

// A line printed without a time stamp (printk.time=0, or a capture that cut
// them) still reads as a kernel message when it starts with its subsystem:
// "NVRM: ...", "nvidia-nvlink: ...".
bool LooksLikeKernelMessage(std::string_view line) {
  size_t colon = line.find(": ");
  return colon != std::string_view::npos && colon > 0 && line.substr(0, colon).find(' ') == std::string_view::npos;
}

}  // namespace

JournalSplit ConvertDmesgText(std::string_view text, const TimeHints& hints) {
  SliceWriter writer(hints);
  ShortLine pending;
  std::optional<int64_t> pending_monotonic_us;
  bool has_pending = false;
  std::optional<int64_t> last_wall_ns;  // -H: deltas count from the last printed minute
  bool pending_kernel = true;
  auto flush = [&] {
    if (has_pending) writer.Add(pending, pending_kernel, pending_monotonic_us);
    has_pending = false;
  };
  auto start = [&](std::string message, int64_t time_ns, std::optional<int64_t> monotonic_us) {
    flush();
    auto service = ConsoleServiceLine(message);
    pending_kernel = !service;
    pending = service ? std::move(*service) : ShortLine();
    if (pending_kernel) {
      pending.identifier = "kernel";
      pending.message = std::move(message);
    }
    pending.time_ns = time_ns;
    pending.timed = pending_kernel || time_ns != 0;  // a service line before the boot's start is known: untimed
    pending_monotonic_us = monotonic_us;
    has_pending = true;
  };
  ForEachLine(text, [&](int, std::string_view line) {
    if (Trim(line).empty()) return;
    ++writer.out().lines_read;
    if (auto s = ParseStamp(line, hints)) {
      if (s->relative) {
        if (!last_wall_ns) {
          flush();
          ++writer.out().lines_skipped;  // a delta with no minute before it dates nothing
          return;
        }
        *last_wall_ns += *s->monotonic_us * 1000;
        start(std::move(s->message), *last_wall_ns, std::nullopt);
      } else if (s->wall_ns) {
        last_wall_ns = s->wall_ns;
        start(std::move(s->message), *s->wall_ns, std::nullopt);
      } else {
        start(std::move(s->message), hints.boot_start_ns > 0 ? hints.boot_start_ns + *s->monotonic_us * 1000 : 0,
              s->monotonic_us);
      }
      return;
    }
    // A message of several lines: dmesg indents the ones after the first.
    if (has_pending && (line.front() == ' ' || line.front() == '\t')) {
      pending.message += "\n" + std::string(Trim(line));
      return;
    }
    if (LooksLikeKernelMessage(line)) {
      start(std::string(line), 0, std::nullopt);
      return;
    }
    flush();
    ++writer.out().lines_skipped;
  });
  flush();
  return std::move(writer.out());
}

}  // namespace gpuf
