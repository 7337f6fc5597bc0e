// The files of another tool's capture (a directory, a tar archive, or one
// compressed log), read into memory once and safely.
//
// Inputs come from strangers: a member name that is absolute or climbs out
// with "..", a device, FIFO or socket, a file past the size limit, or an
// archive or stream that decompresses past the total limit fails the whole
// read with BadInput naming the path. Symbolic links are never followed
// while reading; a wanted path whose link leads outside the input fails
// when it is looked up. Nothing is ever written.
#ifndef GPUF_IMPORTER_SOURCE_TREE_H_
#define GPUF_IMPORTER_SOURCE_TREE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "common/status.h"

namespace gpuf {

struct SourceLimits {
  int64_t max_file_bytes = 256LL << 20;    // one wanted file, after decompression
  int64_t max_total_bytes = 4LL << 30;     // everything decompressed from one input
  int64_t max_kept_bytes = 1LL << 30;      // the wanted files held in memory together
  int64_t max_entries = 500000;
};

// Wanted paths (relative, '/'-separated) are kept in memory; others are
// only checked and skipped.
using WantPath = std::function<bool(std::string_view path)>;

class SourceTree {
 public:
  // The bytes of `path`, following links that stay inside the tree.
  // NotFound when absent (or a dangling link); BadInput when a link leads out.
  Result<const std::string*> Find(const std::string& path) const;
  // The target of a link as stored ("" when `path` is not a link).
  std::string LinkTarget(const std::string& path) const;
  // Every kept regular file and every link, sorted.
  std::vector<std::string> Paths() const;
  int64_t mtime_ns(const std::string& path) const;
  // Every regular file seen, kept or not (to tell what kind of tree it is).
  const std::vector<std::string>& seen_files() const { return seen_files_; }

  // Used by the readers.
  void AddFile(std::string path, std::string bytes, int64_t mtime_ns);
  void AddLink(std::string path, std::string target);
  void AddSeen(std::string path) { seen_files_.push_back(std::move(path)); }
  // Drops a leading directory every path shares ("sosreport-x/sos_commands/..").
  void StripCommonTopDirectory();

 private:
  struct Entry {
    std::string bytes;
    std::string link_target;
    bool is_link = false;
    int64_t mtime_ns = 0;
  };
  std::map<std::string, Entry> entries_;
  std::vector<std::string> seen_files_;
};

// Fails as the header says, or with IoError when the directory cannot be walked.
Result<SourceTree> ReadDirectoryTree(const std::string& dir, const SourceLimits& limits, const WantPath& want);

// tar, optionally gzip/xz/zstd/bzip2-compressed.
Result<SourceTree> ReadArchiveTree(const std::string& path, const SourceLimits& limits, const WantPath& want);

// One file, decompressed when gzip (also several gzip members in a row, as
// nvidia-bug-report.sh appends them), xz or zstd; plain text as is.
Result<std::string> ReadMaybeCompressedFile(const std::string& path, const SourceLimits& limits);

// At most the first `max_bytes` of the file, decompressed: for telling kinds apart.
Result<std::string> ReadCompressedHead(const std::string& path, int64_t max_bytes);

// The same for bytes already in memory (a report inside a must-gather folder).
Result<std::string> DecompressBytes(std::string_view bytes, const std::string& name, const SourceLimits& limits);

// "a/../../b" and "/etc/x" escape; "a/./b" is "a/b". Empty when it escapes.
std::string NormalizeInsideTree(std::string_view path);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_SOURCE_TREE_H_
