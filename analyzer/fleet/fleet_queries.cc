#include "analyzer/fleet/fleet_queries.h"

#include <algorithm>
#include <map>
#include "common/vocabulary.h"

namespace gpuf {

namespace {

// The node a bundle speaks for; two bundles of one node count once.
constexpr const char* kNode = "COALESCE(b.node_name, b.path)";

// A severity's place in Severity's order, the most severe 0.
constexpr const char* kSeverityRank =
    "coalesce((SELECT key FROM json_each($names(severity)) WHERE value = severity), 4)";

Status RequireFleetTables(Database& db) {
  GPUF_ASSIGN_OR_RETURN(Statement check, db.Prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                                                    "name IN ('fleet_bundles', 'fleet_findings', 'fleet_versions', "
                                                    "'fleet_intervals', 'fleet_chain_steps')"));
  if (!check.Step() || check.ColumnInt(0) != 5) {
    return Status::BadInput("not a fleet database",
                            "write one with: gpuforensics analyze --db FLEET.sqlite BUNDLE BUNDLE...");
  }
  return Status::Ok();
}

Status CountBundles(Database& db, FleetSummary& summary) {
  GPUF_ASSIGN_OR_RETURN(Statement count,
                        db.Prepare(std::string("SELECT count(*), count(*) FILTER (WHERE load_error IS NULL), "
                                               "count(*) FILTER (WHERE load_error IS NULL AND "
                                               "(complete = 0 OR integrity_issues > 0)), "
                                               "count(DISTINCT CASE WHEN load_error IS NULL THEN ") +
                                   kNode + " END) FROM fleet_bundles b"));
  if (count.Step()) {
    summary.bundles = count.ColumnInt(0);
    summary.analyzed = count.ColumnInt(1);
    summary.with_gaps = count.ColumnInt(2);
    summary.nodes = count.ColumnInt(3);
  }
  return count.status();
}

Status CountFindings(Database& db, FleetSummary& summary) {
  GPUF_ASSIGN_OR_RETURN(
      Statement select,
      db.Prepare(std::string("SELECT rule_id, min(") + kSeverityRank + "), count(DISTINCT " + kNode +
                 ") AS nodes FROM fleet_findings f JOIN fleet_bundles b USING (fleet_bundle_id) "
                 "GROUP BY rule_id ORDER BY 2, nodes DESC, rule_id"));  // most severe first
  while (select.Step()) {
    int64_t rank = std::clamp<int64_t>(select.ColumnInt(1), 0, static_cast<int64_t>(Severity::kInfo));
    summary.findings.push_back(
        {select.ColumnText(0), std::string(Name(static_cast<Severity>(rank))), select.ColumnInt(2)});
  }
  return select.status();
}

Status CountSteps(Database& db, FleetSummary& summary) {
  GPUF_ASSIGN_OR_RETURN(
      Statement select,
      db.Prepare(std::string("SELECT step_number, step_name, count(DISTINCT CASE WHEN status = 'failed' THEN ") +
                 kNode + " END), count(DISTINCT CASE WHEN status = 'unknown' THEN " + kNode +
                 " END) FROM fleet_chain_steps s JOIN fleet_bundles b USING (fleet_bundle_id) "
                 "GROUP BY step_number, step_name HAVING count(*) FILTER (WHERE status != 'ok') > 0 "
                 "ORDER BY step_number"));
  while (select.Step()) {
    summary.steps.push_back({select.ColumnInt(0), select.ColumnText(1), select.ColumnInt(2), select.ColumnInt(3)});
  }
  return select.status();
}

Status CountVersions(Database& db, FleetSummary& summary) {
  GPUF_ASSIGN_OR_RETURN(Statement select,
                        db.Prepare(std::string("SELECT component, version, count(DISTINCT ") + kNode +
                                   ") AS nodes FROM fleet_versions v JOIN fleet_bundles b USING (fleet_bundle_id) "
                                   "GROUP BY component, version ORDER BY component, nodes DESC, version"));
  while (select.Step()) {
    summary.versions.push_back({select.ColumnText(0), select.ColumnText(1), select.ColumnInt(2)});
  }
  return select.status();
}

// One value per node: a node with several bundles speaks through its latest.
Status SpreadIntervals(Database& db, FleetSummary& summary) {
  GPUF_ASSIGN_OR_RETURN(
      Statement select,
      db.Prepare(std::string("SELECT name, ") + kNode +
                 ", seconds FROM fleet_intervals i JOIN fleet_bundles b USING (fleet_bundle_id) "
                 "WHERE boot_offset = 0 ORDER BY name, b.collected_at_ns, i.rowid"));
  std::map<std::string, std::map<std::string, double>> by_name;  // name -> node -> seconds
  while (select.Step()) by_name[select.ColumnText(0)][select.ColumnText(1)] = select.ColumnDouble(2);
  GPUF_RETURN_IF_ERROR(select.status());
  for (const auto& [name, nodes] : by_name) {
    std::vector<double> seconds;
    for (const auto& [node, value] : nodes) seconds.push_back(value);
    std::sort(seconds.begin(), seconds.end());
    FleetIntervalSpread spread;
    spread.name = name;
    spread.nodes = static_cast<int64_t>(seconds.size());
    for (double s : seconds) {
      if (s < 0) ++spread.negative;
      if (s >= 0 && s <= summary.within_seconds) ++spread.within;
    }
    spread.min_seconds = seconds.front();
    spread.max_seconds = seconds.back();
    size_t half = seconds.size() / 2;
    spread.median_seconds = seconds.size() % 2 ? seconds[half] : (seconds[half - 1] + seconds[half]) / 2;
    summary.intervals.push_back(spread);
  }
  return Status::Ok();
}

std::optional<double> Median(std::vector<double> values) {
  if (values.empty()) return std::nullopt;
  std::sort(values.begin(), values.end());
  const size_t half = values.size() / 2;
  return values.size() % 2 ? values[half] : (values[half - 1] + values[half]) / 2;
}

// Fleet databases written before fleet_detections have none to group.
Status GroupDetections(Database& db, FleetSummary& summary) {
  GPUF_ASSIGN_OR_RETURN(Statement exists, db.Prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND "
                                                     "name = 'fleet_detections'"));
  if (!exists.Step() || exists.ColumnInt(0) == 0) return exists.status();
  GPUF_ASSIGN_OR_RETURN(
      Statement select,
      db.Prepare(std::string("SELECT coalesce(cluster_uid, ''), coalesce(cause_rule, ''), ") + kNode +
                 ", (dropped_at_ns - cause_at_ns) / 1e9, (alert_at_ns - dropped_at_ns) / 1e9 "
                 "FROM fleet_detections d JOIN fleet_bundles b USING (fleet_bundle_id) ORDER BY b.collected_at_ns"));
  struct Delays {
    std::string cluster, cause;
    std::optional<double> to_drop, to_alert;
  };
  std::map<std::string, Delays> latest;  // node -> its latest bundle's
  while (select.Step()) {
    Delays d{select.ColumnText(0), select.ColumnText(1), std::nullopt, std::nullopt};
    if (!select.ColumnIsNull(3)) d.to_drop = select.ColumnDouble(3);
    if (!select.ColumnIsNull(4)) d.to_alert = select.ColumnDouble(4);
    latest[select.ColumnText(2)] = d;
  }
  GPUF_RETURN_IF_ERROR(select.status());
  std::map<std::pair<std::string, std::string>, std::vector<const Delays*>> groups;
  for (const auto& [node, d] : latest) groups[{d.cluster, d.cause}].push_back(&d);
  for (const auto& [key, members] : groups) {
    FleetDetectionGroup g;
    g.cluster_uid = key.first;
    g.cause_rule = key.second;
    g.nodes = static_cast<int64_t>(members.size());
    std::vector<double> to_drop, to_alert;
    for (const Delays* d : members) {
      if (d->to_drop) to_drop.push_back(*d->to_drop);
      if (d->to_alert) to_alert.push_back(*d->to_alert);
      if (!d->to_alert) ++g.without_alert;
    }
    g.median_cause_to_drop_s = Median(to_drop);
    g.median_drop_to_alert_s = Median(to_alert);
    summary.detections.push_back(std::move(g));
  }
  return Status::Ok();
}

}  // namespace

Result<FleetSummary> SummarizeFleet(Database& db, double within_seconds) {
  GPUF_RETURN_IF_ERROR(RequireFleetTables(db));
  FleetSummary summary;
  summary.within_seconds = within_seconds;
  GPUF_RETURN_IF_ERROR(CountBundles(db, summary));
  GPUF_RETURN_IF_ERROR(CountFindings(db, summary));
  GPUF_RETURN_IF_ERROR(CountSteps(db, summary));
  GPUF_RETURN_IF_ERROR(CountVersions(db, summary));
  GPUF_RETURN_IF_ERROR(SpreadIntervals(db, summary));
  GPUF_RETURN_IF_ERROR(GroupDetections(db, summary));
  return summary;
}

Result<std::vector<std::string>> FleetNodesWithFinding(Database& db, const std::string& rule_id) {
  GPUF_RETURN_IF_ERROR(RequireFleetTables(db));
  GPUF_ASSIGN_OR_RETURN(Statement select,
                        db.Prepare(std::string("SELECT DISTINCT ") + kNode +
                                   " AS node FROM fleet_findings f JOIN fleet_bundles b USING (fleet_bundle_id) "
                                   "WHERE rule_id = ?1 ORDER BY node"));
  select.Bind(1, std::string_view(rule_id));
  std::vector<std::string> nodes;
  while (select.Step()) nodes.push_back(select.ColumnText(0));
  GPUF_RETURN_IF_ERROR(select.status());
  return nodes;
}

}  // namespace gpuf
