#include "collector/host_root.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "collector/secrets.h"

namespace gpuf {

namespace {

std::string RelativePart(const std::string& host_path) {
  size_t start = host_path.find_first_not_of('/');
  return start == std::string::npos ? "." : host_path.substr(start);
}

Status ErrnoStatus(int err, const std::string& what) {
  if (err == ENOENT || err == ENOTDIR) return Status::NotFound(what, std::strerror(err));
  return Status::IoError(what, std::strerror(err));
}

std::pair<std::string, std::string> SplitParent(const std::string& host_path) {
  size_t slash = host_path.find_last_of('/');
  if (slash == std::string::npos) return {"/", host_path};
  return {slash == 0 ? "/" : host_path.substr(0, slash), host_path.substr(slash + 1)};
}

std::string FdPath(int fd) {
  char target[4096];
  std::string link = "/proc/self/fd/" + std::to_string(fd);
  ssize_t n = readlink(link.c_str(), target, sizeof target - 1);
  return n > 0 ? std::string(target, static_cast<size_t>(n)) : "";
}

}  // namespace

std::string HostRoot::ResolveInRoot(const std::string& host_path) const {
  // Links resolved the way openat2's RESOLVE_IN_ROOT does: an absolute
  // target starts again at the root, ".." never climbs above it.
  std::vector<std::string> done;
  std::vector<std::string> todo;
  auto push_reversed = [&todo](const std::string& path) {
    std::vector<std::string> parts;
    size_t start = 0;
    while (start <= path.size()) {
      size_t slash = path.find('/', start);
      if (slash == std::string::npos) slash = path.size();
      if (slash > start) parts.push_back(path.substr(start, slash - start));
      start = slash + 1;
    }
    todo.insert(todo.end(), parts.rbegin(), parts.rend());
  };
  push_reversed(host_path);
  for (int hops = 0; !todo.empty();) {
    std::string part = todo.back();
    todo.pop_back();
    if (part == ".") continue;
    if (part == "..") {
      if (!done.empty()) done.pop_back();
      continue;
    }
    std::string at;
    for (const auto& d : done) at += d + "/";
    at += part;
    char target[4096];
    ssize_t n = readlinkat(root_fd_, at.c_str(), target, sizeof target - 1);
    if (n <= 0) {
      done.push_back(part);
      continue;
    }
    if (++hops > 40) return "";
    std::string link(target, static_cast<size_t>(n));
    if (link[0] == '/') done.clear();
    push_reversed(link);
  }
  std::string resolved;
  for (const auto& d : done) resolved += "/" + d;
  return resolved.empty() ? "/" : resolved;
}

std::string JoinHostPath(const std::string& dir, const std::string& name) {
  if (dir.empty() || dir == "/") return "/" + name;
  return dir + "/" + name;
}

Result<HostRoot> HostRoot::Open(const std::string& root) {
  int fd = open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, "opening root '" + root + "'");
  std::string normalized = root;
  while (normalized.size() > 1 && normalized.back() == '/') normalized.pop_back();
  HostRoot host(normalized, fd);
  host.real_root_ = FdPath(fd);
  return host;
}

HostRoot::HostRoot(HostRoot&& other) noexcept
    : root_(std::move(other.root_)), real_root_(std::move(other.real_root_)), root_fd_(other.root_fd_) {
  other.root_fd_ = -1;
}

std::string HostRoot::ResolvedHostPath(int fd) const {
  std::string real = FdPath(fd);
  if (real.empty() || real_root_.empty()) return "";
  if (real_root_ == "/") return real;
  if (real.size() > real_root_.size() && real.compare(0, real_root_.size(), real_root_) == 0 &&
      real[real_root_.size()] == '/') {
    return real.substr(real_root_.size());
  }
  return "";
}

HostRoot::~HostRoot() {
  if (root_fd_ >= 0) close(root_fd_);
}

std::string HostRoot::Outside(const std::string& host_path) const {
  if (root_ == "/") return host_path;
  return root_ + (host_path.empty() || host_path[0] != '/' ? "/" : "") + host_path;
}

int HostRoot::OpenInRoot(const std::string& host_path, int flags) const {
  open_how how{};
  how.flags = static_cast<uint64_t>(flags | O_CLOEXEC);
  how.resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS;
  std::string relative = RelativePart(host_path);
  long fd = syscall(SYS_openat2, root_fd_, relative.c_str(), &how, sizeof how);
  if (fd < 0 && errno == ENOSYS) {
    // Kernels before 5.6: resolve from the root directory without the
    // in-root guarantee, refusing a symlink as the last component.
    fd = openat(root_fd_, relative.c_str(), flags | O_CLOEXEC | O_NOFOLLOW);
  }
  return static_cast<int>(fd);
}

Result<int> HostRoot::OpenRegular(const std::string& host_path, struct stat& st) const {
  // O_NONBLOCK: opening a FIFO must not wait for a writer.
  int fd = OpenInRoot(host_path, O_RDONLY | O_NONBLOCK | O_NOCTTY);
  if (fd < 0) return ErrnoStatus(errno, "opening '" + host_path + "'");
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return Status::BadInput("'" + host_path + "' is not a regular file");
  }
  fcntl(fd, F_SETFL, 0);
  return fd;
}

Status HostRoot::CopyFile(const std::string& host_path, CappedFile& sink, int64_t cap_bytes, KeepMode mode,
                          PathPolicy refuse) const {
  GPUF_ASSIGN_OR_RETURN(int fd, OpenForCopy(host_path, cap_bytes, mode, refuse));
  return CopyOpened(fd, host_path, sink);
}

Result<int> HostRoot::OpenForCopy(const std::string& host_path, int64_t cap_bytes, KeepMode mode,
                                  PathPolicy refuse) const {
  struct stat st {};
  GPUF_ASSIGN_OR_RETURN(int fd, OpenRegular(host_path, st));
  if (refuse) {
    // Unknown when /proc cannot tell: refused too, a policy must not guess.
    std::string resolved = ResolvedHostPath(fd);
    // Without /proc (a chroot), the links are followed by hand; a policy
    // never guesses, so a path neither can tell is refused.
    if (resolved.empty()) resolved = ResolveInRoot(host_path);
    if (resolved.empty() || refuse(resolved)) {
      close(fd);
      return Status::Unsupported("'" + host_path + "' leads to '" + (resolved.empty() ? "?" : resolved) +
                                 "', which may hold secrets and is never read");
    }
  }
  if (refuse) {
    Status credential = RefuseCredential(fd, st, host_path);
    if (!credential.ok()) {
      close(fd);
      return credential;
    }
  }
  // /proc files report size 0 and must be read from the start; only a real
  // file larger than the cap is worth seeking into.
  if (mode == KeepMode::kTail && st.st_size > cap_bytes) {
    lseek(fd, st.st_size - cap_bytes, SEEK_SET);
  }
  return fd;
}

// A credential at a path the policy allows: a hard link to a well-known
// credential file (the same device and inode), or a file whose first bytes
// are a private key or a kubeconfig with a user's secret.
Status HostRoot::RefuseCredential(int fd, const struct stat& st, const std::string& host_path) const {
  if (st.st_nlink > 1) {
    for (std::string_view credential : CredentialFiles()) {
      auto other = Lstat(std::string(credential));
      if (other.ok() && other->st.st_dev == st.st_dev && other->st.st_ino == st.st_ino) {
        return Status::Unsupported("'" + host_path + "' is a hard link to '" + std::string(credential) +
                                   "', which holds secrets and is never read");
      }
    }
  }
  char head[16 << 10];
  ssize_t n = pread(fd, head, sizeof head, 0);
  if (n > 0 && LooksLikeCredentialFile(std::string_view(head, static_cast<size_t>(n)))) {
    return Status::Unsupported("'" + host_path +
                               "' holds a private key or a kubeconfig's credentials and is never "
                               "read");
  }
  return Status::Ok();
}

Status HostRoot::CopyOpened(int fd, const std::string& host_path, CappedFile& sink) {
  char buf[1 << 16];
  Status status;
  while (true) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      status = ErrnoStatus(errno, "reading '" + host_path + "'");
      break;
    }
    if (n == 0) break;
    status = sink.Write(std::string_view(buf, static_cast<size_t>(n)));
    if (!status.ok()) break;
  }
  close(fd);
  return status;
}

Result<std::string> HostRoot::ReadSmallFile(const std::string& host_path, int64_t max_bytes) const {
  struct stat st {};
  GPUF_ASSIGN_OR_RETURN(int fd, OpenRegular(host_path, st));
  std::string data;
  char buf[8192];
  while (static_cast<int64_t>(data.size()) < max_bytes) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    data.append(buf, static_cast<size_t>(n));
  }
  close(fd);
  if (static_cast<int64_t>(data.size()) > max_bytes) data.resize(static_cast<size_t>(max_bytes));
  return data;
}

Result<DirEntryInfo> HostRoot::Lstat(const std::string& host_path) const {
  auto [parent, name] = SplitParent(host_path);
  DirEntryInfo info;
  info.path = host_path;
  int dir_fd = OpenInRoot(parent, O_PATH | O_DIRECTORY);
  if (dir_fd < 0) return ErrnoStatus(errno, "opening '" + parent + "'");
  const char* leaf = name.empty() ? "." : name.c_str();
  if (fstatat(dir_fd, leaf, &info.st, AT_SYMLINK_NOFOLLOW) != 0) {
    int err = errno;
    close(dir_fd);
    return ErrnoStatus(err, "stat '" + host_path + "'");
  }
  if (S_ISLNK(info.st.st_mode)) {
    char target[4096];
    ssize_t n = readlinkat(dir_fd, leaf, target, sizeof target - 1);
    if (n >= 0) info.link_target.assign(target, static_cast<size_t>(n));
  }
  close(dir_fd);
  return info;
}

Result<std::vector<std::string>> HostRoot::ListDir(const std::string& host_path) const {
  int fd = OpenInRoot(host_path, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return ErrnoStatus(errno, "listing '" + host_path + "'");
  DIR* dir = fdopendir(fd);
  if (!dir) {
    int err = errno;
    close(fd);
    return ErrnoStatus(err, "listing '" + host_path + "'");
  }
  std::vector<std::string> names;
  while (dirent* entry = readdir(dir)) {
    std::string name = entry->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

bool HostRoot::Exists(const std::string& host_path) const { return Lstat(host_path).ok(); }

std::optional<std::string> HostRoot::Read(const std::string& host_path, int64_t max_bytes) const {
  if (IsForbiddenHostPath(host_path)) return std::nullopt;
  struct stat st {};
  auto fd = OpenRegular(host_path, st);
  if (!fd.ok()) return std::nullopt;
  const bool refused = !RefuseCredential(*fd, st, host_path).ok();
  close(*fd);
  if (refused) return std::nullopt;
  auto data = ReadSmallFile(host_path, max_bytes);
  if (!data.ok()) return std::nullopt;
  return std::move(data).value();
}

std::vector<std::string> HostRoot::List(const std::string& host_path) const {
  auto names = ListDir(host_path);
  return names.ok() ? std::move(names).value() : std::vector<std::string>{};
}

}  // namespace gpuf
