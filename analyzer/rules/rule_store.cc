#include "analyzer/rules/rule_store.h"

namespace gpuf {

namespace {

Status ClearBundle(Database& db, int64_t bundle_id) {
  const char* statements[] = {
      "DELETE FROM finding_evidence WHERE finding_id IN (SELECT finding_id FROM findings WHERE bundle_id = ?)",
      "DELETE FROM finding_missing WHERE finding_id IN (SELECT finding_id FROM findings WHERE bundle_id = ?)",
      "DELETE FROM findings WHERE bundle_id = ?",
      "DELETE FROM rule_runs WHERE bundle_id = ?",
  };
  for (const char* sql : statements) {
    GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(sql));
    s.Bind(1, bundle_id);
    GPUF_RETURN_IF_ERROR(s.Run());
  }
  return Status::Ok();
}

}  // namespace

Status StoreRuleResults(Database& db, int64_t bundle_id, const std::vector<RuleRun>& runs,
                        std::vector<Finding>& findings) {
  GPUF_RETURN_IF_ERROR(ClearBundle(db, bundle_id));
  GPUF_ASSIGN_OR_RETURN(Statement run, db.Prepare("INSERT INTO rule_runs (bundle_id, rule_id, outcome, reason, "
                                                  "elapsed_ns) VALUES (?,?,?,?,?)"));
  for (const auto& r : runs) {
    run.Bind(1, bundle_id).Bind(2, r.rule_id).Bind(3, r.outcome).Bind(4, r.reason).Bind(5, r.elapsed_ns);
    GPUF_RETURN_IF_ERROR(run.Run());
  }
  GPUF_ASSIGN_OR_RETURN(Statement finding, db.Prepare("INSERT INTO findings (bundle_id, rule_id, severity, confidence, "
                                                      "summary) VALUES (?,?,?,?,?)"));
  GPUF_ASSIGN_OR_RETURN(Statement evidence, db.Prepare("INSERT INTO finding_evidence (finding_id, ordinal, selection, "
                                                       "artifact_id, line, time_ns, text) VALUES (?,?,?,?,?,?,?)"));
  GPUF_ASSIGN_OR_RETURN(Statement missing, db.Prepare("INSERT INTO finding_missing (finding_id, ordinal, text) "
                                                      "VALUES (?,?,?)"));
  for (auto& f : findings) {
    finding.Bind(1, bundle_id).Bind(2, f.rule_id).Bind(3, f.severity).Bind(4, f.confidence).Bind(5, f.summary);
    GPUF_RETURN_IF_ERROR(finding.Run());
    f.finding_id = db.LastInsertId();
    int64_t ordinal = 0;
    for (const auto& e : f.evidence) {
      evidence.Bind(1, f.finding_id).Bind(2, ++ordinal).Bind(3, e.selection).Bind(4, e.artifact_id);
      evidence.Bind(5, e.line).Bind(6, e.time_ns).Bind(7, e.text);
      GPUF_RETURN_IF_ERROR(evidence.Run());
    }
    ordinal = 0;
    for (const auto& text : f.missing_evidence) {
      missing.Bind(1, f.finding_id).Bind(2, ++ordinal).Bind(3, text);
      GPUF_RETURN_IF_ERROR(missing.Run());
    }
  }
  return Status::Ok();
}

}  // namespace gpuf
