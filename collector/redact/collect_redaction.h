// `collect --redact`: the staged outputs are redacted on the node, before
// they are hashed and written, so no original ever reaches the bundle.
#ifndef GPUF_COLLECTOR_REDACT_COLLECT_REDACTION_H_
#define GPUF_COLLECTOR_REDACT_COLLECT_REDACTION_H_

#include <string>
#include <vector>

#include "collector/probe_runner.h"
#include "collector/redact/redaction.h"
#include "common/manifest.h"

namespace gpuf {

// Learns from and rewrites every staged output of `results` in place, fills
// each artifact's redaction_counts, redacts the host fields of `manifest`,
// records the run in manifest.redaction and saves the map (provenance: the
// original hash of every stream). Fails like RedactionRun::Open, or IoError.
Status RedactCollected(const RedactOptions& options, const std::string& bundle_path, Manifest& manifest,
                       std::vector<ProbeResult>& results);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_REDACT_COLLECT_REDACTION_H_
