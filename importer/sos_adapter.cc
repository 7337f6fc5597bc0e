// sos report: files at fixed places (the table in artifact_map.cc), times in
// the zone of the node, which `date` and `date --utc` side by side give away.
#include <fnmatch.h>
#include <re2/re2.h>

#include <algorithm>
#include <ctime>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "common/artifacts.h"
#include "common/byte_pattern.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "importer/adapters.h"
#include "importer/artifact_map.h"
#include "importer/boot_list.h"
#include "importer/conversions.h"

namespace gpuf {

namespace {

const std::string* Text(const SourceTree& tree, const std::string& path) {
  auto found = tree.Find(path);
  return found.ok() ? *found : nullptr;
}

void Join(std::string& to, const std::string& what) {
  if (what.empty()) return;
  if (!to.empty()) to += "; ";
  to += what;
}

std::string Dashless(std::string_view id) {
  std::string out;
  for (char c : Trim(id)) if (c != '-') out += c;
  return out;
}

// A plugin container's `crictl logs -t` file, by the row of its short id in `crictl ps -a`.
bool IsPluginContainer(const std::string* ps_table, std::string_view id) {
  if (ps_table == nullptr || id.size() < 12) return false;
  bool plugin = false;
  ForEachLine(*ps_table, [&](int, std::string_view line) {
    if (line.rfind(id.substr(0, 12), 0) == 0 && MentionsDevicePlugin(line)) plugin = true;
  });
  return plugin;
}

// sos's plugins that hold what gpuforensics reads (importer/artifact_map.cc's
// table), in the order `sos report -o` takes them.
// `sos report -o` stops at a plugin it does not have: containerd's came after
// sos 4.0, so the advice names it apart.
constexpr std::string_view kWantedPlugins[] = {"kernel", "logs", "systemd", "nvidia", "crio",
                                                "kubernetes", "date", "host", "process"};

// "2026-12-01 17:20:33.905683": local time of the host sos ran on, no zone.
std::optional<int64_t> SosLocalTimeAsUtc(const std::string& text) {
  static const RE2 when(R"((\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d))", BytePatternOptions());
  int y, mo, d, h, mi, sec;
  if (!RE2::PartialMatch(text, when, &y, &mo, &d, &h, &mi, &sec)) return std::nullopt;
  return UnixNsFromUtcCivil(y, mo, d, h, mi, sec);
}

// sos_reports/manifest.json (sos 4.0 and later): when sos started, which of
// its plugins ran, which hit their timeout.
struct SosManifest {
  std::string version;
  std::optional<int64_t> start_local_ns;  // read as if UTC
  std::vector<std::string> plugins;
  std::vector<std::string> timed_out;
};

std::optional<SosManifest> ReadSosManifest(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return std::nullopt;
  SosManifest m;
  if (j.contains("version") && j["version"].is_string()) m.version = j["version"].get<std::string>();
  if (j.contains("start_time") && j["start_time"].is_string()) {
    m.start_local_ns = SosLocalTimeAsUtc(j["start_time"].get<std::string>());
  }
  const auto* plugins = j.contains("components") && j["components"].is_object() &&
                                j["components"].contains("report") && j["components"]["report"].is_object() &&
                                j["components"]["report"].contains("plugins") &&
                                j["components"]["report"]["plugins"].is_object()
                            ? &j["components"]["report"]["plugins"]
                            : nullptr;
  if (plugins != nullptr) {
    for (const auto& [name, p] : plugins->items()) {
      m.plugins.push_back(name);
      if (p.is_object() && p.contains("timeout_hit") && p["timeout_hit"].is_boolean() && p["timeout_hit"].get<bool>()) {
        m.timed_out.push_back(name);
      }
    }
  }
  return m;
}

std::string JoinNames(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

bool SosWants(std::string_view path) {
  std::string p(path);
  for (const auto& rule : SosPathRules()) {
    if (fnmatch(std::string(rule.pattern).c_str(), p.c_str(), FNM_PATHNAME) == 0) return true;
  }
  // usr/lib/os-release: where sos's etc/os-release link points.
  return p == "sos_commands/date/date" || p == "sos_commands/date/date_--utc" || p == "usr/lib/os-release" ||
         p == "sos_reports/manifest.json" || p == "hostname" || p == "etc/hostname";
}

ImportPlan ImportSosReport(const SourceTree& tree, const std::string& source_name) {
  ImportPlan plan;
  plan.kind = "sosreport";
  plan.source_name = source_name;
  // The node's name: hostname's output, else the hostname file sos copies, else uname -a's second field.
  for (const char* path : {"sos_commands/host/hostname", "hostname", "etc/hostname"}) {
    if (!plan.hostname.empty()) break;
    if (const auto* host = Text(tree, path)) plan.hostname = std::string(Trim(*host));
  }
  if (plan.hostname.empty()) {
    if (const auto* uname = Text(tree, "sos_commands/kernel/uname_-a")) {
      static const RE2 node(R"(^\S+ (\S+))", BytePatternOptions());
      RE2::PartialMatch(*uname, node, &plan.hostname);
    }
  }
  if (const auto* id = Text(tree, "proc/sys/kernel/random/boot_id")) plan.boot_id = std::string(Trim(*id));

  // The node's offset: local `date` next to `date --utc`, taken a moment apart.
  const std::string* local = Text(tree, "sos_commands/date/date");
  const std::string* utc = Text(tree, "sos_commands/date/date_--utc");
  std::optional<int64_t> local_ns = local ? ParseDateAsUtc(*local) : std::nullopt;
  std::optional<int64_t> utc_ns = utc ? ParseDateAsUtc(*utc) : std::nullopt;
  if (local_ns && utc_ns) {
    plan.utc_offset_seconds = OffsetBetween(*local_ns, *utc_ns, 300).value_or(0);
    plan.captured_at_ns = *utc_ns;
  } else if (const auto* journal = Text(tree, "sos_commands/logs/journalctl_--no-pager_--catalog_--boot")) {
    plan.utc_offset_seconds = InferUtcOffsetFromJournal(*journal).value_or(0);
  }

  std::map<int, ListedBoot> boots;
  if (const auto* list = Text(tree, "sos_commands/systemd/journalctl_--list-boots")) {
    boots = ParseBootList(*list, plan.utc_offset_seconds);
  }
  if (const auto* stat = Text(tree, "proc/stat")) {
    static const RE2 btime(R"((?m)^btime (\d+)$)", BytePatternOptions());
    int64_t seconds = 0;
    if (RE2::PartialMatch(*stat, btime, &seconds)) boots[0].start_ns = seconds * 1000000000LL;
  }
  if (!plan.boot_id.empty()) boots[0].id = Dashless(plan.boot_id);
  std::optional<SosManifest> manifest;
  if (const auto* text = Text(tree, "sos_reports/manifest.json")) manifest = ReadSosManifest(*text);
  InputFileRecord about{"sos_reports/manifest.json", "sos manifest", {}, "", ""};
  if (manifest) {
    // sos's own start, in the node's local time: the capture time when `date` was not collected.
    if (plan.captured_at_ns == 0 && manifest->start_local_ns) {
      plan.captured_at_ns = *manifest->start_local_ns - int64_t{plan.utc_offset_seconds} * 1000000000LL;
      about.note = "capture time from sos's start_time";
      if (!local || !utc) about.note += " (local time, read at UTC" + std::string(plan.utc_offset_seconds ? "" : "+0") +
                                        ": no date and date --utc beside it)";
    }
    Join(about.note, "sos " + manifest->version + " ran " + JoinNames(manifest->plugins));
    if (!manifest->timed_out.empty()) Join(about.note, "timed out: " + JoinNames(manifest->timed_out));
    std::vector<std::string> missing;
    for (std::string_view plugin : kWantedPlugins) {
      if (std::find(manifest->plugins.begin(), manifest->plugins.end(), plugin) == manifest->plugins.end()) {
        missing.emplace_back(plugin);
      }
    }
    if (!missing.empty()) Join(about.note, "did not run " + JoinNames(missing));
  } else {
    about.read_as = "";
    about.not_read = "absent or not sos's JSON: the plugins that ran are not known";
  }
  plan.inputs.push_back(about);
  std::string plugins;
  for (std::string_view plugin : kWantedPlugins) plugins += (plugins.empty() ? "" : ",") + std::string(plugin);
  plan.capture_next.push_back("sos report --batch -o " + plugins +
                              " -k crio.all=on -k crio.logs=on (add containerd to -o where this sos has that plugin)");
  plan.capture_next.push_back("gpuforensics collect (for what sos never holds, listed above)");
  if (plan.captured_at_ns == 0) plan.captured_at_ns = boots.count(0) ? boots[0].start_ns : 0;

  const std::string* ps_table = Text(tree, "sos_commands/crio/crictl_ps_-a");
  for (const auto& rule : SosPathRules()) {
    for (const auto& path : tree.Paths()) {
      if (fnmatch(std::string(rule.pattern).c_str(), path.c_str(), FNM_PATHNAME) != 0) continue;
      auto bytes = tree.Find(path);
      if (!bytes.ok()) continue;
      SourcePiece piece{std::string(rule.name), rule.conversion, std::string(rule.instance), path, "/" + path,
                        **bytes, ""};
      TimeHints hints;
      hints.utc_offset_seconds = plan.utc_offset_seconds;
      hints.year = YearOf(plan.captured_at_ns);
      hints.not_after_ns = plan.captured_at_ns;
      if (rule.instance == "boot:0" || rule.instance == "boot:-1") {
        int offset = rule.instance == "boot:0" ? 0 : -1;
        hints.boot_id = boots[offset].id;
        hints.boot_start_ns = boots[offset].start_ns;
        // The journal's kernel lines are kept over dmesg's: one copy of each.
        if (rule.conversion == Conversion::kDmesg && plan.Has(artifact::kJournalKernel)) continue;
      }
      if (rule.conversion == Conversion::kPluginLog) {
        std::string id = path.substr(path.rfind('_') + 1);
        if (!IsPluginContainer(ps_table, id)) continue;
        piece.instance = id;
      }
      ApplyConversion(piece, hints, plan);
    }
  }
  // /etc/localtime is kept as the link it is: its target names the zone.
  std::string zone_link = tree.LinkTarget("etc/localtime");
  if (!zone_link.empty()) {
    plan.Add({std::string(artifact::kHostLocaltime), "", "etc/localtime",
              "# gpuforensics listing v1: path type mode uid gid major minor size_bytes mtime_ns link_target\n"
              "/etc/localtime\tl\t0777\t0\t0\t\t\t0\t0\t" + zone_link + "\n",
              "", ""});
  }
  return plan;
}

}  // namespace gpuf
