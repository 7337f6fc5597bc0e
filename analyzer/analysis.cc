#include "analyzer/analysis.h"

#include "analyzer/timeline.h"

namespace gpuf {

Result<LoadResult> AnalyzeBundle(const std::string& bundle_path, Database& db) {
  GPUF_ASSIGN_OR_RETURN(LoadResult loaded, LoadBundle(bundle_path, db));
  GPUF_RETURN_IF_ERROR(db.Exec("BEGIN"));
  GPUF_RETURN_IF_ERROR(BuildTimeline(db, loaded.bundle_id));
  GPUF_RETURN_IF_ERROR(db.Exec("COMMIT"));
  return loaded;
}

}  // namespace gpuf
