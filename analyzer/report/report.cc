#include "analyzer/report/report.h"

#include <algorithm>
#include <cstdio>

#include "analyzer/query.h"
#include "analyzer/report/node_commands.h"
#include "analyzer/report/node_zone.h"
#include "analyzer/timeline/chain_verdict.h"
#include "common/exit_codes.h"
#include "common/vocabulary.h"

namespace gpuf {

const Finding* FindFinding(const Report& report, const std::string& rule_id) {
  for (const auto* list : {&report.findings, &report.ruled_out}) {
    for (const auto& f : *list) {
      if (f.rule_id == rule_id) return &f;
    }
  }
  return nullptr;
}

std::string CapturedBy(const Report& report) {
  std::string by = "by gpuforensics " + report.tool_version;
  if (!report.input_source.empty()) by = "by " + report.input_kind + " '" + report.input_source + "', imported " + by;
  if (report.redacted_by == "collect") by += ", redacted on the node (collect --redact)";
  if (report.redacted_by == "redact") by += ", redacted afterwards (gpuforensics redact)";
  return by;
}

std::string NodeIdentityLine(const Manifest& m) {
  if (m.node_name_steps.empty() && m.kubeconfig_source.empty() && m.platform.empty()) return "";
  std::string line;
  if (!m.node_name_source.empty()) {
    line = "name from " + m.node_name_source;
    for (const auto& step : m.node_name_steps) {
      if (step.source == m.node_name_source && !step.from.empty()) line += " (" + step.from + ")";
    }
  } else {
    line = "no step named the Node";
  }
  if (!m.hostname.empty() && m.hostname != m.node_name) line += "; hostname " + m.hostname;
  if (m.node_found == false) line += "; the API has no Node of that name (a wrong node name, not missing API access)";
  if (m.kubeconfig_source == "in_cluster") {
    line += "; kubeconfig: the pod's service account";
  } else {
    line += "; kubeconfig " + (m.kubeconfig.empty() ? std::string("none") : m.kubeconfig + " (" + m.kubeconfig_source + ")");
  }
  if (m.platform_evidence && m.platform_evidence->empty()) {
    const size_t add_ons = m.platform.find('+');
    line += "; platform unknown (no platform's files found; read as a kubeadm-style node)";
    if (add_ons != std::string::npos) line += "; add-ons " + m.platform.substr(add_ons + 1);
  } else if (!m.platform.empty()) {
    line += "; platform " + m.platform + (m.platform_evidence ? " (from " + *m.platform_evidence + ")" : "");
  }
  return line;
}

bool HasSeriousFinding(const Report& report) {
  for (const auto& f : report.findings) {
    if (Serious(f.severity)) return true;
  }
  return false;
}

bool ChainBroken(const Report& report) {
  for (const auto& step : report.verdict) {
    if (step.status == StepStatus::kFailed) return true;
  }
  return false;
}

std::vector<std::string> ReportGaps(const Report& report) {
  std::vector<std::string> gaps;
  if (!report.complete) {
    gaps.push_back("the bundle is incomplete (" + (report.incomplete_reason.empty() ? std::string("no reason given")
                                                                                      : report.incomplete_reason) + ")");
  }
  if (!report.integrity_issues.empty()) {
    gaps.push_back(std::to_string(report.integrity_issues.size()) + " member" +
                   (report.integrity_issues.size() == 1 ? " is" : "s are") +
                   " missing or do not match the manifest (gpuforensics verify lists them)");
  }
  if (report.rule_runs.empty()) gaps.push_back("no rule ran: known issues were not looked for");
  size_t errors = 0;
  for (const auto& run : report.rule_runs) errors += run.outcome == RuleOutcome::kError;
  if (errors > 0) gaps.push_back(std::to_string(errors) + (errors == 1 ? " rule" : " rules") + " could not run (error)");
  return gaps;
}

int AnalysisExitStatus(const Report& report) {
  if (ChainBroken(report) || HasSeriousFinding(report)) return kExitFindings;
  return ReportGaps(report).empty() ? kExitOk : kExitIncomplete;
}

}  // namespace gpuf
