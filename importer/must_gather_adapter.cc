// GPU Operator must-gather (hack/must-gather.sh): operand pod logs saved as
// gpu_operand_pod_<pod>.log (kubectl logs --all-containers --prefix) and
// .previous.log, and one nvidia-bug-report_<node>.log.gz per driver pod.
#include <fnmatch.h>

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

}  // namespace

bool MustGatherWants(std::string_view path) {
  std::string name = BaseName(std::string(path));
  return IsPluginPodLog(name) || IsBugReport(name) || name == "must-gather.log";
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
    ApplyConversion({"", Conversion::kPluginLog, "/" + path, path, "", **bytes}, hints, plan);
  }
  return plan;
}

}  // namespace gpuf
