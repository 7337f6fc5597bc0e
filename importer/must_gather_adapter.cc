// GPU Operator must-gather (hack/must-gather.sh): operand pod logs saved as
// gpu_operand_pod_<pod>.log (kubectl logs --all-containers --prefix) and
// .previous.log, and one nvidia-bug-report_<node>.log.gz per driver pod.
#include <fnmatch.h>
#include <re2/re2.h>

#include <optional>

#include "common/byte_pattern.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "importer/adapters.h"
#include "importer/artifact_map.h"
#include "importer/conversions.h"

namespace gpuf {

namespace {

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool IsPluginPodLog(const std::string& name) {
  return fnmatch("gpu_operand_pod_*.log", name.c_str(), 0) == 0 && MentionsDevicePlugin(name);
}

bool IsBugReport(const std::string& name) { return fnmatch("nvidia-bug-report*.log*", name.c_str(), 0) == 0; }

// `kubectl describe` of a device-plugin pod, and of the GPU nodes.
bool IsPluginPodDescription(const std::string& name) {
  return fnmatch("gpu_operand_pod_*.descr", name.c_str(), 0) == 0 && MentionsDevicePlugin(name);
}

// The part of `kubectl describe nodes` about `node`: from its "Name:" line to the next.
std::string NodeDescription(std::string_view all, const std::string& node) {
  std::string out;
  bool ours = false;
  static const RE2 name_line(R"(^Name:\s+(\S+)\s*$)", BytePatternOptions());
  ForEachLine(all, [&](int, std::string_view line) {
    std::string name;
    if (RE2::FullMatch(line, name_line, &name)) ours = name == node;
    if (ours) out += std::string(line) + "\n";
  });
  return out;
}

// "Using ARTIFACT_DIR=/tmp/nvidia-gpu-operator_20261118_2130": when the script
// ran, in the zone of the machine it ran on (read as UTC).
std::optional<int64_t> ArtifactDirTime(std::string_view log) {
  static const RE2 dir(R"(ARTIFACT_DIR=\S*_(\d{4})(\d\d)(\d\d)_(\d\d)(\d\d))", BytePatternOptions());
  int y, mo, d, h, mi;
  if (!RE2::PartialMatch(log, dir, &y, &mo, &d, &h, &mi)) return std::nullopt;
  return UnixNsFromUtcCivil(y, mo, d, h, mi, 0);
}

}  // namespace

bool MustGatherWants(std::string_view path) {
  std::string name = BaseName(std::string(path));
  return IsPluginPodLog(name) || IsBugReport(name) || name == "must-gather.log" || IsPluginPodDescription(name) ||
         name == "gpu_nodes.descr";
}

Result<ImportPlan> ImportMustGather(const SourceTree& tree, const std::string& source_name,
                                    const SourceLimits& limits) {
  ImportPlan plan;
  for (const auto& path : tree.Paths()) {
    std::string name = BaseName(path);
    if (!IsBugReport(name)) continue;
    auto bytes = tree.Find(path);
    if (!bytes.ok()) continue;
    GPUF_ASSIGN_OR_RETURN(std::string log, DecompressBytes(**bytes, path, limits));
    plan = ImportBugReport(log, path, tree.mtime_ns(path));
    if (plan.hostname.empty() && name.rfind("nvidia-bug-report_", 0) == 0) {
      plan.hostname = name.substr(18, name.find(".log") - 18);
    }
    for (auto& a : plan.artifacts) a.source_file = source_name + "/" + a.source_file;
    break;  // one node per import: the first driver pod's report
  }
  plan.kind = "must-gather";
  plan.source_name = source_name;
  // No bug report: the node is the one the script says it saved a report
  // from, the time the one its output folder is named after.
  for (const auto& path : tree.Paths()) {
    if (BaseName(path) != "must-gather.log") continue;
    auto log = tree.Find(path);
    if (!log.ok()) continue;
    static const RE2 saving(R"(Saving nvidia-bug-report from (\S+) \.\.\.)", BytePatternOptions());
    if (plan.hostname.empty()) RE2::PartialMatch(**log, saving, &plan.hostname);
    if (plan.captured_at_ns == 0) {
      if (auto when = ArtifactDirTime(**log)) {
        plan.captured_at_ns = *when;
        plan.inputs.push_back({path, "must-gather.log", {}, "capture time from ARTIFACT_DIR's name, read as UTC", ""});
      }
    }
  }
  TimeHints hints;
  hints.utc_offset_seconds = plan.utc_offset_seconds;
  for (const auto& path : tree.Paths()) {
    std::string name = BaseName(path);
    if (!IsPluginPodLog(name)) continue;
    auto bytes = tree.Find(path);
    if (!bytes.ok()) continue;
    plan.captured_at_ns = std::max(plan.captured_at_ns, tree.mtime_ns(path));
    hints.year = YearOf(plan.captured_at_ns);
    hints.boot_start_ns = plan.captured_at_ns;
    ApplyConversion({"", Conversion::kPluginLog, "/" + path, path, "", **bytes, ""}, hints, plan);
  }
  for (const auto& path : tree.Paths()) {
    std::string name = BaseName(path);
    auto bytes = tree.Find(path);
    if (!bytes.ok()) continue;
    if (IsPluginPodDescription(name)) {
      plan.Add({"k8s.pod_text", "/" + path, path, **bytes, "", "", std::nullopt});
    } else if (name == "gpu_nodes.descr" && !plan.hostname.empty()) {
      std::string ours = NodeDescription(**bytes, plan.hostname);
      if (!ours.empty()) plan.Add({"k8s.node_text", "", path, ours, "", "the part about " + plan.hostname, std::nullopt});
    }
  }
  plan.capture_next.push_back(
      "ENABLE_EXTENDED_DIAGNOSTICS=true hack/must-gather.sh (adds lspci to the driver pods' bug reports)");
  plan.capture_next.push_back("gpuforensics collect on the node (its journal, /dev, the plugin container's cgroup)");
  return plan;
}

}  // namespace gpuf
