#include "analyzer/report_lines.h"

#include <cstdio>
#include <map>

namespace gpuf {

std::string ChainVerdictLine(const Report& r) {
  int failed = 0, unknown = 0, first_failed = 0, number = 0;
  std::string first_name;
  for (const auto& step : r.verdict) {
    ++number;
    if (step.status == StepStatus::kFailed && failed++ == 0) {
      first_failed = number;
      first_name = step.name;
    }
    unknown += step.status == StepStatus::kUnknown;
  }
  if (r.verdict.empty()) return "not computed";
  if (failed > 0) {
    std::string line = "BROKEN at step " + std::to_string(first_failed) + ", " + first_name;
    if (failed > 1)
      line += " (" + std::to_string(failed - 1) + (failed > 2 ? " later steps fail" : " later step fails") + " with it)";
    return line;
  }
  if (unknown == 0) return "every step ok";
  return "no step failed, " + std::to_string(unknown) + " of " + std::to_string(number) + " unknown from this bundle";
}

int RulesNotEvaluated(const Report& r) {
  int n = 0;
  for (const auto& run : r.rule_runs) n += run.outcome == "skipped" || run.outcome == "error";
  return n;
}

std::string NoFindingsCaveat(const Report& r) {
  std::string caveat;
  if (!r.complete) caveat += "The collection was cut short (" + r.incomplete_reason + "). ";
  const int not_evaluated = RulesNotEvaluated(r);
  const int64_t missing = r.artifacts_failed + r.artifacts_skipped;
  if (not_evaluated > 0) {
    caveat += std::to_string(not_evaluated) + " of " + std::to_string(r.rule_runs.size()) +
              " rules could not be checked for lack of evidence (see Coverage): this is not a statement that the "
              "node is healthy.";
  } else if (missing > 0) {
    caveat += "Every rule had the evidence it needs, but " + std::to_string(missing) + " of " +
              std::to_string(r.artifacts_total) + " artifacts are missing or failed (see Coverage).";
  } else if (!r.complete) {
    caveat += "This is not a statement that the node is healthy.";
  }
  return caveat;
}

std::string FindingsLine(const Report& r) {
  const std::string checked = std::to_string(r.rule_runs.size());
  if (r.findings.empty()) {
    std::string caveat = NoFindingsCaveat(r);
    return "no known issue recognized among " + checked + " checked" + (caveat.empty() ? "" : ". " + caveat);
  }
  static const char* kOrder[] = {"critical", "high", "medium", "low", "info"};
  std::map<std::string, int> by_severity;
  for (const auto& f : r.findings) ++by_severity[f.severity];
  std::string counts;
  for (const char* severity : kOrder) {
    if (!by_severity.count(severity)) continue;
    counts += (counts.empty() ? "" : ", ") + std::to_string(by_severity[severity]) + " " + severity;
  }
  size_t n = r.findings.size();
  return std::to_string(n) + (n == 1 ? " finding (" : " findings (") + counts + ") of " + checked +
         " known issues checked";
}

std::string LocalAndUtc(int64_t ns, const DisplayZone& zone, const std::string& node_zone) {
  std::string shown = zone.Format(ns);
  if (zone.name() != "UTC") return shown + " (" + DisplayZone().Format(ns).substr(11) + ")";
  if (node_zone.empty() || node_zone == "UTC" || node_zone == "Etc/UTC") return shown;
  auto node = DisplayZone::Parse("node", node_zone);
  if (!node.ok()) return shown;
  return shown + " (node " + node->Format(ns).substr(11) + ")";
}

std::string InputFileLine(const ManifestInputFile& file) {
  if (!file.not_read.empty()) return "not read " + file.path + ": " + file.not_read;
  std::string line = "read " + file.path + " as " + file.read_as + ":";
  for (size_t i = 0; i < file.artifacts.size(); ++i) line += (i ? ", " : " ") + file.artifacts[i];
  if (!file.note.empty()) line += " (" + file.note + ")";
  return line;
}

std::string CannotTellLine(const CannotTell& c) {
  // At most four ids, then how many more: the capture is the point, not the list.
  auto list = [](const std::vector<std::string>& ids) {
    std::string out;
    for (size_t i = 0; i < ids.size() && i < 4; ++i) out += (i ? ", " : "") + ids[i];
    if (ids.size() > 4) out += " and " + std::to_string(ids.size() - 4) + " more";
    return out;
  };
  std::string line;
  for (size_t i = 0; i < c.captures.size(); ++i) line += (i ? " or " : "") + c.captures[i];
  if (!c.would_confirm.empty()) line += ": would confirm " + list(c.would_confirm);
  if (!c.rules.empty()) {
    line += std::string(c.would_confirm.empty() ? ":" : ";") + " would decide " + list(c.rules);
  }
  return line;
}

std::string FormatSeconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3f s", seconds);
  return text;
}

}  // namespace gpuf
