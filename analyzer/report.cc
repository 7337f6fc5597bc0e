#include "analyzer/report.h"

#include "analyzer/display_zone.h"
#include "analyzer/query.h"

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

}  // namespace

std::string CapturedBy(const Report& report) {
  std::string by = "by gpuforensics " + report.tool_version;
  if (!report.input_source.empty()) by = "by " + report.input_kind + " '" + report.input_source + "', imported " + by;
  if (report.redacted_by == "collect") by += ", redacted on the node (collect --redact)";
  if (report.redacted_by == "redact") by += ", redacted afterwards (gpuforensics redact)";
  return by;
}

bool HasSeriousFinding(const Report& report) {
  for (const auto& f : report.findings) {
    if (f.severity == "critical" || f.severity == "high" || f.severity == "medium") return true;
  }
  return false;
}

Result<Report> BuildReport(Database& db, const Analysis& analysis, const std::string& bundle_path) {
  const LoadResult& loaded = analysis.loaded;
  Report r;
  r.findings = analysis.rules.findings;
  r.rule_runs = analysis.rules.runs;
  const Manifest& m = loaded.manifest;
  const int64_t bundle = loaded.bundle_id;
  r.bundle_path = bundle_path;
  r.node = m.node_name;
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
  GPUF_ASSIGN_OR_RETURN(r.verdict, ComputeChainVerdict(db, bundle));
  GPUF_ASSIGN_OR_RETURN(r.milestones, ReadTimeline(db, bundle, /*milestones_only=*/true));
  GPUF_ASSIGN_OR_RETURN(r.intervals, ReadIntervals(db, bundle));
  GPUF_RETURN_IF_ERROR(AddCoverage(db, bundle, r));
  GPUF_RETURN_IF_ERROR(AddArtifactNotes(db, bundle, r));
  GPUF_RETURN_IF_ERROR(AddVersions(db, bundle, r));
  return r;
}

}  // namespace gpuf
