// Progress of a long analysis, for a caller that wants to show it (the CLI
// on a terminal). Called before each member is loaded and at each phase,
// never per line, so a callback costs nothing measurable.
#ifndef GPUF_ANALYZER_LOAD_LOAD_PROGRESS_H_
#define GPUF_ANALYZER_LOAD_LOAD_PROGRESS_H_

#include <cstdint>
#include <functional>
#include <string>

namespace gpuf {

struct LoadProgress {
  const char* phase = "loading";       // "loading" | "timeline" | "rules"
  int64_t compressed_bytes_read = 0;   // of the bundle file, so far
  int64_t compressed_bytes_total = 0;  // the bundle file's size; 0 when unknown
  int64_t members_loaded = 0;          // the one being loaded included
  int64_t members_total = 0;           // the manifest's members
  std::string artifact;                // logical name of the one being loaded, "" between phases
  int64_t artifact_bytes = 0;          // its size
};

using LoadProgressFn = std::function<void(const LoadProgress&)>;

}  // namespace gpuf

#endif  // GPUF_ANALYZER_LOAD_LOAD_PROGRESS_H_
