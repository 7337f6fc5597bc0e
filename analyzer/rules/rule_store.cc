#include "analyzer/rules/rule_store.h"

#include <map>

#include "common/text_lines.h"

namespace gpuf {

namespace {

Status ClearBundle(Database& db, int64_t bundle_id) {
  const char* statements[] = {
      "DELETE FROM diagnosis_evidence WHERE diagnosis_id IN (SELECT diagnosis_id FROM diagnoses WHERE bundle_id = ?)",
      "DELETE FROM diagnosis_against WHERE diagnosis_id IN (SELECT diagnosis_id FROM diagnoses WHERE bundle_id = ?)",
      "DELETE FROM diagnoses WHERE bundle_id = ?",
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

Status StoreFindings(Database& db, int64_t bundle_id, std::vector<Finding>& findings) {
  GPUF_ASSIGN_OR_RETURN(Statement finding, db.Prepare("INSERT INTO findings (bundle_id, rule_id, severity, confidence, "
                                                      "summary, tense) VALUES (?,?,?,?,?,?)"));
  GPUF_ASSIGN_OR_RETURN(Statement evidence, db.Prepare("INSERT INTO finding_evidence (finding_id, ordinal, selection, "
                                                       "artifact_id, line, time_ns, text, shows) VALUES (?,?,?,?,?,?,?,?)"));
  GPUF_ASSIGN_OR_RETURN(Statement missing, db.Prepare("INSERT INTO finding_missing (finding_id, ordinal, text) "
                                                      "VALUES (?,?,?)"));
  for (auto& f : findings) {
    finding.Bind(1, bundle_id).Bind(2, f.rule_id).Bind(3, Name(f.severity)).Bind(4, Name(f.confidence));
    finding.Bind(5, f.summary).Bind(6, Name(f.tense));
    GPUF_RETURN_IF_ERROR(finding.Run());
    f.finding_id = db.LastInsertId();
    int64_t ordinal = 0;
    for (const auto& e : f.evidence) {
      evidence.Bind(1, f.finding_id).Bind(2, ++ordinal).Bind(3, e.selection).Bind(4, e.artifact_id);
      evidence.Bind(5, e.line).Bind(6, e.time_ns).Bind(7, e.text).Bind(8, e.shows);
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

// "" as NULL.
Statement& BindText(Statement& s, int index, const std::string& text) {
  return text.empty() ? s.BindNull(index) : s.Bind(index, text);
}

// One row of diagnosis_evidence per evidence row.
Status StoreRows(Statement& insert, int64_t diagnosis_id, std::optional<int64_t> against,
                 const std::vector<FindingEvidence>& rows) {
  int64_t ordinal = 0;
  for (const auto& e : rows) {
    insert.Bind(1, diagnosis_id).Bind(2, against).Bind(3, ++ordinal).Bind(4, e.selection).Bind(5, e.artifact_id);
    insert.Bind(6, e.line).Bind(7, e.time_ns).Bind(8, e.text).Bind(9, e.shows);
    GPUF_RETURN_IF_ERROR(insert.Run());
  }
  return Status::Ok();
}

Status StoreDiagnosis(Database& db, int64_t bundle_id, const RuleRunSummary& summary) {
  std::map<std::string, const Finding*> by_id;
  for (const auto* list : {&summary.findings, &summary.ruled_out}) {
    for (const auto& f : *list) by_id[f.rule_id] = &f;
  }
  GPUF_ASSIGN_OR_RETURN(Statement row, db.Prepare(
      "INSERT INTO diagnoses (bundle_id, rule_id, finding_id, symptom, role, place, symptom_group, rank, "
      "under_rule_id, confidence, confidence_before, catalog, admissible, confirming_held, confirming_total, summary, "
      "tense_reason, decider, confidence_steps) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)"));
  GPUF_ASSIGN_OR_RETURN(Statement against, db.Prepare(
      "INSERT INTO diagnosis_against (diagnosis_id, ordinal, effect, state, text, catalog, needs) "
      "VALUES (?,?,?,?,?,?,?)"));
  GPUF_ASSIGN_OR_RETURN(Statement evidence, db.Prepare(
      "INSERT INTO diagnosis_evidence (diagnosis_id, against_ordinal, ordinal, selection, artifact_id, line, time_ns, "
      "text, shows) VALUES (?,?,?,?,?,?,?,?,?)"));
  const DiagnosisEntry* leader = summary.diagnosis.Leader();
  for (const auto& e : summary.diagnosis.entries) {
    const Finding& f = *by_id.at(e.rule_id);
    row.Bind(1, bundle_id).Bind(2, e.rule_id);
    row.Bind(3, f.finding_id ? std::optional<int64_t>(f.finding_id) : std::nullopt);
    row.Bind(4, e.symptom).Bind(5, e.role).Bind(6, e.place).Bind(7, int64_t{e.group}).Bind(8, int64_t{e.rank});
    BindText(row, 9, e.under).Bind(10, Name(f.confidence)).Bind(11, Name(f.confidence_before)).Bind(12, f.catalog);
    row.Bind(13, f.admissible ? std::optional<int64_t>(*f.admissible ? 1 : 0) : std::nullopt);
    row.Bind(14, int64_t{f.confirming_held}).Bind(15, int64_t{f.confirming_total}).Bind(16, f.summary);
    BindText(row, 17, f.tense_reason);
    BindText(row, 18, &e == leader ? summary.diagnosis.decider : "");
    row.Bind(19, Join(f.confidence_steps, "; "));
    GPUF_RETURN_IF_ERROR(row.Run());
    const int64_t id = db.LastInsertId();
    int64_t ordinal = 0;
    for (const auto& a : f.against) {
      std::string needs;
      for (const auto& n : a.needs) needs += (needs.empty() ? "" : "; ") + n;
      against.Bind(1, id).Bind(2, ++ordinal).Bind(3, a.effect).Bind(4, a.state).Bind(5, a.text).Bind(6, a.catalog);
      BindText(against, 7, needs);
      GPUF_RETURN_IF_ERROR(against.Run());
      GPUF_RETURN_IF_ERROR(StoreRows(evidence, id, ordinal, a.evidence));
    }
    if (e.place == "ruled_out") GPUF_RETURN_IF_ERROR(StoreRows(evidence, id, std::nullopt, f.evidence));
  }
  return Status::Ok();
}

}  // namespace

Status StoreRuleResults(Database& db, int64_t bundle_id, RuleRunSummary& summary) {
  GPUF_RETURN_IF_ERROR(ClearBundle(db, bundle_id));
  GPUF_ASSIGN_OR_RETURN(Statement run, db.Prepare("INSERT INTO rule_runs (bundle_id, rule_id, outcome, reason, "
                                                  "elapsed_ns) VALUES (?,?,?,?,?)"));
  for (const auto& r : summary.runs) {
    run.Bind(1, bundle_id).Bind(2, r.rule_id).Bind(3, Name(r.outcome)).Bind(4, r.reason).Bind(5, r.elapsed_ns);
    GPUF_RETURN_IF_ERROR(run.Run());
  }
  GPUF_RETURN_IF_ERROR(StoreFindings(db, bundle_id, summary.findings));
  return StoreDiagnosis(db, bundle_id, summary);
}

}  // namespace gpuf
