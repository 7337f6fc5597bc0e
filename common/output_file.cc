#include "common/output_file.h"

#include <fcntl.h>
#include <stdio.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <tuple>

#include "common/signal_cleanup.h"

namespace gpuf {

namespace {

std::pair<std::string, std::string> SplitPath(const std::string& path) {
  size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

// ".<name>.<6 random letters>", within NAME_MAX.
std::string TempName(const std::string& base) {
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  unsigned char random[6] = {};
  if (getrandom(random, sizeof random, 0) != static_cast<ssize_t>(sizeof random)) {
    uint64_t fallback = static_cast<uint64_t>(getpid()) * 2654435761u ^ static_cast<uint64_t>(time(nullptr));
    std::memcpy(random, &fallback, sizeof random);
  }
  std::string name = "." + base.substr(0, 200) + ".";
  for (unsigned char r : random) name += kLetters[r % (sizeof kLetters - 1)];
  return name;
}

Status Refusal(const std::string& what, const std::string& path, mode_t mode) {
  if (S_ISREG(mode)) {
    return Status::Exists(what + " '" + path + "' exists", "name a new file, or pass --force to replace it");
  }
  return Status::Exists(what + " '" + path + "' is " + FileTypeName(mode), "only a regular file is ever replaced");
}

// rename(2) that never replaces: link + unlink where the file system lacks RENAME_NOREPLACE.
int RenameNoReplaceAt(int from_dir, const char* from, int to_dir, const char* to) {
  int rc = renameat2(from_dir, from, to_dir, to, RENAME_NOREPLACE);
  if (rc != 0 && (errno == EINVAL || errno == ENOSYS)) {
    rc = linkat(from_dir, from, to_dir, to, 0);
    if (rc == 0) unlinkat(from_dir, from, 0);
  }
  return rc;
}

}  // namespace

std::string FileTypeName(mode_t mode) {
  switch (mode & S_IFMT) {
    case S_IFREG: return "a regular file";
    case S_IFDIR: return "a directory";
    case S_IFCHR: return "a character device";
    case S_IFBLK: return "a block device";
    case S_IFIFO: return "a FIFO";
    case S_IFSOCK: return "a socket";
    case S_IFLNK: return "a symbolic link";
  }
  return "not a regular file";
}

Status CheckOutputPath(const std::string& path, Replace replace, const std::string& what) {
  if (path.empty()) return Status::InvalidArgument("no " + what + " path given");
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return Status::Ok();
    return Status::IoError(what + " '" + path + "'", std::strerror(errno));
  }
  if (replace == Replace::kRegularFile && S_ISREG(st.st_mode)) return Status::Ok();
  return Refusal(what, path, st.st_mode);
}

Status MoveNoReplace(const std::string& from, const std::string& to) {
  if (RenameNoReplaceAt(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str()) == 0) return Status::Ok();
  const int err = errno;
  if (err == EEXIST) return Status::Exists("'" + to + "' appeared meanwhile: never replaced");
  return Status::IoError("renaming '" + from + "' to '" + to + "'", std::strerror(err));
}

Status CheckNotInput(const std::string& output, const std::string& input) {
  struct stat in {}, out {};
  if (stat(input.c_str(), &in) != 0 || stat(output.c_str(), &out) != 0) return Status::Ok();
  if (in.st_dev == out.st_dev && in.st_ino == out.st_ino) {
    return Status::InvalidArgument("the output is the input '" + input + "'", "never replaced");
  }
  return Status::Ok();
}

Result<OutputFile> OutputFile::Create(const std::string& path, Replace replace, const std::string& what) {
  GPUF_RETURN_IF_ERROR(CheckOutputPath(path, replace, what));
  OutputFile out;
  out.path_ = path;
  out.what_ = what;
  out.replace_ = replace;
  std::tie(out.dir_, out.base_) = SplitPath(path);
  if (out.base_.empty() || out.base_ == "." || out.base_ == "..") {
    return Status::InvalidArgument(what + " '" + path + "' names no file");
  }
  out.dir_fd_ = open(out.dir_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (out.dir_fd_ < 0) return Status::IoError("opening directory '" + out.dir_ + "'", std::strerror(errno));
  TerminationSignalsHeld held;
  for (int attempt = 0; attempt < 100 && out.fd_ < 0; ++attempt) {
    out.temp_base_ = TempName(out.base_);
    out.fd_ = openat(out.dir_fd_, out.temp_base_.c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (out.fd_ < 0 && errno != EEXIST) break;
  }
  out.temp_path_ = (out.dir_ == "/" ? "" : out.dir_) + "/" + out.temp_base_;
  if (out.fd_ < 0) return Status::IoError("creating '" + out.temp_path_ + "'", std::strerror(errno));
  out.cleanup_slot_ = RegisterCleanupPath(out.temp_path_);
  return out;
}

OutputFile::OutputFile(OutputFile&& o) noexcept
    : path_(std::move(o.path_)), temp_path_(std::move(o.temp_path_)), what_(std::move(o.what_)),
      dir_(std::move(o.dir_)), base_(std::move(o.base_)), temp_base_(std::move(o.temp_base_)),
      replace_(o.replace_), dir_fd_(o.dir_fd_), fd_(o.fd_), cleanup_slot_(o.cleanup_slot_) {
  o.dir_fd_ = o.fd_ = o.cleanup_slot_ = -1;
  o.temp_base_.clear();
}

OutputFile::~OutputFile() {
  Discard();
  if (dir_fd_ >= 0) close(dir_fd_);
}

void OutputFile::Discard() {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  if (dir_fd_ >= 0 && !temp_base_.empty()) unlinkat(dir_fd_, temp_base_.c_str(), 0);
  temp_base_.clear();
  UnregisterCleanupPath(cleanup_slot_);
  cleanup_slot_ = -1;
}

Status OutputFile::Write(std::string_view data) {
  while (!data.empty()) {
    ssize_t n = write(fd_, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::IoError("writing '" + path_ + "'", std::strerror(errno));
    data.remove_prefix(static_cast<size_t>(n));
  }
  return Status::Ok();
}

Status OutputFile::Publish(mode_t mode) {
  if (fd_ < 0 || temp_base_.empty()) return Status::Internal("publishing '" + path_ + "' twice");
  if (fsync(fd_) != 0 || fchmod(fd_, mode) != 0 || close(fd_) != 0) {
    int err = errno;
    fd_ = -1;
    Discard();
    return Status::IoError("writing '" + path_ + "'", std::strerror(err));
  }
  fd_ = -1;
  const char* temp = temp_base_.c_str();
  const char* base = base_.c_str();
  struct stat st {};
  int rc;
  if (replace_ == Replace::kRegularFile && fstatat(dir_fd_, base, &st, AT_SYMLINK_NOFOLLOW) == 0) {
    if (!S_ISREG(st.st_mode)) {
      Discard();
      return Refusal(what_, path_, st.st_mode);
    }
    rc = renameat(dir_fd_, temp, dir_fd_, base);
  } else {
    rc = RenameNoReplaceAt(dir_fd_, temp, dir_fd_, base);
  }
  if (rc != 0) {
    int err = errno;
    Discard();
    if (err == EEXIST && fstatat(dir_fd_, base, &st, AT_SYMLINK_NOFOLLOW) == 0) return Refusal(what_, path_, st.st_mode);
    return Status::IoError("publishing '" + path_ + "'", std::strerror(err));
  }
  temp_base_.clear();
  UnregisterCleanupPath(cleanup_slot_);
  cleanup_slot_ = -1;
  fsync(dir_fd_);  // the name survives a crash of the node as well
  return Status::Ok();
}

}  // namespace gpuf
