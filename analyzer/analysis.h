// Everything analyze does before reporting, in order: load the bundle into
// the database, build the timeline, run the rules. The commands that read a
// bundle (analyze, sql, timeline) all start here, so they see the same rows.
#ifndef GPUF_ANALYZER_ANALYSIS_H_
#define GPUF_ANALYZER_ANALYSIS_H_

#include <string>

#include "analyzer/database.h"
#include "analyzer/loader.h"

namespace gpuf {

// Fails as LoadBundle does (unreadable bundle) or when the database does.
Result<LoadResult> AnalyzeBundle(const std::string& bundle_path, Database& db);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_ANALYSIS_H_
