// The questions asked of a fleet database (schema/fleet/): the summary
// across nodes (fleet_summary.h) and the nodes with one finding.
#ifndef GPUF_ANALYZER_FLEET_FLEET_QUERIES_H_
#define GPUF_ANALYZER_FLEET_FLEET_QUERIES_H_

#include <string>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/fleet/fleet_summary.h"
#include "common/status.h"

namespace gpuf {

// Fails with BadInput when `db` is not a fleet database, Internal when a
// query fails.
Result<FleetSummary> SummarizeFleet(Database& db, double within_seconds);

// Nodes with a finding of `rule_id`, by name. BadInput as above.
Result<std::vector<std::string>> FleetNodesWithFinding(Database& db, const std::string& rule_id);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_FLEET_FLEET_QUERIES_H_
