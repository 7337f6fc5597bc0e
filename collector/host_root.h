// Read-only access to the host's files under a root directory.
//
// The collector sees the host either at "/" or, from a privileged pod or a
// test, under a directory such as /host. Every path is resolved inside that
// root (openat2 RESOLVE_IN_ROOT), so a symlink on the host cannot lead a read
// outside it. Devices, FIFOs and sockets are never opened: only regular files
// are read, everything else is only stat'ed.
#ifndef GPUF_COLLECTOR_HOST_ROOT_H_
#define GPUF_COLLECTOR_HOST_ROOT_H_

#include <sys/stat.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "collector/capped_file.h"
#include "common/host_files.h"
#include "common/status.h"

namespace gpuf {

struct DirEntryInfo {
  std::string path;         // host path, absolute ("/dev/nvidia0")
  struct stat st {};        // lstat result
  std::string link_target;  // for symlinks
};

// As HostFiles it answers what platform recognition and node identity ask;
// its Read refuses the paths collector/secrets.h forbids.
class HostRoot : public HostFiles {
 public:
  // Fails with NotFound when `root` is not a directory.
  static Result<HostRoot> Open(const std::string& root);
  HostRoot(HostRoot&& other) noexcept;
  HostRoot& operator=(HostRoot&&) = delete;
  ~HostRoot() override;

  const std::string& root() const { return root_; }
  // The host path as a path on this machine ("/host" + "/etc/hostname").
  std::string Outside(const std::string& host_path) const;

  // Where a path leads once its links are resolved inside the root, given
  // the file opened there (the host path of /proc/self/fd/N).
  using PathPolicy = bool (*)(std::string_view resolved_host_path);

  // Copies a regular file into `sink`. NotFound when absent; BadInput when it
  // is not a regular file; Unsupported when `refuse` says no to where the
  // path leads after its links (a checkpoint linked to a kubeconfig), before
  // a byte is read; IoError otherwise. In tail mode a file larger than the
  // sink's cap is read from its end.
  Status CopyFile(const std::string& host_path, CappedFile& sink, int64_t cap_bytes, KeepMode mode,
                  PathPolicy refuse = nullptr) const;
  // CopyFile in two halves, for a read that must not hold the caller: the
  // file opened (and refused, and positioned) as CopyFile does, then read to
  // its end into `sink` and closed, which touches nothing of this HostRoot.
  Result<int> OpenForCopy(const std::string& host_path, int64_t cap_bytes, KeepMode mode,
                          PathPolicy refuse = nullptr) const;
  static Status CopyOpened(int fd, const std::string& host_path, CappedFile& sink);
  // Reads a small regular file whole (at most `max_bytes`).
  Result<std::string> ReadSmallFile(const std::string& host_path, int64_t max_bytes = 1 << 20) const;
  // lstat, plus the link target for symlinks.
  Result<DirEntryInfo> Lstat(const std::string& host_path) const;
  // Names in a directory, sorted, without "." and "..".
  Result<std::vector<std::string>> ListDir(const std::string& host_path) const;

  // HostFiles.
  bool Exists(const std::string& host_path) const override;
  std::optional<std::string> Read(const std::string& host_path, int64_t max_bytes = 1 << 20) const override;
  std::vector<std::string> List(const std::string& host_path) const override;

 private:
  HostRoot(std::string root, int fd) : root_(std::move(root)), root_fd_(fd) {}
  int OpenInRoot(const std::string& host_path, int flags) const;
  // A regular file opened for reading, blocking; BadInput for anything else.
  Result<int> OpenRegular(const std::string& host_path, struct stat& st) const;
  Status RefuseCredential(int fd, const struct stat& st, const std::string& host_path) const;
  // The host path of an open file, "" when it cannot be told.
  std::string ResolvedHostPath(int fd) const;
  // `host_path` with its links followed inside the root by reading them;
  // "" past 40 links.
  std::string ResolveInRoot(const std::string& host_path) const;

  std::string root_;
  std::string real_root_;  // root_ with its own links resolved
  int root_fd_ = -1;
};

// "/dev" + "nvidia0" -> "/dev/nvidia0"
std::string JoinHostPath(const std::string& dir, const std::string& name);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_HOST_ROOT_H_
