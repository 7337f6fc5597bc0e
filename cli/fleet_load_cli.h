// `gpuforensics analyze --db FLEET B1 B2 ...`: more than one bundle goes to a
// fleet database (analyzer/fleet/fleet_load.h) instead of a report.
#ifndef GPUF_CLI_FLEET_LOAD_CLI_H_
#define GPUF_CLI_FLEET_LOAD_CLI_H_

#include <string>
#include <vector>

namespace gpuf {

// Prints one line per bundle that could not be analyzed and a last line of
// counts on stderr, the database path on stdout. Exit status 0 when every
// bundle was analyzed, 2 when some were not (they are fleet_bundles rows with
// their load_error), 64 without a database path, 74 when it cannot be written.
int RunFleetLoad(const std::vector<std::string>& bundles, const std::string& db_path,
                 const std::vector<std::string>& extra_rule_dirs, unsigned workers);

}  // namespace gpuf

#endif  // GPUF_CLI_FLEET_LOAD_CLI_H_
