#include "analyzer/report/build_report.h"

#include <algorithm>
#include <cstdio>

#include "analyzer/query.h"
#include "analyzer/report/node_commands.h"
#include "analyzer/report/node_zone.h"
#include "analyzer/timeline/chain_verdict.h"
#include "analyzer/timeline/timeline_view.h"
#include "common/vocabulary.h"

namespace gpuf {

namespace {

Status AddCoverage(Database& db, int64_t bundle, Report& r) {
  GPUF_ASSIGN_OR_RETURN(r.coverage, QueryRows(db,
      "SELECT name, instance, status, coalesce(skip_reason, ''), coalesce(error, '') FROM artifacts "
      "WHERE bundle_id = :bundle AND status <> 'ok' ORDER BY status, name, instance", bundle,
      [](Statement& s) {
        std::string line = s.ColumnText(0) + (s.ColumnText(1).empty() ? "" : "[" + s.ColumnText(1) + "]") + ": " +
                           s.ColumnText(2);
        if (!s.ColumnText(3).empty()) line += " (" + s.ColumnText(3) + ")";
        if (!s.ColumnText(4).empty()) line += " " + s.ColumnText(4);
        return line;
      }));
  GPUF_ASSIGN_OR_RETURN(r.artifacts_total, QueryInt(db, "SELECT count(*) FROM artifacts WHERE bundle_id = :bundle",
                                                    bundle));
  GPUF_ASSIGN_OR_RETURN(r.artifacts_ok, QueryInt(db,
      "SELECT count(*) FROM artifacts WHERE bundle_id = :bundle AND status = 'ok'", bundle));
  GPUF_ASSIGN_OR_RETURN(r.artifacts_skipped, QueryInt(db,
      "SELECT count(*) FROM artifacts WHERE bundle_id = :bundle AND status = 'skipped'", bundle));
  r.artifacts_failed = r.artifacts_total - r.artifacts_ok - r.artifacts_skipped;
  GPUF_ASSIGN_OR_RETURN(r.parse_warnings, QueryInt(db,
      "SELECT count(*) FROM parse_warnings w LEFT JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle OR w.artifact_id IS NULL", bundle));
  GPUF_ASSIGN_OR_RETURN(r.timeline_warnings, QueryInt(db,
      "SELECT count(*) FROM timeline_warnings WHERE bundle_id = :bundle", bundle));
  return Status::Ok();
}

std::string ArtifactLabel(Statement& s, int name_column) {
  std::string instance = s.ColumnText(name_column + 1);
  return s.ColumnText(name_column) + (instance.empty() ? "" : "[" + instance + "]");
}

// What present artifacts failed to say: empty output, a cap that cut them,
// lines no parser could read.
Status AddArtifactNotes(Database& db, int64_t bundle, Report& r) {
  GPUF_ASSIGN_OR_RETURN(r.artifacts_timed_out, QueryInt(db,
      "SELECT count(*) FROM artifacts WHERE bundle_id = :bundle AND timed_out = 1", bundle));
  GPUF_ASSIGN_OR_RETURN(r.empty, QueryRows(db,
      "SELECT a.name, a.instance FROM artifacts a JOIN artifact_outputs o USING (artifact_id) "
      "WHERE a.bundle_id = :bundle AND a.status = 'ok' GROUP BY a.artifact_id "
      "HAVING sum(CASE WHEN o.stream <> 'stderr' THEN o.size_bytes ELSE 0 END) = 0 ORDER BY a.name, a.instance",
      bundle, [](Statement& s) { return ArtifactNote{ArtifactLabel(s, 0), "ran, but its output is empty"}; }));
  GPUF_ASSIGN_OR_RETURN(r.truncated, QueryRows(db,
      "SELECT a.name, a.instance, coalesce(sum(o.dropped_bytes), 0) FROM artifacts a "
      "LEFT JOIN artifact_outputs o ON o.artifact_id = a.artifact_id AND o.truncated = 1 "
      "WHERE a.bundle_id = :bundle AND a.truncated = 1 GROUP BY a.artifact_id ORDER BY a.name, a.instance",
      bundle, [](Statement& s) {
        return ArtifactNote{ArtifactLabel(s, 0), "cut by a collector cap, " + std::to_string(s.ColumnInt(2)) +
                                                     " bytes not stored"};
      }));
  GPUF_ASSIGN_OR_RETURN(r.unparsed, QueryRows(db,
      "SELECT a.name, a.instance, count(*) FROM parse_warnings w JOIN artifacts a USING (artifact_id) "
      "WHERE a.bundle_id = :bundle GROUP BY a.artifact_id ORDER BY a.name, a.instance",
      bundle, [](Statement& s) {
        int64_t n = s.ColumnInt(2);
        return ArtifactNote{ArtifactLabel(s, 0), std::to_string(n) + (n == 1 ? " line" : " lines") + " unparsed"};
      }));
  return Status::Ok();
}

// Component versions as read, plus the device plugin's image tag (what a
// vendor asks for first).
Status AddVersions(Database& db, int64_t bundle, Report& r) {
  GPUF_ASSIGN_OR_RETURN(r.versions, QueryRows(db,
      "WITH seen (component, version, artifact) AS ("
      "  SELECT v.component, v.version, a.name || CASE a.instance WHEN '' THEN '' ELSE '[' || a.instance || ']' END "
      "  FROM versions v JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle "
      "  UNION ALL SELECT 'nvidia-device-plugin image', c.image, "
      "  a.name || CASE a.instance WHEN '' THEN '' ELSE '[' || a.instance || ']' END "
      "  FROM containers c JOIN artifacts a USING (artifact_id) "
      "  WHERE c.bundle_id = :bundle AND c.is_plugin = 1 AND c.image IS NOT NULL) "
      "SELECT component, version, min(artifact) FROM seen GROUP BY component, version ORDER BY component, version",
      bundle, [](Statement& s) { return ReportedVersion{s.ColumnText(0), s.ColumnText(1), s.ColumnText(2)}; }));
  return Status::Ok();
}

// The leader's first step (a fix), else the best history finding's first
// step (recovery steps were already left out of those: a prevention); then
// every step's placeholders made exact for this node.
void AddNextAction(const NodeCommands& commands, Report& r) {
  const DiagnosisEntry* leader = r.diagnosis.Leader();
  const DiagnosisEntry* history = nullptr;
  for (const auto& e : r.diagnosis.entries) {
    if (e.place == "history" && !history) history = &e;
  }
  const DiagnosisEntry* chosen = leader ? leader : history;
  const Finding* f = chosen ? FindFinding(r, chosen->rule_id) : nullptr;
  if (f && !f->remediation.empty()) {
    r.next_action.kind = leader ? "fix" : "prevent";
    r.next_action.rule_id = f->rule_id;
    r.next_action.command = CommandOf(f->remediation.front(), commands);
    r.next_action.text = ExpandCommands(f->remediation.front(), commands, !r.next_action.command.empty());
  }
  for (auto* list : {&r.findings, &r.ruled_out}) {
    for (auto& finding : *list) {
      for (auto& step : finding.remediation) step = ExpandCommands(step, commands);
    }
  }
}

// The API server's default --event-ttl.
constexpr int64_t kEventTtlNs = 3600LL * 1000000000LL;

// Events read by collect at capture (not a file someone saved later) reach
// back about one default event TTL from the collection, or to the oldest
// event read where a longer TTL kept more.
Result<std::optional<int64_t>> NodeEventsSince(Database& db, int64_t bundle) {
  GPUF_ASSIGN_OR_RETURN(int64_t read, QueryInt(db,
                                               "SELECT count(*) FROM artifacts a JOIN bundles b USING (bundle_id) "
                                               "WHERE a.bundle_id = :bundle AND a.name = 'k8s.events' "
                                               "AND a.status = 'ok' AND b.origin_kind IS NULL",
                                               bundle));
  GPUF_ASSIGN_OR_RETURN(int64_t collected,
                        QueryInt(db, "SELECT collected_at_ns FROM bundles WHERE bundle_id = :bundle", bundle));
  if (read == 0) return std::optional<int64_t>();
  GPUF_ASSIGN_OR_RETURN(int64_t oldest, QueryInt(db,
                                                 "SELECT coalesce(min(e.last_seen_ns), 9223372036854775807) "
                                                 "FROM k8s_events e JOIN artifacts a USING (artifact_id) "
                                                 "WHERE a.bundle_id = :bundle AND a.name = 'k8s.events'",
                                                 bundle));
  return std::optional<int64_t>(std::min(collected - kEventTtlNs, oldest));
}

Result<std::optional<PluginRollout>> ReadPluginRollout(Database& db, int64_t bundle) {
  GPUF_ASSIGN_OR_RETURN(
      Statement s, db.Prepare("SELECT coalesce(d.namespace || '/', '') || d.name, d.generation, d.observed_generation, "
                              "d.desired, d.updated, "
                              "d.available, d.unavailable, coalesce(d.update_strategy, '') FROM daemonset_rollouts d "
                              "JOIN artifacts a USING (artifact_id) WHERE a.bundle_id = :bundle LIMIT 1"));
  s.BindNamed(":bundle", bundle);
  std::optional<PluginRollout> rollout;
  if (s.Step()) {
    const auto count = [&](int i) { return s.ColumnIsNull(i) ? std::nullopt : std::optional(s.ColumnInt(i)); };
    rollout =
        PluginRollout{s.ColumnText(0), count(1), count(2), count(3), count(4), count(5), count(6), s.ColumnText(7)};
  }
  GPUF_RETURN_IF_ERROR(s.status());
  return rollout;
}

std::string FormatCount(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", value);
  return text;
}

// The detection delay's three moments, when the store recorded a drop.
std::optional<Detection> DetectionOf(const ChainFacts& chain, const Report& r) {
  if (!chain.metrics || !chain.metrics->first_drop) return std::nullopt;
  const ChainFacts::Metrics& m = *chain.metrics;
  Detection d;
  d.drop = m.first_drop->resource + " allocatable " + FormatCount(m.first_drop->from) + " -> " +
           FormatCount(m.first_drop->to);
  d.dropped_ns = m.first_drop->at_ns;
  d.end_ns = m.end_ns;
  if (m.alert) {
    d.alert = m.alert->name;
    d.alert_ns = m.alert->fired_ns;
  }
  const DiagnosisEntry* leader = r.diagnosis.Leader();
  const Finding* f = leader ? FindFinding(r, leader->rule_id) : nullptr;
  if (!f) return d;
  d.cause_rule = f->rule_id;
  for (const auto& e : f->evidence) {
    if (e.shows == "event" && e.time_ns && (!d.cause_ns || *e.time_ns < *d.cause_ns)) d.cause_ns = e.time_ns;
  }
  return d;
}

}  // namespace

Result<Report> BuildReport(Database& db, const Analysis& analysis, const std::string& bundle_path) {
  const LoadResult& loaded = analysis.loaded;
  Report r;
  r.findings = analysis.rules.findings;
  r.ruled_out = analysis.rules.ruled_out;
  r.diagnosis = analysis.rules.diagnosis;
  r.rule_runs = analysis.rules.runs;
  const Manifest& m = loaded.manifest;
  const int64_t bundle = loaded.bundle_id;
  r.bundle_path = bundle_path;
  if (m.origin.kind.empty()) r.bundle_id = BundleId(m);
  r.node = m.node_name;
  r.node_identity = NodeIdentityLine(m);
  r.node_zone = NodeZoneName(db, bundle);
  r.collected_at_ns = m.started_at_unix_ns;
  r.tool_version = m.tool_version;
  r.complete = m.complete;
  r.incomplete_reason = m.incomplete_reason;
  if (!m.origin.kind.empty()) {
    r.input_kind = m.origin.kind;
    r.input_source = m.origin.source;
    r.cannot_show = m.origin.cannot_show;
    r.input_files = m.origin.inputs;
    r.capture_next = m.origin.capture_next;
    r.cannot_tell = ComputeCannotTell(r.rule_runs, r.findings);
  }
  if (m.redaction.redacted) r.redacted_by = m.redaction.by;
  for (const auto& issue : loaded.integrity_issues) r.integrity_issues.push_back(issue.member + ": " + issue.problem);
  GPUF_ASSIGN_OR_RETURN(ChainFacts chain, ReadChainFacts(db, bundle));
  r.verdict = JudgeChain(chain);
  r.detection = DetectionOf(chain, r);
  GPUF_ASSIGN_OR_RETURN(r.milestones, ReadTimeline(db, bundle, /*milestones_only=*/true));
  GPUF_ASSIGN_OR_RETURN(r.intervals, ReadIntervals(db, bundle));
  GPUF_ASSIGN_OR_RETURN(r.node_events_since_ns, NodeEventsSince(db, bundle));
  GPUF_ASSIGN_OR_RETURN(r.plugin_rollout, ReadPluginRollout(db, bundle));
  GPUF_RETURN_IF_ERROR(AddCoverage(db, bundle, r));
  GPUF_RETURN_IF_ERROR(AddArtifactNotes(db, bundle, r));
  GPUF_RETURN_IF_ERROR(AddVersions(db, bundle, r));
  GPUF_ASSIGN_OR_RETURN(NodeCommands commands, ReadNodeCommands(db, bundle));
  AddNextAction(commands, r);
  return r;
}

}  // namespace gpuf
