#include "cli/fleet_load_cli.h"

#include <chrono>
#include <cstdio>

#include "analyzer/fleet/fleet_load.h"
#include "cli/options.h"
#include "common/exit_codes.h"

namespace gpuf {

int RunFleetLoad(const std::vector<std::string>& bundles, const std::string& db_path,
                 const std::vector<std::string>& extra_rule_dirs, unsigned workers) {
  if (db_path.empty() || db_path == ":memory:") {
    return ReportFailure("analyze", Status::InvalidArgument("more than one bundle needs --db FLEET.sqlite",
                                                            "usage: gpuforensics analyze --db FLEET.sqlite B1 B2 ..."));
  }
  auto started = std::chrono::steady_clock::now();
  auto loaded = LoadFleet(db_path, {.bundles = bundles, .extra_rule_dirs = extra_rule_dirs, .workers = workers});
  if (!loaded.ok()) return ReportFailure("analyze", loaded.status());
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  for (const auto& error : loaded->not_loaded) {
    std::fprintf(stderr, "gpuforensics analyze: not analyzed: %s\n", error.message.c_str());
  }
  for (const auto& gap : loaded->gaps) {
    std::fprintf(stderr, "gpuforensics analyze: %s: %s\n", gap.path.c_str(), gap.message.c_str());
  }
  std::fprintf(stderr, "gpuforensics analyze: %zu of %zu bundles analyzed into %s in %.1f s, %zu BROKEN or with a "
               "finding at medium or above\n", loaded->loaded, bundles.size(), db_path.c_str(), seconds, loaded->broken);
  std::printf("%s\n", db_path.c_str());
  if (!loaded->not_loaded.empty()) return kExitBadInput;
  if (loaded->broken > 0) return kExitFindings;
  return loaded->gaps.empty() ? kExitOk : kExitIncomplete;
}

}  // namespace gpuf
