#include "importer/conversions.h"

#include <re2/re2.h>

#include <cstdlib>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>

#include "common/artifacts.h"
#include "common/bundle_layout.h"
#include "common/byte_pattern.h"
#include "common/json_fields.h"
#include "common/parse_int.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "formats/version_strings.h"
#include "importer/locale_months.h"
#include "importer/ls_listing.h"
#include "importer/lspci_table.h"
#include "importer/saved_outputs.h"

namespace gpuf {

namespace {

// Component names of ParseVersionOutput -> our versions.* artifacts.
constexpr std::pair<std::string_view, std::string_view> kVersionNames[] = {
    {"containerd", artifact::kVersionsContainerd},       {"runc", artifact::kVersionsRunc},
    {"nvidia-ctk", artifact::kVersionsNvidiaCtk},       {"nvidia-container-cli", artifact::kVersionsNvidiaContainerCli},
    {"kubelet", artifact::kVersionsKubelet},             {"systemd", artifact::kVersionsSystemctl},
    {"crictl", artifact::kVersionsCrictl},
};


std::string Note(int skipped, int read, const char* what) {
  if (skipped == 0) return "";
  return std::to_string(skipped) + " of " + std::to_string(read) + " lines not " + what;
}

// "7 lines of configure-nvidia.sh, 2 of sshd: no journal slice takes them".
std::string UnreadIdentifiersNote(const JournalSplit& split) {
  if (split.unread_identifiers.empty()) return "";
  std::string list;
  for (const auto& [identifier, lines] : split.unread_identifiers) {
    list += (list.empty() ? std::to_string(lines) + (lines == 1 ? " line of " : " lines of ")
                          : ", " + std::to_string(lines) + " of ") + identifier;
  }
  return list + ": no journal slice takes them";
}

// Several saved texts of one boot's journal land in one slice each.
void AddOrAppend(ImportPlan& plan, ImportedArtifact a) {
  for (auto& existing : plan.artifacts) {
    if (existing.name == a.name && existing.instance == a.instance) {
      existing.bytes += a.bytes;
      existing.source_file += ", " + a.source_file;
      return;
    }
  }
  plan.Add(std::move(a));
}

void AddVersions(const SourcePiece& piece, ImportPlan& plan) {
  ParsedVersions parsed = ParseVersionOutput(piece.bytes);
  if (parsed.components.empty()) {
    if (!piece.name.empty()) plan.Add({piece.name, "", piece.source_file, std::string(piece.bytes), "", ""});
    return;
  }
  // Split a transcript of several tools at each banner that names one of ours.
  std::vector<std::pair<int, std::string>> starts;  // line, logical name
  for (const auto& c : parsed.components) {
    for (const auto& [component, name] : kVersionNames) {
      if (c.component == component) starts.emplace_back(c.line, std::string(name));
    }
  }
  if (starts.empty()) return;
  std::vector<std::string> lines;
  ForEachLine(piece.bytes, [&](int, std::string_view line) { lines.emplace_back(line); });
  for (size_t i = 0; i < starts.size(); ++i) {
    int from = i == 0 ? 1 : starts[i].first;
    int to = i + 1 < starts.size() ? starts[i + 1].first : static_cast<int>(lines.size()) + 1;
    std::string text;
    for (int n = from; n < to && n <= static_cast<int>(lines.size()); ++n) text += lines[n - 1] + "\n";
    AddOrAppend(plan, {starts[i].second, "", piece.source_file, text, "", ""});
  }
}

void AddInspect(const SourcePiece& piece, ImportPlan& plan) {
  auto j = nlohmann::json::parse(piece.bytes.begin(), piece.bytes.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object() || !j.contains("status") || !j["status"].is_object()) return;
  const auto& status = j["status"];
  std::string id = StringField(status, "id");
  std::string names;
  if (status.contains("metadata")) names += StringField(status["metadata"], "name");
  if (status.contains("labels")) names += " " + StringField(status["labels"], "io.kubernetes.pod.name");
  if (id.empty() || !MentionsDevicePlugin(names)) return;
  plan.Add({std::string(artifact::kPluginInspect), id, piece.source_file, std::string(piece.bytes), id, ""});
}

}  // namespace

bool MentionsDevicePlugin(std::string_view text) {
  static const RE2 pattern("(?i)" + std::string(kDefaultPluginPattern), BytePatternOptions());
  return RE2::PartialMatch(text, pattern);
}

int YearOf(int64_t unix_ns) {
  std::time_t seconds = static_cast<std::time_t>(unix_ns / 1000000000LL);
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  return tm.tm_year + 1900;
}

void AddSmiQueryFacts(const std::string& source_file, std::string_view text, ImportPlan& plan) {
  plan.Add({std::string(artifact::kHostNvidiaSmiQueryXml), "", source_file, std::string(text), "", "nvidia-smi -q text", 0});
}

std::string ApplyConversion(const SourcePiece& piece, const TimeHints& hints, ImportPlan& plan) {
  const std::string instance = piece.instance == "path" ? piece.host_path : piece.instance;
  const std::string bytes(piece.bytes);
  if (Trim(bytes).empty()) return {};
  switch (piece.conversion) {
    case Conversion::kAsIs: {
      ImportedArtifact a{piece.name, instance, piece.source_file, bytes, "", "", std::nullopt};
      // `nvidia-smi -L` prints its list only when it succeeded.
      if (piece.name.find("nvidia_smi_list") != std::string::npos && bytes.find("(UUID: GPU-") != std::string::npos &&
          bytes.rfind("GPU 0:", 0) == 0) {
        a.exit_code = 0;
      }
      plan.Add(std::move(a));
      return {};
    }
    case Conversion::kJournalText:
    case Conversion::kDmesg: {
      JournalSplit split = piece.conversion == Conversion::kDmesg ? ConvertDmesgText(bytes, hints)
                                                                   : ConvertJournalText(bytes, hints);
      std::string note = Note(split.lines_skipped, split.lines_read, "in journal format");
      std::string unread = UnreadIdentifiersNote(split);
      if (plan.journal_hostname.empty()) plan.journal_hostname = split.hostname;
      for (auto& [slice, json] : split.slices) {
        AddOrAppend(plan, {slice, instance, piece.source_file, std::move(json), "", note});
      }
      // Earlier boots in the same text: counted back from the text's own boot.
      int base = instance.rfind("boot:", 0) == 0 ? static_cast<int>(Int64Or(instance.substr(5), 0)) : 0;
      for (auto& [back, slices] : split.earlier) {
        for (auto& [slice, json] : slices) {
          AddOrAppend(plan, {slice, "boot:" + std::to_string(base + back), piece.source_file, std::move(json), "",
                             note});
        }
      }
      return unread;
    }
    case Conversion::kLsListing: {
      std::string dir = piece.name == artifact::kKubeletDevicePlugins ? "/var/lib/kubelet/device-plugins" : "";
      LsConversion ls = ConvertLsOutput(bytes, dir, hints);
      for (auto& [name, listing] : ls.listings) {
        AddOrAppend(plan, {name, "", piece.source_file, std::move(listing), "",
                           Note(ls.lines_skipped, ls.rows + ls.lines_skipped, "ls -l rows")});
      }
      return {};
    }
    case Conversion::kCrictlTable: {
      Converted c = CrictlTableToJson(bytes);
      if (c.rows > 0) plan.Add({std::string(artifact::kRuntimeCrictlPs), "", piece.source_file, c.text, "", ""});
      return {};
    }
    case Conversion::kPluginLog: {
      int64_t fallback = hints.boot_start_ns;
      ConvertedLog log = ConvertPluginLog(bytes, hints.year, fallback);
      bool cri = log.form == PluginLogForm::kCriFile;
      std::string where = instance.empty() ? "/" + piece.source_file : instance;
      bool is_id = !instance.empty() && instance.find_first_not_of("0123456789abcdef") == std::string::npos;
      plan.Add({std::string(cri ? artifact::kPluginLog : artifact::kPluginCrictlLogs), where, piece.source_file, log.text, is_id ? instance : "",
                log.lines_timed_by_neighbour > 0
                    ? std::to_string(log.lines_timed_by_neighbour) + " lines without a time of their own"
                    : ""});
      return {};
    }
    case Conversion::kSmiQuery: {
      ConvertedSmiQuery q = SmiQueryToList(bytes);
      if (q.list.rows > 0) {
        plan.Add({std::string(artifact::kHostNvidiaSmiList), "", piece.source_file, q.list.text, "", "from nvidia-smi -q", 0});
      }
      if (q.gpus > 0) AddSmiQueryFacts(piece.source_file, bytes, plan);
      return {};
    }
    case Conversion::kVersions:
      AddVersions(piece, plan);
      return {};
    case Conversion::kUptimeSince:
      if (auto boot = ParseUptimeSince(bytes, hints.utc_offset_seconds)) {
        plan.Add({std::string(artifact::kBootProcStat), "", piece.source_file,
                  "btime " + std::to_string(*boot / 1000000000LL) + "\n", "", "uptime -s as btime"});
      }
      return {};
    case Conversion::kPluginInspect:
      AddInspect(piece, plan);
      return {};
    case Conversion::kLspci: {
      // A whole listing without NVIDIA functions is a table without rows:
      // the bus holds no NVIDIA device. What a grep kept says nothing of it.
      Converted c = LspciToPciTable(bytes);
      if (c.rows > 0 || LspciShowsEveryNvidiaFunction(bytes, piece.command)) {
        plan.Add({std::string(artifact::kPciNvidiaFunctions), "", piece.source_file, c.text, "",
                  Note(c.lines_skipped, c.rows + c.lines_skipped, "NVIDIA functions")});
      }
      return {};
    }
    case Conversion::kStaticPod:
      if (MentionsDevicePlugin(bytes)) plan.Add({std::string(artifact::kConfigStaticPod), instance, piece.source_file, bytes, "", ""});
      return {};
    case Conversion::kKlogLog:
    case Conversion::kNvidiaSmi:
    case Conversion::kSystemctlStatus:
      return {};  // need the file's view or writer: the saved-output adapter converts them (evidence_adapter.cc)
  }
  return {};
}

std::optional<int> InferUtcOffsetFromJournal(std::string_view text) {
  static const RE2 line_re(
      R"re(^(\w{3}) +(\d{1,2}) (\d\d):(\d\d):(\d\d)\S* .*time="(\d{4}-\d\d-\d\dT[0-9:.]+(?:Z|[+-]\d\d:\d\d))")re",
      BytePatternOptions());
  std::map<int, int> votes;
  int year = 2000;
  ForEachLine(text, [&](int, std::string_view line) {
    std::string month, day, h, m, s, stamp;
    if (!RE2::PartialMatch(line, line_re, &month, &day, &h, &m, &s, &stamp)) return;
    auto instant = ParseRfc3339(stamp);
    if (!instant.ok()) return;
    int mon = MonthOfToken(month);
    if (mon == 0) return;
    year = YearOf(*instant);
    auto local_as_utc = UnixNsFromUtcCivil(year, mon, Int64Or(day, 0), Int64Or(h, 0), Int64Or(m, 0), Int64Or(s, 0));
    if (!local_as_utc) return;
    int64_t diff = (*local_as_utc - *instant) / 1000000000LL;
    int rounded = static_cast<int>((diff >= 0 ? diff + 450 : diff - 450) / 900 * 900);
    if (rounded >= -14 * 3600 && rounded <= 14 * 3600) ++votes[rounded];
  });
  if (votes.empty()) return std::nullopt;
  auto best = votes.begin();
  for (auto it = votes.begin(); it != votes.end(); ++it) if (it->second > best->second) best = it;
  return best->first;
}

std::optional<int> UtcOffsetFromDateText(std::string_view text) {
  static const RE2 numeric(R"((?:^|[ (,])([+-])(\d\d):?(\d\d)(?:\)|\s|$))", BytePatternOptions());
  std::string sign, hh, mm;
  if (!RE2::PartialMatch(text, numeric, &sign, &hh, &mm)) return std::nullopt;
  int offset = static_cast<int>(Int64Or(hh, 0)) * 3600 + static_cast<int>(Int64Or(mm, 0)) * 60;
  return sign == "-" ? -offset : offset;
}

// `date` in the C locale: "Mon Nov 30 17:49:46 UTC 2026", read as if UTC.
std::optional<int64_t> ParseDateAsUtc(std::string_view text) {
  static const RE2 date(R"((\w{3}) +(\d{1,2}) (\d\d):(\d\d):(\d\d) (?:\S+ )?(\d{4}))", BytePatternOptions());
  std::string month;
  int day, h, m, s, year;
  if (!RE2::PartialMatch(text, date, &month, &day, &h, &m, &s, &year)) return std::nullopt;
  int mon = MonthOfToken(month);
  if (mon == 0) return std::nullopt;
  return UnixNsFromUtcCivil(year, mon, day, h, m, s);
}

std::vector<int64_t> CtimesAsUtc(std::string_view text) {
  static const RE2 ctime(
      R"((?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) (\w{3}) +(\d{1,2}) (\d\d):(\d\d):(\d\d) (?:[A-Z]{2,5} )?(\d{4})\b)",
      BytePatternOptions());
  std::vector<int64_t> out;
  re2::StringPiece input(text.data(), text.size());
  std::string month;
  int day, h, m, s, year;
  while (RE2::FindAndConsume(&input, ctime, &month, &day, &h, &m, &s, &year)) {
    int mon = MonthOfToken(month);
    auto ns = mon > 0 ? UnixNsFromUtcCivil(year, mon, day, h, m, s) : std::nullopt;
    if (ns) out.push_back(*ns);
  }
  return out;
}

std::optional<int> OffsetBetween(int64_t local_as_utc_ns, int64_t utc_ns, int tolerance_seconds) {
  int64_t diff = (local_as_utc_ns - utc_ns) / 1000000000LL;
  int64_t rounded = (diff >= 0 ? diff + 450 : diff - 450) / 900 * 900;
  if (std::llabs(diff - rounded) > tolerance_seconds || std::llabs(rounded) > 14 * 3600) return std::nullopt;
  return static_cast<int>(rounded);
}

std::optional<int64_t> ParseUptimeSince(std::string_view text, int utc_offset_seconds) {
  static const RE2 since(R"(^\s*(\d{4})-(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)\s*$)", BytePatternOptions());
  int y, mo, d, h, mi, s;
  if (!RE2::FullMatch(text, since, &y, &mo, &d, &h, &mi, &s)) return std::nullopt;
  auto utc = UnixNsFromUtcCivil(y, mo, d, h, mi, s);
  if (!utc) return std::nullopt;
  return *utc - int64_t{utc_offset_seconds} * 1000000000LL;
}

}  // namespace gpuf
