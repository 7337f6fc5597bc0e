// Everything analyze does before reporting, in order: load the bundle into
// the database, build the timeline, run the rules. The commands that read a
// bundle start here, so they see the same rows.
#ifndef GPUF_ANALYZER_ANALYSIS_H_
#define GPUF_ANALYZER_ANALYSIS_H_

#include <string>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/load/loader.h"
#include "analyzer/rules/rule_engine.h"

namespace gpuf {

// What PrepareBundle builds: every table analyze reads, or only what the
// milestones timeline shows (its events and intervals): journal entries
// that cannot mark a milestone are not stored, and timeline_warnings stays
// empty.
enum class Preparation { kEverything, kMilestones };

// Load and timeline, no rules (for callers that run rules their own way).
// Fails as LoadBundle does (unreadable bundle) or when the database does.
// `progress`, when set, hears after each member and at each phase.
Result<LoadResult> PrepareBundle(const std::string& bundle_path, Database& db, const LoadProgressFn& progress = {},
                                 Preparation what = Preparation::kEverything);

struct Analysis {
  LoadResult loaded;
  RuleRunSummary rules;
};

// PrepareBundle, then the built-in rules and those in `extra_rule_dirs`.
Result<Analysis> AnalyzeBundle(const std::string& bundle_path, Database& db,
                               const std::vector<std::string>& extra_rule_dirs = {},
                               const LoadProgressFn& progress = {});

}  // namespace gpuf

#endif  // GPUF_ANALYZER_ANALYSIS_H_
