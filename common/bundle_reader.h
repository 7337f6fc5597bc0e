// Streams a bundle through libarchive without extracting anything to disk:
// the one reader of bundles, for analyze, verify, redact, diff, fleet, sql
// and timeline alike, with one set of limits.
//
// The manifest must be the first member. Every later member is checked
// against it (size and sha256) as it streams by and handed to the visitor
// with its artifact. Hostile input is expected: a FIFO or device given as
// the bundle is refused without being read (opened O_NONBLOCK, then fstat);
// absolute or ".." paths, links, devices, duplicates and members the
// manifest does not name are skipped with a warning before their data is
// read, and so is a member whose tar header already exceeds the member
// limit; the sizes their headers declare count towards the total limit, so
// a small bundle cannot make the reader decompress gigabytes it then
// ignores. Caps bound member size, total size, member count and so memory
// use.
#ifndef GPUF_COMMON_BUNDLE_READER_H_
#define GPUF_COMMON_BUNDLE_READER_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "common/manifest.h"
#include "common/status.h"

namespace gpuf {

struct BundleLimits {
  int64_t max_member_bytes = 512LL << 20;
  int64_t max_total_bytes = 8LL << 30;
  int64_t max_members = 100000;
  int64_t max_manifest_bytes = 64LL << 20;
};

// What the reader noticed about the bundle's integrity.
struct IntegrityIssue {
  std::string member;
  std::string problem;  // "sha256 mismatch", "missing from archive", ...
};

struct BundleReadProgress {
  int64_t compressed_bytes_read = 0;  // of the bundle file, so far
  int64_t members_read = 0;           // manifest members read, the one at hand included
  int64_t members_expected = 0;       // members the manifest names
  const ManifestArtifact* artifact = nullptr;  // the one about to be handed over
  int64_t member_bytes = 0;           // its size
};

// Receives one member's bytes in order as they are read, so that a large
// member (a journal slice) is never held whole: Chunk() any number of times,
// then End() once. `verified` is as for OnMember.
class MemberStream {
 public:
  virtual ~MemberStream() = default;
  virtual void Chunk(std::string_view bytes) = 0;
  virtual void End(bool verified) = 0;
};

class BundleVisitor {
 public:
  virtual ~BundleVisitor() = default;
  // Asked before a member within the limits is read: a stream for its bytes,
  // or nullptr to receive them whole in OnMember. The stream stays owned by
  // the visitor and is not used after End().
  virtual MemberStream* StreamMember(const ManifestArtifact&, const ManifestOutput&) { return nullptr; }
  // Called once, before any member. A non-OK status stops reading.
  virtual Status OnManifest(const Manifest& manifest) = 0;
  // Called for each member the manifest names, after its bytes were read
  // whole. `verified` is false when size or hash disagree with the manifest.
  virtual void OnMember(const ManifestArtifact& artifact, const ManifestOutput& output,
                        std::string bytes, bool verified) = 0;
  // Called before each OnMember with where the reader is; for progress
  // display only.
  virtual void OnProgress(const BundleReadProgress& /*progress*/) {}
  // Called once after the last member of a bundle read to its end, while
  // the manifest given to OnManifest (and every reference into it) is still
  // alive.
  virtual void OnEnd() {}
};

// Fails with BadInput (not a zstd tar, truncated, no manifest first, bad
// manifest) or Unsupported (newer format). Integrity problems are not
// failures: they are returned in `issues`.
Status ReadBundle(const std::string& path, const BundleLimits& limits, BundleVisitor& visitor,
                  std::vector<IntegrityIssue>& issues);

}  // namespace gpuf

#endif  // GPUF_COMMON_BUNDLE_READER_H_
