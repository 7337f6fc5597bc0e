// The manifest of a bundle being written, assembled alike by `collect` and
// `import` (schema/bundle.md): the format's own fields first; then the
// artifacts in name and instance order, each stored stream named after the
// artifact's place (ArtifactMemberPath) and sized and hashed from the file
// that holds its bytes.
#ifndef GPUF_COLLECTOR_BUNDLE_MANIFEST_H_
#define GPUF_COLLECTOR_BUNDLE_MANIFEST_H_

#include <string>
#include <vector>

#include "collector/bundle_writer.h"
#include "collector/probe_runner.h"
#include "common/manifest.h"
#include "common/status.h"

namespace gpuf {

// format, format_version and tool; the caller fills host and collection.
Manifest NewBundleManifest(const std::string& tool_version);

// Sorts `artifacts` by name and instance, fills each output's member, size
// and sha256 from the staged file of its stream, appends the artifacts to
// `manifest` and returns the members to write. An output without a staged
// file is left as it is. Fails with IoError when a staged file cannot be
// read.
Result<std::vector<BundleMember>> AddStagedArtifacts(std::vector<ProbeResult>& artifacts, Manifest& manifest);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_BUNDLE_MANIFEST_H_
