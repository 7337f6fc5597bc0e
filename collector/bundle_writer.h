// Writes a bundle: manifest first, then every staged output, as tar.zst.
//
// Entries are sorted and carry fixed owner, group, mode and mtime, so the
// same manifest and outputs always give the same bytes. The archive is
// written as an OutputFile (common/output_file.h): new beside the output,
// synced, then published without replacing anything `replace` does not
// allow, so a reader never sees half a bundle under the final name.
#ifndef GPUF_COLLECTOR_BUNDLE_WRITER_H_
#define GPUF_COLLECTOR_BUNDLE_WRITER_H_

#include <cstdint>
#include <string>
#include <vector>

#include "common/output_file.h"
#include "common/status.h"

namespace gpuf {

struct BundleMember {
  std::string member;        // path inside the archive
  std::string source_path;   // file on disk with the bytes
};

// `manifest_json` becomes the first member. `mtime_unix_s` is stamped on
// every entry. Fails with IoError, or Exists as CheckOutputPath; on failure
// no file is left behind.
Status WriteBundle(const std::string& output_path, const std::string& manifest_json,
                   std::vector<BundleMember> members, int64_t mtime_unix_s, Replace replace = Replace::kNever);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_BUNDLE_WRITER_H_
