// sos report: files at fixed places (the table in artifact_map.cc), times in
// the zone of the node, which `date` and `date --utc` side by side give away.
#include <fnmatch.h>
#include <re2/re2.h>

#include <ctime>
#include <map>

#include "common/artifacts.h"
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

}  // namespace

bool SosWants(std::string_view path) {
  std::string p(path);
  for (const auto& rule : SosPathRules()) {
    if (fnmatch(std::string(rule.pattern).c_str(), p.c_str(), FNM_PATHNAME) == 0) return true;
  }
  // usr/lib/os-release: where sos's etc/os-release link points.
  return p == "sos_commands/date/date" || p == "sos_commands/date/date_--utc" || p == "usr/lib/os-release";
}

ImportPlan ImportSosReport(const SourceTree& tree, const std::string& source_name) {
  ImportPlan plan;
  plan.kind = "sosreport";
  plan.source_name = source_name;
  if (const auto* host = Text(tree, "sos_commands/host/hostname")) plan.hostname = std::string(Trim(*host));
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
    static const RE2 btime(R"((?m)^btime (\d+)$)");
    int64_t seconds = 0;
    if (RE2::PartialMatch(*stat, btime, &seconds)) boots[0].start_ns = seconds * 1000000000LL;
  }
  if (!plan.boot_id.empty()) boots[0].id = Dashless(plan.boot_id);
  if (plan.captured_at_ns == 0) plan.captured_at_ns = boots.count(0) ? boots[0].start_ns : 0;

  const std::string* ps_table = Text(tree, "sos_commands/crio/crictl_ps_-a");
  for (const auto& rule : SosPathRules()) {
    for (const auto& path : tree.Paths()) {
      if (fnmatch(std::string(rule.pattern).c_str(), path.c_str(), FNM_PATHNAME) != 0) continue;
      auto bytes = tree.Find(path);
      if (!bytes.ok()) continue;
      SourcePiece piece{std::string(rule.name), rule.conversion, std::string(rule.instance), path, "/" + path,
                        **bytes};
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
