// Many bundles into one fleet database (schema/fleet/):
//
//   auto loaded = LoadFleet("fleet.sqlite", {.bundles = paths});
//
// Each bundle is analyzed as a single `analyze` would (load, timeline, the
// rules, the chain verdict), in its own in-memory database, by one of
// `workers` threads; the calling thread is the one writer that copies the
// rows compared across nodes into the fleet database and commits once.
// fleet_bundle_id is the bundle's position in `bundles`, so the result does
// not depend on the order the workers finish in.
#ifndef GPUF_ANALYZER_FLEET_FLEET_LOAD_H_
#define GPUF_ANALYZER_FLEET_FLEET_LOAD_H_

#include <cstddef>
#include <string>
#include <vector>

#include "common/status.h"

namespace gpuf {

struct FleetLoadOptions {
  std::vector<std::string> bundles;          // in command-line order
  std::vector<std::string> extra_rule_dirs;  // after the built-in pack
  unsigned workers = 0;                      // 0: one per CPU
};

struct FleetBundleError {
  std::string path;
  std::string message;  // as a single analyze would have said it
};

struct FleetLoadResult {
  size_t loaded = 0;
  std::vector<FleetBundleError> not_loaded;  // in command-line order
  size_t broken = 0;                         // chain BROKEN or a finding at medium or above
  std::vector<FleetBundleError> gaps;        // analyzed, but incomplete or with members missing or damaged
};

// A bundle that cannot be analyzed becomes a fleet_bundles row with its
// load_error, and loading goes on. Fails with Exists as DatabaseOutput
// (database.h) when `db_path` is not new or a fleet database this tool
// wrote, when the rules cannot be read (NotFound) or the fleet database
// cannot be written (IoError, Internal); then nothing is left at db_path.
Result<FleetLoadResult> LoadFleet(const std::string& db_path, const FleetLoadOptions& options);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_FLEET_FLEET_LOAD_H_
