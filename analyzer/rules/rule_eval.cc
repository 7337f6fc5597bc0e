#include "analyzer/rules/rule_eval.h"

#include "analyzer/rules/summary_template.h"

namespace gpuf {

namespace {

std::vector<std::string> EvidenceSelections(const Rule& rule, const Outcome& outcome) {
  if (!outcome.evidence.empty()) return outcome.evidence;
  if (outcome.condition) return ConditionSelections(*outcome.condition, true);
  std::vector<std::string> all;
  for (const auto& s : rule.selections) all.push_back(s.name);
  return all;
}

void AddEvidence(const std::string& selection, const std::vector<SelectionRow>& rows, const ArtifactIndex& artifacts,
                 std::vector<FindingEvidence>& out) {
  size_t shown = 0;
  for (const auto& row : rows) {
    if (!row.artifact_id && row.text.empty()) continue;  // a row that only carries fields
    if (shown == kEvidencePerSelection) {
      FindingEvidence more;
      more.selection = selection;
      more.text = "... " + std::to_string(rows.size() - shown) + " more rows of '" + selection + "'";
      out.push_back(more);
      return;
    }
    FindingEvidence e;
    e.selection = selection;
    e.artifact_id = row.artifact_id;
    if (row.artifact_id) e.artifact = artifacts.Label(*row.artifact_id);
    e.line = row.line;
    e.time_ns = row.time_ns;
    e.text = row.text;
    out.push_back(e);
    ++shown;
  }
}

Finding MakeFinding(const Rule& rule, const Outcome& outcome, const SelectionRows& rows,
                    const ArtifactIndex& artifacts) {
  Finding f;
  f.rule_id = rule.id;
  f.title = rule.title;
  f.result = outcome.result;
  f.severity = outcome.severity.empty() ? rule.severity : outcome.severity;
  f.confidence = outcome.confidence;
  f.summary = RenderTemplate(outcome.summary, rows);
  for (const auto& name : EvidenceSelections(rule, outcome)) {
    auto it = rows.find(name);
    if (it != rows.end()) AddEvidence(name, it->second, artifacts, f.evidence);
  }
  for (const auto& unmet : artifacts.Unmet(rule.optional_artifacts)) f.missing_evidence.push_back("not available: " + unmet);
  for (const auto& m : rule.missing) {
    if (!EvaluateCondition(*m.condition, rows)) f.missing_evidence.push_back(m.text);
  }
  f.remediation = rule.remediation;
  f.references = rule.references;
  return f;
}

}  // namespace

Evaluation EvaluateRule(const Rule& rule, const SelectionRows& rows, const ArtifactIndex& artifacts) {
  Evaluation e;
  e.run.rule_id = rule.id;
  for (const auto& outcome : rule.outcomes) {
    if (outcome.condition && !EvaluateCondition(*outcome.condition, rows)) continue;
    e.run.outcome = outcome.result;
    if (outcome.result == "pass") {
      e.run.reason = outcome.summary.empty() ? "passed: " + outcome.when : RenderTemplate(outcome.summary, rows);
      return e;
    }
    e.finding = MakeFinding(rule, outcome, rows, artifacts);
    e.run.reason = e.finding->summary;
    return e;
  }
  e.run.outcome = "pass";
  e.run.reason = "no outcome's condition held";
  return e;
}

}  // namespace gpuf
