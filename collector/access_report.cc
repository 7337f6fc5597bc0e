#include "collector/access_report.h"

#include <string_view>

#include "common/bundle_layout.h"
#include "common/text_lines.h"

namespace gpuf {

namespace {

// How the tools a collection runs say they were refused: the C library's
// EACCES and EPERM texts, and journalctl as a user outside the journal's
// groups ("Hint: You are currently not seeing messages from other users and
// the system.", "No journal files were opened due to insufficient permissions.").
constexpr std::string_view kRefusals[] = {"Permission denied", "permission denied", "Operation not permitted",
                                          "insufficient permissions", "not seeing messages from other users"};

bool SaysRefused(std::string_view line) {
  for (std::string_view r : kRefusals) {
    if (line.find(r) != std::string_view::npos) return true;
  }
  return false;
}

std::string Label(const ManifestArtifact& a) {
  return a.instance.empty() ? a.name : a.name + "[" + a.instance + "]";
}

}  // namespace

std::vector<std::string> RefusedProbes(const std::vector<ProbeResult>& results, const StagedReader& read) {
  std::vector<std::string> lines;
  for (const auto& r : results) {
    const ManifestArtifact& a = r.artifact;
    if (a.skip_reason == SkipReason::kPermissionDenied) {
      lines.push_back(Label(a) + ": " + a.error);
      continue;
    }
    if (a.kind != "command" || a.status == ProbeStatus::kSkipped) continue;
    std::string refused;
    ForEachLine(read(r, kStreamStderr), [&](int, std::string_view line) {
      if (refused.empty() && SaysRefused(line)) refused = std::string(TrimRight(line, " \r"));
    });
    if (!refused.empty()) lines.push_back(Label(a) + ": " + refused);
  }
  return lines;
}

}  // namespace gpuf
