// `gpuforensics redact IN OUT`: an existing bundle, redacted offline.
//
// The input is read twice, member by member, never whole: once to verify
// every member against its manifest and learn the names it holds, once to
// redact each member into a staging directory beside the output. Then the
// bundle is written like a collected one (manifest first, new sizes and
// hashes, temporary file renamed into place) and the map file saved with the
// provenance: the input's sha256 and every original member hash. Memory use
// does not grow with the bundle: one line and one chunk at a time, plus the
// map of originals.
#ifndef GPUF_COLLECTOR_REDACT_BUNDLE_REDACTOR_H_
#define GPUF_COLLECTOR_REDACT_BUNDLE_REDACTOR_H_

#include <string>
#include <vector>

#include "collector/redact/redaction.h"
#include "common/manifest.h"
#include "common/status.h"

namespace gpuf {

struct BundleRedactionOutcome {
  Manifest manifest;                   // the redacted bundle's
  std::string map_path;
  RedactionCounts totals;              // this run's replacements, over every artifact
  std::vector<std::string> dropped;    // members the manifest does not name
};

// Fails with InvalidArgument (OUT is IN, bad options), BadInput (not a
// bundle, a member that does not match its manifest: redacting would launder
// it) or IoError. On failure neither the output nor a staging file is left.
Result<BundleRedactionOutcome> RedactBundle(const std::string& input, const std::string& output,
                                            const RedactOptions& options);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_REDACT_BUNDLE_REDACTOR_H_
