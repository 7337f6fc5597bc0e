#include "analyzer/analysis.h"

#include "analyzer/rules/rule_loader.h"
#include "analyzer/timeline.h"

namespace gpuf {

namespace {

void Phase(const LoadProgressFn& progress, const char* phase) {
  if (!progress) return;
  LoadProgress p;
  p.phase = phase;
  progress(p);
}

// The time indexes of the tables that take a row per log line are built
// once, after every row is written: kept up row by row they cost random
// B-tree writes (schema/*.sql still declares them). The timeline reads the
// journal's index to drop duplicate entries, so it is built before.
constexpr std::string_view kLoadIndexes[] = {"journal_by_time", "log_lines_by_time"};

}  // namespace

Result<LoadResult> PrepareBundle(const std::string& bundle_path, Database& db, const LoadProgressFn& progress) {
  GPUF_ASSIGN_OR_RETURN(std::vector<std::string> after_load, db.DropIndexes(kLoadIndexes));
  GPUF_ASSIGN_OR_RETURN(LoadResult loaded, LoadBundle(bundle_path, db, progress));
  Phase(progress, "timeline");
  GPUF_RETURN_IF_ERROR(db.Exec("BEGIN"));
  for (const auto& create : after_load) GPUF_RETURN_IF_ERROR(db.Exec(create));
  GPUF_RETURN_IF_ERROR(BuildTimeline(db, loaded.bundle_id));
  GPUF_RETURN_IF_ERROR(db.Exec("COMMIT"));
  return loaded;
}

Result<Analysis> AnalyzeBundle(const std::string& bundle_path, Database& db,
                               const std::vector<std::string>& extra_rule_dirs, const LoadProgressFn& progress) {
  Analysis analysis;
  GPUF_ASSIGN_OR_RETURN(analysis.loaded, PrepareBundle(bundle_path, db, progress));
  Phase(progress, "rules");
  std::vector<std::string> dirs = {BuiltinRulesDir()};
  dirs.insert(dirs.end(), extra_rule_dirs.begin(), extra_rule_dirs.end());
  GPUF_ASSIGN_OR_RETURN(analysis.rules, RunRules(db, analysis.loaded.bundle_id, dirs));
  return analysis;
}

}  // namespace gpuf
