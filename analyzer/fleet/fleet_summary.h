// What a fleet database (schema/fleet/) says across nodes: how many nodes
// have each finding, each failed chain step, each component version, and how
// the key intervals of the boot at capture spread ("how many nodes started
// the plugin within 2 s of the driver"). Nodes are distinct node_name values
// of analyzed bundles (a bundle without one counts by its path). Values
// only: fleet_queries.h reads them from the database.
#ifndef GPUF_ANALYZER_FLEET_FLEET_SUMMARY_H_
#define GPUF_ANALYZER_FLEET_FLEET_SUMMARY_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuf {

struct FleetFindingCount {
  std::string rule_id;
  std::string severity;  // the most severe the rule reported on any node
  int64_t nodes = 0;
};

struct FleetStepCount {
  int64_t step_number = 0;
  std::string step_name;
  int64_t failed_nodes = 0;
  int64_t unknown_nodes = 0;
};

struct FleetVersionCount {
  std::string component;
  std::string version;
  int64_t nodes = 0;
};

struct FleetIntervalSpread {
  std::string name;
  int64_t nodes = 0;         // nodes whose boot at capture has the interval
  int64_t negative = 0;      // of those, the later milestone came first
  int64_t within = 0;        // 0 <= seconds <= within_seconds
  double min_seconds = 0;
  double median_seconds = 0;
  double max_seconds = 0;
};

// The detection delays of the nodes whose bundles hold the metrics store's
// record of a drop, by cluster (the kube-system Namespace's UID) and cause
// (the leading finding): one value per node, its latest bundle's.
struct FleetDetectionGroup {
  std::string cluster_uid;  // "" when the cluster was not read
  std::string cause_rule;   // "" when no finding led
  int64_t nodes = 0;
  std::optional<double> median_cause_to_drop_s;  // nullopt: no node's cause was timed
  std::optional<double> median_drop_to_alert_s;  // nullopt: no alert fired on any of them
  int64_t without_alert = 0;                     // nodes whose drop no alert followed
};

struct FleetSummary {
  int64_t bundles = 0;
  int64_t analyzed = 0;
  int64_t nodes = 0;
  int64_t with_gaps = 0;  // analyzed, but incomplete or with members missing or damaged
  double within_seconds = 0;
  std::vector<FleetFindingCount> findings;  // most nodes first, then rule id
  std::vector<FleetStepCount> steps;        // chain order; only steps failed or unknown somewhere
  std::vector<FleetVersionCount> versions;  // by component, then most nodes first
  std::vector<FleetIntervalSpread> intervals;  // by name
  std::vector<FleetDetectionGroup> detections;  // by cluster, then cause
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_FLEET_FLEET_SUMMARY_H_
