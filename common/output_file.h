// The one way a command writes a file it is asked for (a bundle, a map, a
// database, the watch state): evidence is never destroyed on the way.
//
//   GPUF_RETURN_IF_ERROR(CheckOutputPath(path, replace));  // before any work
//   GPUF_ASSIGN_OR_RETURN(OutputFile out, OutputFile::Create(path, replace));
//   ... write to out.fd() or out.temp_path() ...
//   GPUF_RETURN_IF_ERROR(out.Publish(0644));
//
// 1. The file is made new beside its target, under a random name, with
//    O_CREAT|O_EXCL|O_NOFOLLOW and mode 0600: a planted symlink or file at a
//    predictable name is never followed or truncated, and nobody else reads
//    it while it is written (an unredacted map, a half bundle).
// 2. Publish() syncs it, sets its mode and moves it to the target with
//    renameat2(RENAME_NOREPLACE) (link + unlink where the file system lacks
//    it): nothing at the target is replaced unless `replace` allows it, and
//    then only a regular file, never a device, FIFO, socket, directory or
//    symlink (`-o /dev/null` stays /dev/null).
// 3. An OutputFile destroyed unpublished removes its file, as a signal does
//    (signal_cleanup.h).
#ifndef GPUF_COMMON_OUTPUT_FILE_H_
#define GPUF_COMMON_OUTPUT_FILE_H_

#include <sys/types.h>

#include <string>

#include "common/status.h"

namespace gpuf {

enum class Replace {
  kNever,        // the target must not exist
  kRegularFile,  // a regular file at the target may be replaced (--force)
};

// Exists when `path` exists and `replace` does not allow replacing it:
//   "output 'P' exists: name a new file, or pass --force to replace it"
//   "output 'P' is a FIFO: only a regular file is ever replaced"
// `what` replaces "output" in the message ("--db", "--map").
Status CheckOutputPath(const std::string& path, Replace replace, const std::string& what = "output");

// InvalidArgument when `output` names the same file as `input` (any spelling,
// a hard link included): "the output is the input 'IN': never replaced".
Status CheckNotInput(const std::string& output, const std::string& input);

// Moves `from` to `to` unless something is at `to` (Exists then, and both
// stay as they are): for a file written elsewhere and published late.
Status MoveNoReplace(const std::string& from, const std::string& to);

// "a FIFO", "a directory", ... for the file type bits of st_mode.
std::string FileTypeName(mode_t mode);

class OutputFile {
 public:
  // IoError when the directory refuses a new file; Exists as CheckOutputPath.
  static Result<OutputFile> Create(const std::string& path, Replace replace, const std::string& what = "output");

  OutputFile(OutputFile&& other) noexcept;
  OutputFile& operator=(OutputFile&&) = delete;
  OutputFile(const OutputFile&) = delete;
  ~OutputFile();

  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  const std::string& temp_path() const { return temp_path_; }

  // Writes all of `data` at the current offset; IoError names the target.
  Status Write(std::string_view data);
  // See 2. above. Exists when something took the target meanwhile; IoError
  // when the disk refuses. The file is closed either way.
  Status Publish(mode_t mode);

 private:
  OutputFile() = default;
  void Discard();

  std::string path_, temp_path_, what_;
  std::string dir_, base_, temp_base_;
  Replace replace_ = Replace::kNever;
  int dir_fd_ = -1;
  int fd_ = -1;
  int cleanup_slot_ = -1;
};

}  // namespace gpuf

#endif  // GPUF_COMMON_OUTPUT_FILE_H_
