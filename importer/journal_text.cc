#include "importer/journal_text.h"

#include <re2/re2.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>
#include <nlohmann/json.hpp>
#include <optional>

#include "common/artifacts.h"
#include "common/journal_slices.h"
#include "common/parse_int.h"
#include "common/text_lines.h"
#include "common/time_format.h"

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

constexpr std::string_view kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

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
  if (line.size() < 15 || line[3] != ' ' || line[6] != ' ' || line[9] != ':' || line[12] != ':') return std::nullopt;
  int month = 0;
  for (int i = 0; i < 12; ++i) if (line.substr(0, 3) == kMonths[i]) month = i + 1;
  std::string_view day = Trim(line.substr(4, 2));
  if (month == 0 || !Digits(day) || !Digits(line.substr(7, 2)) || !Digits(line.substr(10, 2)) ||
      !Digits(line.substr(13, 2))) {
    return std::nullopt;
  }
  int64_t ns = YearlessToUtcNs(month, ToInt(day), ToInt(line.substr(7, 2)), ToInt(line.substr(10, 2)),
                               ToInt(line.substr(13, 2)), hints);
  rest = line.substr(15);
  return ns + TakeFraction(rest);
}

struct ShortLine {
  int64_t time_ns = 0;
  std::string hostname;
  std::string identifier;
  std::optional<int64_t> pid;
  std::string message;
};

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
  size_t colon = rest.find(": ");
  if (colon == std::string_view::npos) {
    if (rest.empty() || rest.back() != ':') return std::nullopt;
    colon = rest.size() - 1;
  }
  std::string_view tag = rest.substr(0, colon);
  ShortLine out;
  out.time_ns = *time;
  out.hostname = std::move(hostname);
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
  return out;
}

std::string StandInBootId(const TimeHints& hints) {
  if (!hints.boot_id.empty()) return hints.boot_id;
  char id[40];
  std::snprintf(id, sizeof id, "%032llx", static_cast<unsigned long long>(hints.boot_start_ns));
  return id;
}

// The unit a PID 1 line is about, from "Started X." / "Starting X..." / ...
std::string UnitOfSystemdLine(const std::string& message, const TimeHints& hints) {
  for (std::string_view verb : {"Started ", "Starting ", "Stopped ", "Stopping ", "Failed to start "}) {
    if (message.rfind(verb, 0) != 0) continue;
    std::string_view what = std::string_view(message).substr(verb.size());
    what = TrimRight(what, ".");
    std::string unit = UnitForDescription(what);
    if (!unit.empty()) return unit;
    if (what.size() > 8 && what.substr(what.size() - 8) == ".service") return std::string(what);
    return hints.unit;
  }
  return "";
}

class SliceWriter {
 public:
  explicit SliceWriter(const TimeHints& hints) : hints_(hints), boot_id_(StandInBootId(hints)) {}

  // `boots_back` > 0: the line is from that many boots before the hints' one,
  // whose id is `earlier_id` when a marker named it.
  void Add(const ShortLine& l, bool kernel, std::optional<int64_t> source_monotonic_us, int boots_back = 0,
           const std::string& earlier_id = "") {
    std::string slice;
    std::string unit;
    // A user's systemd manager logs as systemd too, with its own PID; its
    // "Reloading." is not the system's daemon-reload.
    const bool user_manager = l.identifier == "systemd" && l.pid && *l.pid != 1;
    if (kernel) {
      slice = artifact::kJournalKernel;
    } else if (user_manager) {
      return;
    } else if (l.pid == 1 || l.identifier == "systemd") {
      slice = artifact::kJournalSystemd;
      unit = UnitOfSystemdLine(l.message, hints_);
    } else {
      if (const JournalSliceRow* row = JournalSliceForIdentifier(l.identifier)) {
        slice = row->name;
        if (row->identifier == l.identifier) unit = row->unit;  // an alias's own unit is not known
      }
    }
    if (slice.empty()) return;
    nlohmann::json j;
    int64_t realtime_us = l.time_ns / 1000;
    if (l.time_ns != 0 || !kernel) j["__REALTIME_TIMESTAMP"] = std::to_string(realtime_us);
    if (source_monotonic_us) {
      j["__MONOTONIC_TIMESTAMP"] = std::to_string(*source_monotonic_us);
      j["_SOURCE_MONOTONIC_TIMESTAMP"] = std::to_string(*source_monotonic_us);
    } else if (boots_back == 0 && hints_.boot_start_ns > 0 && l.time_ns >= hints_.boot_start_ns) {
      j["__MONOTONIC_TIMESTAMP"] = std::to_string((l.time_ns - hints_.boot_start_ns) / 1000);
    }
    j["_BOOT_ID"] = boots_back == 0 ? boot_id_ : !earlier_id.empty() ? earlier_id : EarlierStandIn(boots_back);
    j["SYSLOG_IDENTIFIER"] = l.identifier;
    if (l.pid) j["_PID"] = std::to_string(*l.pid);
    j["_TRANSPORT"] = kernel ? "kernel" : "journal";
    if (!unit.empty()) j[l.pid == 1 ? "UNIT" : "_SYSTEMD_UNIT"] = unit;
    j["MESSAGE"] = l.message;
    std::string& out = boots_back == 0 ? out_.slices[slice] : out_.earlier[-boots_back][slice];
    out += j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
  }

  std::string EarlierStandIn(int boots_back) const {
    char id[40];
    std::snprintf(id, sizeof id, "%032llx",
                  static_cast<unsigned long long>(hints_.boot_start_ns) ^ static_cast<unsigned long long>(boots_back));
    return id;
  }

  JournalSplit& out() { return out_; }

 private:
  const TimeHints& hints_;
  std::string boot_id_;
  JournalSplit out_;
};

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
  static const RE2 marker(R"(^-- (?:Boot ([0-9a-f]{32}) |Reboot )--$)");
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
    writer.Add(pending, pending.identifier == "kernel", std::nullopt, back, id);
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
    ++writer.out().lines_skipped;
  });
  flush();
  return std::move(writer.out());
}

namespace {

// "[   17.288000] msg": seconds since boot.
std::optional<int64_t> DmesgMonotonicUs(std::string_view stamp) {
  stamp = Trim(stamp);
  size_t dot = stamp.find('.');
  // At most 9 digits of seconds (31 years up): more would overflow as ns.
  if (dot == std::string_view::npos || dot > 9 || !Digits(stamp.substr(0, dot)) || !Digits(stamp.substr(dot + 1))) {
    return std::nullopt;
  }
  std::string micro(stamp.substr(dot + 1, 6));
  while (micro.size() < 6) micro += '0';
  return Int64Or(stamp.substr(0, dot), 0) * 1000000 + Int64Or(micro, 0);
}

// "[Mon May 25 10:11:12 2026] msg" (dmesg -T): the host's local time, in UTC ns.
std::optional<int64_t> DmesgWallClockNs(std::string_view stamp, const TimeHints& hints) {
  static const RE2 human(R"(\w{3} (\w{3}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4}))");
  std::string month;
  int day = 0, hour = 0, minute = 0, second = 0, year = 0;
  if (!RE2::FullMatch(re2::StringPiece(stamp.data(), stamp.size()), human, &month, &day, &hour, &minute, &second,
                      &year)) {
    return std::nullopt;
  }
  auto m = std::find(std::begin(kMonths), std::end(kMonths), month);
  if (m == std::end(kMonths) || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 60) return std::nullopt;
  if (year < 1970 || year > 2200) return std::nullopt;  // beyond that, ns since 1970 overflow int64
  std::tm tm{};
  tm.tm_year = year - 1900;
  tm.tm_mon = static_cast<int>(m - std::begin(kMonths));
  tm.tm_mday = day;
  tm.tm_hour = hour;
  tm.tm_min = minute;
  tm.tm_sec = second;
  return (static_cast<int64_t>(timegm(&tm)) - hints.utc_offset_seconds) * 1000000000LL;
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
  auto flush = [&] {
    if (has_pending) writer.Add(pending, true, pending_monotonic_us);
    has_pending = false;
  };
  auto start = [&](std::string message, int64_t time_ns, std::optional<int64_t> monotonic_us) {
    flush();
    pending = ShortLine();
    pending.identifier = "kernel";
    pending.message = std::move(message);
    pending.time_ns = time_ns;
    pending_monotonic_us = monotonic_us;
    has_pending = true;
  };
  ForEachLine(text, [&](int, std::string_view line) {
    if (line.empty()) return;
    ++writer.out().lines_read;
    // A message of several lines: dmesg indents the ones after the first.
    if (has_pending && (line.front() == ' ' || line.front() == '\t')) {
      pending.message += "\n" + std::string(Trim(line));
      return;
    }
    size_t close = line.find("] ");
    if (line.front() == '[' && close != std::string_view::npos) {
      std::string_view stamp = line.substr(1, close - 1);
      std::string message(line.substr(close + 2));
      if (auto monotonic_us = DmesgMonotonicUs(stamp)) {
        start(std::move(message), hints.boot_start_ns > 0 ? hints.boot_start_ns + *monotonic_us * 1000 : 0,
              monotonic_us);
        return;
      }
      if (auto wall_ns = DmesgWallClockNs(stamp, hints)) {
        start(std::move(message), *wall_ns, std::nullopt);
        return;
      }
    } else if (LooksLikeKernelMessage(line)) {
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
