// nvidia-bug-report.log: sections separated by a line of underscores; a
// file's section starts "*** <path>" (and "*** ls: <ls -l of it>"), a
// command's starts with its command line:
//   ____________________________________________
//
//   *** /proc/driver/nvidia/version
//   *** ls: -r--r--r-- 1 root root 0 2026-11-18 11:30:00.000000000 +0800 /proc/driver/nvidia/version
//   NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.161.07  Sat Feb 17 22:55:48 UTC 2024
#include <fnmatch.h>
#include <re2/re2.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "common/artifacts.h"
#include "common/byte_pattern.h"
#include "common/parse_int.h"
#include "common/text_lines.h"
#include "importer/adapters.h"
#include "importer/artifact_map.h"
#include "importer/conversions.h"

namespace gpuf {

namespace {

struct Section {
  std::string header;
  std::string body;
  std::string cut;  // what the bounds below left out, "" when nothing
};

// A report of 256 MiB (the input limit) is mostly one repeated log; its
// conversions multiply what they read. A section keeps its last 16 MiB (the
// newest lines) and all sections together 96 MiB, so memory stays bounded
// by what a real report holds (a few MiB) times a small factor.
constexpr size_t kMaxSectionBytes = 16 << 20;
constexpr size_t kMaxSectionsBytes = 96 << 20;

// Keeps the last `keep` bytes of `body`, from a line start.
void KeepTail(std::string& body, size_t keep) {
  if (body.size() <= keep) return;
  size_t from = body.find('\n', body.size() - keep);
  body.erase(0, from == std::string::npos ? body.size() - keep : from + 1);
}

bool IsSeparator(std::string_view line) {
  line = TrimRight(line);
  return line.size() >= 20 && line.find_first_not_of('_') == std::string_view::npos;
}

std::vector<Section> SplitSections(std::string_view log) {
  std::vector<Section> sections(1);
  bool header_due = true;
  size_t kept = 0;  // of the sections before the last
  auto close = [&](Section& s) {
    if (s.body.size() > kMaxSectionBytes) {
      KeepTail(s.body, kMaxSectionBytes);
      s.cut = "cut to its last 16 MiB";
    }
    if (kept + s.body.size() > kMaxSectionsBytes) {
      s.body.clear();
      s.cut = "dropped: the report's sections passed 96 MiB";
    }
    kept += s.body.size();
  };
  ForEachLine(log, [&](int, std::string_view line) {
    if (IsSeparator(line)) {
      close(sections.back());
      sections.emplace_back();
      header_due = true;
      return;
    }
    Section& s = sections.back();
    if (header_due) {
      if (Trim(line).empty()) return;
      s.header = std::string(TrimRight(line));
      header_due = false;
      return;
    }
    if (s.body.empty() && line.rfind("*** ls: ", 0) == 0) return;
    if (s.body.empty() && Trim(line).empty()) return;
    s.body += std::string(line) + "\n";
    if (s.body.size() > 2 * kMaxSectionBytes) {  // bounded while it grows
      KeepTail(s.body, kMaxSectionBytes);
      s.cut = "cut to its last 16 MiB";
    }
  });
  close(sections.back());
  for (auto& s : sections) {
    while (s.body.size() >= 2 && s.body.substr(s.body.size() - 2) == "\n\n") s.body.pop_back();
  }
  return sections;
}

// "*** /proc/driver/nvidia/./gpus/0000:18:00.0/information" -> "/proc/driver/nvidia/gpus/0000:18:00.0/information"
std::string HostPathOf(std::string_view header) {
  std::string path(header.rfind("*** ", 0) == 0 ? header.substr(4) : header);
  for (size_t at = path.find("/./"); at != std::string::npos; at = path.find("/./")) path.erase(at, 2);
  return path;
}

// message -> one field of each JSON line of a slice
std::map<std::string, int64_t> FieldByMessage(const std::string& json_lines, const char* field) {
  std::map<std::string, int64_t> out;
  ForEachLine(json_lines, [&](int, std::string_view line) {
    auto j = nlohmann::json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains(field) || !j[field].is_string() || !j.contains("MESSAGE") ||
        !j["MESSAGE"].is_string()) {
      return;
    }
    auto value = ParseInt64(j[field].get<std::string>());
    if (value) out.emplace(j["MESSAGE"].get<std::string>(), *value);
  });
  return out;
}

// The boot's start, from a kernel line that both the journal text (wall
// clock) and dmesg (seconds since boot) of the report hold; 0 when none.
int64_t BootStartFromKernelLines(const std::vector<Section>& sections, const TimeHints& hints) {
  std::string journal, dmesg;
  for (const auto& s : sections) {
    if (s.header.rfind("journalctl -b -0", 0) == 0) journal += s.body;
    if (s.header.find("dmesg") != std::string::npos) dmesg += s.body;
  }
  if (journal.empty() || dmesg.empty()) return 0;
  auto wall = FieldByMessage(ConvertJournalText(journal, hints).slices[std::string(artifact::kJournalKernel)], "__REALTIME_TIMESTAMP");
  auto since_boot = FieldByMessage(ConvertDmesgText(dmesg, TimeHints{}).slices[std::string(artifact::kJournalKernel)],
                                   "__MONOTONIC_TIMESTAMP");
  for (const auto& [message, realtime_us] : wall) {
    auto it = since_boot.find(message);
    if (it != since_boot.end()) return (realtime_us - it->second) * 1000;
  }
  return 0;
}

}  // namespace

ImportPlan ImportBugReport(std::string_view log, const std::string& source_name, int64_t fallback_ns) {
  ImportPlan plan;
  plan.kind = "nvidia-bug-report";
  plan.source_name = source_name;
  plan.captured_at_ns = fallback_ns;
  std::vector<Section> sections = SplitSections(log);
  bool dated = false;  // by its Date: line, else the file's mtime
  // The opening section: "Date: ..." and "uname: Linux <host> ...".
  for (const auto& s : sections) {
    if (s.body.find("nvidia-bug-report.sh") == std::string::npos) continue;
    static const RE2 uname(R"((?m)^uname: Linux (\S+))", BytePatternOptions());
    RE2::PartialMatch(s.body, uname, &plan.hostname);
    static const RE2 date(R"((?m)^Date: (.*)$)", BytePatternOptions());
    std::string date_line;
    if (RE2::PartialMatch(s.body, date, &date_line)) {
      // A numeric offset when the date has one; else the local start time
      // against the file's mtime (the script's last append, a minute or so later).
      std::optional<int64_t> local = ParseDateAsUtc(date_line);
      std::optional<int> offset = UtcOffsetFromDateText(date_line);
      if (!offset && local && fallback_ns > 0) offset = OffsetBetween(*local, fallback_ns, 300);
      plan.utc_offset_seconds = offset.value_or(0);
      if (local) plan.captured_at_ns = *local - int64_t{plan.utc_offset_seconds} * 1000000000LL;
      dated = local.has_value();
    }
    break;
  }
  plan.capture_next.push_back("gpuforensics collect on the node (Kubernetes, the container runtime and /dev: "
                              "nothing of them is in a bug report)");
  TimeHints base;
  base.utc_offset_seconds = plan.utc_offset_seconds;
  base.year = YearOf(plan.captured_at_ns);
  base.not_after_ns = plan.captured_at_ns;
  const int64_t boot_start = BootStartFromKernelLines(sections, base);
  for (const auto& s : sections) {
    if (s.header.empty() || s.header.find(" does not exist") != std::string::npos) continue;
    for (const auto& rule : BugReportSectionRules()) {
      if (fnmatch(std::string(rule.header_glob).c_str(), s.header.c_str(), 0) != 0) continue;
      if (rule.conversion == Conversion::kDmesg && plan.Has(artifact::kJournalKernel)) break;
      // The script lists the bus three ways (-nntv, -nn, -nnDvvvxxx); one is the listing.
      if (rule.conversion == Conversion::kLspci && plan.Has(artifact::kPciNvidiaFunctions)) break;
      TimeHints hints = base;
      // Boots are told apart by id; the log names none.
      if (rule.instance == "boot:-1") hints.boot_id = std::string(31, '0') + "1";
      if (rule.instance == "boot:0") {
        hints.boot_id = std::string(32, '0');
        hints.boot_start_ns = boot_start;
      }
      std::string where = source_name + ": section '" + s.header + "'" + (s.cut.empty() ? "" : " (" + s.cut + ")");
      // A section's header is the command that printed it, or the file.
      ApplyConversion({std::string(rule.name), rule.conversion, std::string(rule.instance), where,
                       HostPathOf(s.header), s.body, s.header},
                      hints, plan);
      break;
    }
  }
  // The one file, in the report's coverage: what it became and where the node and time came from.
  InputFileRecord record{source_name, "nvidia-bug-report log", {}, "", ""};
  for (const auto& a : plan.artifacts) {
    if (std::find(record.artifacts.begin(), record.artifacts.end(), a.name) == record.artifacts.end()) {
      record.artifacts.push_back(a.name);
    }
  }
  record.note = plan.hostname.empty() ? "no uname: line names the node" : "node from its uname: line";
  record.note += dated ? "; capture time from its Date: line" : "; capture time from the file's mtime";
  plan.inputs.push_back(record);
  return plan;
}

}  // namespace gpuf
