// A folder of outputs saved by hand ("smi.txt", "devs.txt", "plugin.log"):
// names are whatever the person chose, so each file is recognised by what
// it holds (EvidenceSignatures), and the name only breaks ties (host or
// plugin container for `nvidia-smi -L`, which unit a journal text is about).
#include <re2/re2.h>

#include <algorithm>

#include "common/artifacts.h"
#include "common/text_lines.h"
#include "importer/adapters.h"
#include "importer/artifact_map.h"
#include "importer/conversions.h"
#include "importer/saved_outputs.h"

namespace gpuf {

namespace {

enum class Role { kUnknown, kUptime, kDate, kJournal, kDmesg, kPluginLog, kSignature, kStatfs };

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// Most of the first lines read as journal lines.
bool LooksLikeJournal(std::string_view head) {
  TimeHints probe;
  JournalSplit split = ConvertJournalText(head, probe);
  int parsed = split.lines_read - split.lines_skipped;
  return parsed > 0 && parsed * 2 >= split.lines_read;
}

bool LooksLikeDmesg(std::string_view head) {
  static const RE2 line(R"(^\[ *\d+\.\d+\] )");
  return RE2::PartialMatch(head, line);
}

// Device-plugin log lines, with or without kubectl's prefix and timestamps.
bool LooksLikePluginLog(std::string_view head) {
  static const RE2 words(
      R"((?i)NVML|device plugin|nvidia\.com/gpu|Retr(?:ei|ie)ving plugins|FS watcher|Starting GRPC server|Loading configuration)");
  static const RE2 stamp(R"((?m)^(?:\[pod/\S+\] )?(?:\d{4}/\d\d/\d\d \d\d:\d\d:\d\d|[IWEF]\d{4} \d\d:\d\d:\d\d|\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d))");
  return RE2::PartialMatch(head, words) && RE2::PartialMatch(head, stamp);
}

Role Classify(const std::string& text, const ContentSignature** signature) {
  std::string_view head = std::string_view(text).substr(0, 4096);
  static const RE2 uptime(R"(^\s*\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\s*$)");
  static const RE2 date_r(R"(^\s*\w{3}, +\d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}\s*$)");
  static const RE2 statfs(R"(^\s*(cgroup2fs|tmpfs|cgroupfs)\s*$)");
  if (RE2::FullMatch(text, uptime)) return Role::kUptime;
  if (RE2::FullMatch(text, date_r) || head.find("Time zone:") != std::string_view::npos) return Role::kDate;
  if (RE2::FullMatch(text, statfs)) return Role::kStatfs;
  if (LooksLikeJournal(head)) return Role::kJournal;
  if (LooksLikeDmesg(head)) return Role::kDmesg;
  if (LooksLikePluginLog(head)) return Role::kPluginLog;
  for (const auto& s : EvidenceSignatures()) {
    if (head.find(s.needle) != std::string_view::npos) {
      *signature = &s;
      return Role::kSignature;
    }
  }
  return Role::kUnknown;
}

// The short id of the one running device-plugin container in a crictl table.
std::string RunningPluginId(const std::string& table) {
  std::string id;
  int found = 0;
  ForEachLine(table, [&](int, std::string_view line) {
    if (line.find(" Running ") != std::string_view::npos && MentionsDevicePlugin(line)) {
      id = std::string(line.substr(0, line.find(' ')));
      ++found;
    }
  });
  return found == 1 ? id : "";
}

// The unit a saved journal text is about, from its name ("kubelet.log").
std::string UnitFromName(const std::string& name) {
  for (std::string_view unit : {"nvidia-persistenced", "nvidia-fabricmanager", "kubelet", "containerd"}) {
    if (name.find(unit) != std::string::npos) return std::string(unit) + ".service";
  }
  return "";
}

}  // namespace

ImportPlan ImportEvidenceDir(const SourceTree& tree, const std::string& source_name) {
  ImportPlan plan;
  plan.kind = "evidence-dir";
  plan.source_name = source_name;
  struct File {
    std::string path;
    const std::string* text;
    Role role;
    const ContentSignature* signature;
  };
  std::vector<File> files;
  for (const auto& path : tree.Paths()) {
    auto text = tree.Find(path);
    if (!text.ok()) continue;
    const ContentSignature* signature = nullptr;
    Role role = Classify(**text, &signature);
    files.push_back({path, *text, role, signature});
    plan.captured_at_ns = std::max(plan.captured_at_ns, tree.mtime_ns(path));
  }

  // Time facts first: the zone, then the boot's start, then the year.
  std::optional<int> offset;
  for (const auto& f : files) {
    if (f.role == Role::kDate && !offset) offset = UtcOffsetFromDateText(*f.text);
  }
  for (const auto& f : files) {
    if (f.role == Role::kJournal && !offset) offset = InferUtcOffsetFromJournal(*f.text);
  }
  plan.utc_offset_seconds = offset.value_or(0);
  TimeHints hints;
  hints.utc_offset_seconds = plan.utc_offset_seconds;
  for (const auto& f : files) {
    if (f.role != Role::kUptime) continue;
    if (auto boot = ParseUptimeSince(*f.text, plan.utc_offset_seconds)) hints.boot_start_ns = *boot;
  }
  hints.year = YearOf(hints.boot_start_ns > 0 ? hints.boot_start_ns : plan.captured_at_ns);
  hints.not_after_ns = plan.captured_at_ns;

  std::string plugin_id;
  for (const auto& f : files) {
    if (f.role == Role::kSignature && f.signature->conversion == Conversion::kCrictlTable) {
      plugin_id = RunningPluginId(*f.text);
    }
  }
  for (const auto& f : files) {
    std::string name = BaseName(f.path);
    SourcePiece piece{"", Conversion::kAsIs, "", f.path, "", *f.text};
    TimeHints file_hints = hints;
    file_hints.boot_id = "";  // one stand-in id from the boot's start, shared by every text of it
    switch (f.role) {
      case Role::kUnknown:
      case Role::kDate:
        continue;
      case Role::kUptime:
        piece.conversion = Conversion::kUptimeSince;
        break;
      case Role::kStatfs:
        piece.name = artifact::kCgroupStatfs;
        break;
      case Role::kJournal:
        piece.conversion = Conversion::kJournalText;
        piece.instance = "boot:0";
        file_hints.unit = UnitFromName(name);
        break;
      case Role::kDmesg:
        continue;  // after the journal texts: their kernel lines are kept over dmesg's
      case Role::kPluginLog:
        piece.conversion = Conversion::kPluginLog;
        piece.instance = plugin_id;
        break;
      case Role::kSignature:
        piece.name = std::string(f.signature->name);
        piece.conversion = f.signature->conversion;
        if (piece.name == artifact::kHostNvidiaSmiList && NameSaysPluginContainer(name)) {
          ImportedArtifact a{std::string(artifact::kPluginNvidiaSmiList), plugin_id, f.path, *f.text, plugin_id, "", std::nullopt};
          if (f.text->rfind("GPU 0:", 0) == 0) a.exit_code = 0;  // -L lists only when it succeeded
          plan.Add(std::move(a));
          continue;
        }
        if (piece.conversion == Conversion::kStaticPod) {
          piece.instance = "path";
          piece.host_path = "/etc/kubernetes/manifests/" + name;
        }
        break;
    }
    ApplyConversion(piece, file_hints, plan);
  }
  for (const auto& f : files) {
    if (f.role != Role::kDmesg || plan.Has(artifact::kJournalKernel)) continue;
    ApplyConversion({std::string(artifact::kJournalKernel), Conversion::kDmesg, "boot:0", f.path, "", *f.text}, hints, plan);
  }
  return plan;
}

}  // namespace gpuf
