#include "analyzer/render/render_json.h"

#include <nlohmann/json.hpp>

#include "analyzer/render/report_lines.h"
#include "common/json_bytes.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

using Json = nlohmann::ordered_json;

Json Nullable(const std::string& s) { return s.empty() ? Json(nullptr) : Json(s); }

template <typename T>
Json Nullable(const std::optional<T>& v) {
  return v ? Json(*v) : Json(nullptr);
}

Json EvidenceJson(const std::vector<FindingEvidence>& rows) {
  Json evidence = Json::array();
  for (const auto& e : rows) {
    evidence.push_back({{"artifact", Nullable(e.artifact)},
                        {"line", Nullable(e.line)},
                        {"time", e.time_ns ? Json(FormatRfc3339Utc(*e.time_ns)) : Json(nullptr)},
                        {"text", e.text},
                        {"shows", e.shows}});
  }
  return evidence;
}

Json AgainstJson(const Finding& f) {
  Json out = Json::array();
  for (const auto& a : f.against) {
    out.push_back({{"text", a.text},
                   {"effect", a.effect},
                   {"state", a.state},
                   {"catalog", a.catalog},
                   {"needs", a.needs},
                   {"evidence", EvidenceJson(a.evidence)}});
  }
  return out;
}

Json FindingJson(const Finding& f) {
  Json references = Json::array();
  for (const auto& r : f.references) {
    references.push_back({{"kind", r.kind}, {"url", r.url}, {"title", Nullable(r.title)}});
  }
  return {{"id", f.rule_id},
          {"title", f.title},
          {"severity", Name(f.severity)},
          {"confidence", Name(f.confidence)},
          {"summary", f.summary},
          {"evidence", EvidenceJson(f.evidence)},
          {"missing_evidence", f.missing_evidence},
          {"remediation", f.remediation},
          {"gpus", f.gpus},
          {"references", references},
          {"symptom", f.symptom},
          {"role", f.role},
          {"tense", Name(f.tense)},
          {"tense_reason", Nullable(f.tense_reason)},
          {"confidence_before", Name(f.confidence_before)},
          {"confidence_steps", f.confidence_steps},
          {"catalog", f.catalog},
          {"admissible", Nullable(f.admissible)},
          {"confirming", {{"held", f.confirming_held}, {"total", f.confirming_total}}},
          {"against", AgainstJson(f)}};
}

// The detection delay: the moments on the node's clock, and the spans
// between them in seconds (null where a moment is unknown).
Json DetectionJson(const Detection& d) {
  const auto at = [](std::optional<int64_t> ns) { return ns ? Json(FormatRfc3339Utc(*ns)) : Json(nullptr); };
  const auto seconds = [](std::optional<int64_t> from, std::optional<int64_t> to) {
    return from && to ? Json(static_cast<double>(*to - *from) / 1e9) : Json(nullptr);
  };
  return {{"cause_rule", Nullable(d.cause_rule)},
          {"cause_at", at(d.cause_ns)},
          {"drop", d.drop},
          {"dropped_at", at(d.dropped_ns)},
          {"alert", Nullable(d.alert)},
          {"alert_at", at(d.alert_ns)},
          {"cause_to_drop_s", seconds(d.cause_ns, d.dropped_ns)},
          {"drop_to_alert_s", seconds(d.dropped_ns, d.alert_ns)}};
}

Json DiagnosisJson(const Report& r) {
  Json entries = Json::array();
  for (const auto& e : r.diagnosis.entries) {
    entries.push_back({{"id", e.rule_id},
                       {"symptom", e.symptom},
                       {"role", e.role},
                       {"place", e.place},
                       {"group", e.group},
                       {"rank", e.rank},
                       {"under", Nullable(e.under)}});
  }
  Json ruled_out = Json::array();
  for (const auto& f : r.ruled_out) ruled_out.push_back(FindingJson(f));
  const DiagnosisEntry* leader = r.diagnosis.Leader();
  const NextAction& next = r.next_action;
  return {{"root_cause", leader && leader->place == "root_cause" ? Json(leader->rule_id) : Json(nullptr)},
          {"leader", leader ? Json(leader->rule_id) : Json(nullptr)},
          {"headline", ChainVerdictLine(r)},
          {"decider", Nullable(r.diagnosis.decider)},
          {"next_action",
           {{"kind", Nullable(next.kind)},
            {"rule", Nullable(next.rule_id)},
            {"text", Nullable(next.text)},
            {"command", Nullable(next.command)}}},
          {"entries", entries},
          {"ruled_out", ruled_out}};
}

Json ChainJson(const Report& r) {
  Json steps = Json::array();
  int number = 0;
  for (const auto& s : r.verdict) {
    steps.push_back({{"step", ++number},
                     {"name", s.name},
                     {"status", Word(s.status)},
                     {"detail", Nullable(s.detail)},
                     {"evidence", Nullable(s.evidence)},
                     {"missing", Nullable(s.missing)}});
  }
  return steps;
}

Json TimelineJson(const Report& r) {
  Json milestones = Json::array();
  for (const auto& m : r.milestones) {
    milestones.push_back({{"datetime", FormatRfc3339Utc(m.time_ns)},
                          {"milestone", m.milestone_name()},
                          {"boot_offset", Nullable(m.boot_offset)},
                          {"since_boot_seconds", m.since_boot_ns ? Json(*m.since_boot_ns / 1e9) : Json(nullptr)},
                          {"source", m.source},
                          {"time_source", m.time_source},
                          {"artifact", Nullable(m.artifact)},
                          {"line", Nullable(m.line)},
                          {"message", m.message}});
  }
  Json intervals = Json::array();
  for (const auto& i : r.intervals) {
    intervals.push_back({{"boot_offset", i.boot_offset}, {"name", i.name}, {"seconds", i.seconds}});
  }
  Json timeline = {{"milestones", milestones}, {"intervals", intervals}};
  if (r.node_events_since_ns) timeline["node_events_since"] = FormatRfc3339Utc(*r.node_events_since_ns);
  if (const auto& d = r.plugin_rollout) {
    timeline["plugin_daemonset"] = {{"name", d->name},
                                    {"generation", Nullable(d->generation)},
                                    {"observed_generation", Nullable(d->observed_generation)},
                                    {"desired", Nullable(d->desired)},
                                    {"updated", Nullable(d->updated)},
                                    {"available", Nullable(d->available)},
                                    {"unavailable", Nullable(d->unavailable)},
                                    {"update_strategy", Nullable(d->update_strategy)},
                                    {"line", RolloutLine(*d)}};
  }
  return timeline;
}

Json NotesJson(const std::vector<ArtifactNote>& notes) {
  Json out = Json::array();
  for (const auto& n : notes) out.push_back({{"artifact", n.artifact}, {"note", n.note}});
  return out;
}

Json VersionsJson(const Report& r) {
  Json out = Json::array();
  for (const auto& v : r.versions) {
    out.push_back({{"component", v.component}, {"version", v.version}, {"artifact", v.artifact}});
  }
  return out;
}

}  // namespace

std::string RenderJson(const Report& r) {
  Json findings = Json::array();
  for (const auto& f : r.findings) findings.push_back(FindingJson(f));
  Json skipped = Json::array();
  for (const auto& run : r.rule_runs) {
    if (RuleNotEvaluated(run)) {
      skipped.push_back({{"id", run.rule_id}, {"outcome", Name(run.outcome)}, {"reason", run.reason}});
    }
  }
  Json doc = {
      {"format", "gpuforensics-report"},
      {"format_version", kReportJsonVersion},
      {"bundle",
       {{"path", r.bundle_path},
        {"node", Nullable(r.node)},
        {"node_zone", Nullable(r.node_zone)},
        {"collected_at", FormatRfc3339Utc(r.collected_at_ns)},
        {"tool_version", r.tool_version},
        {"complete", r.complete},
        {"incomplete_reason", Nullable(r.incomplete_reason)},
        {"integrity_issues", r.integrity_issues},
        {"redacted_by", Nullable(r.redacted_by)}}},
      {"chain", ChainJson(r)},
      {"findings", findings},
      {"diagnosis", DiagnosisJson(r)},
      {"rules_not_evaluated", skipped},
      {"timeline", TimelineJson(r)},
      {"coverage",
       {{"artifacts_total", r.artifacts_total},
        {"artifacts_ok", r.artifacts_ok},
        {"artifacts_failed", r.artifacts_failed},
        {"artifacts_skipped", r.artifacts_skipped},
        {"parse_warnings", r.parse_warnings},
        {"timeline_warnings", r.timeline_warnings},
        {"problems", r.coverage},
        {"artifacts_timed_out", r.artifacts_timed_out},
        {"empty", NotesJson(r.empty)},
        {"truncated", NotesJson(r.truncated)},
        {"unparsed", NotesJson(r.unparsed)},
        {"input_kind", r.input_kind},
        {"input_source", Nullable(r.input_source)},
        {"cannot_show", r.cannot_show}}},
      {"chain_summary", ChainVerdictLine(r)},
      {"versions", VersionsJson(r)},
  };
  if (r.detection) doc["detection"] = DetectionJson(*r.detection);
  // Only bundles that record how the Node was named carry it.
  if (!r.node_identity.empty()) doc["bundle"]["node_identity"] = r.node_identity;
  // Collected bundles only: an import's manifest is this analysis's own.
  if (!r.bundle_id.empty()) doc["bundle"]["id"] = r.bundle_id;
  // Imported inputs only: what became of each file, and what the input cannot tell.
  if (!r.input_source.empty()) {
    Json files = Json::array();
    for (const auto& f : r.input_files) {
      files.push_back({{"path", f.path},
                       {"read_as", Nullable(f.read_as)},
                       {"artifacts", f.artifacts},
                       {"note", Nullable(f.note)},
                       {"not_read", Nullable(f.not_read)}});
    }
    doc["coverage"]["input_files"] = files;
    doc["coverage"]["capture_next"] = r.capture_next;
    Json cannot = Json::array();
    for (const auto& c : r.cannot_tell) {
      cannot.push_back({{"captures", c.captures}, {"command", c.command}, {"rules", c.rules},
                        {"would_confirm", c.would_confirm}});
    }
    doc["cannot_tell"] = cannot;
  }
  return DumpJson(doc, 2, NonUtf8::kEscaped) + "\n";
}

}  // namespace gpuf
