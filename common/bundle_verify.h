// `gpuforensics verify` as a function: every member of a bundle checked
// against its manifest (size and sha256), nothing kept in memory but the
// counts. verify prints the result; kubectl-gpuforensics checks each bundle
// it streams back from a node with it before giving it its final name.
#ifndef GPUF_COMMON_BUNDLE_VERIFY_H_
#define GPUF_COMMON_BUNDLE_VERIFY_H_

#include <string>
#include <vector>

#include "common/bundle_reader.h"
#include "common/manifest.h"
#include "common/status.h"

namespace gpuf {

struct BundleVerification {
  int expected = 0;  // members the manifest names
  int verified = 0;  // of them, present with the size and hash it says
  std::vector<IntegrityIssue> issues;
  std::string node;  // the manifest's node name
  std::string id;    // BundleId of the manifest
  bool complete = true;
  std::string incomplete_reason;
};

// Fails as ReadBundle does (BadInput, Unsupported) when `path` is not a
// readable bundle; mismatches are `issues`, not failures.
Result<BundleVerification> VerifyBundle(const std::string& path);

}  // namespace gpuf

#endif  // GPUF_COMMON_BUNDLE_VERIFY_H_
