// Loads a bundle into the analysis database (schema/*.sql).
//
// Streams the bundle once: the manifest becomes the bundles, artifacts and
// artifact_outputs rows; each member is dispatched to its parser by the
// artifact's logical name. Lines a parser cannot read become load_warnings.
#ifndef GPUF_ANALYZER_LOAD_LOADER_H_
#define GPUF_ANALYZER_LOAD_LOADER_H_

#include <string>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/load/load_context.h"
#include "analyzer/load/load_progress.h"
#include "common/bundle_reader.h"

namespace gpuf {

struct LoadResult {
  int64_t bundle_id = 0;
  Manifest manifest;
  std::vector<IntegrityIssue> integrity_issues;
};

// Fails when the bundle cannot be read at all (see ReadBundle) or the
// database refuses a write.
// `progress`, when set, hears after each member; `journal_filter`, when set,
// says which journal entries to store (LoadContext).
Result<LoadResult> LoadBundle(const std::string& bundle_path, Database& db, const LoadProgressFn& progress = {},
                              JournalEntryFilter journal_filter = nullptr);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_LOAD_LOADER_H_
