// `collect --redact`: the staged outputs are redacted on the node, before
// they are hashed and written, so no original ever reaches the bundle.
#ifndef GPUF_COLLECTOR_REDACT_COLLECT_REDACTION_H_
#define GPUF_COLLECTOR_REDACT_COLLECT_REDACTION_H_

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "collector/probe_runner.h"
#include "collector/redact/redaction.h"
#include "common/manifest.h"

namespace gpuf {

// What a redacted collection still has to record once the bundle is named.
struct CollectedRedaction {
  std::unique_ptr<RedactionRun> run;
  nlohmann::json streams;  // provenance: each stream's original and redacted size and hash
};

// Learns from and rewrites every staged output of `results` in place, fills
// each artifact's redaction_counts, redacts the host fields of `manifest` and
// records the run in manifest.redaction. Fails like RedactionRun::Open, or
// with IoError.
Result<CollectedRedaction> RedactCollected(const RedactOptions& options, Manifest& manifest,
                                           std::vector<ProbeResult>& results);

// Saves the map (--map, else beside `bundle_path`) with the provenance. The
// bundle is named after the redacted node, so this comes once the name is known.
Status SaveCollectedRedaction(CollectedRedaction& redaction, const RedactOptions& options,
                              const std::string& bundle_path);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_REDACT_COLLECT_REDACTION_H_
