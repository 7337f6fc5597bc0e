#include "common/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <algorithm>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace gpuf {

Result<int> OpenRegularFile(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return Status::IoError("opening '" + path + "'", std::strerror(errno));
  struct stat st {};
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    std::string type = S_ISDIR(st.st_mode) ? "a directory" : S_ISFIFO(st.st_mode) ? "a FIFO"
                       : S_ISCHR(st.st_mode) ? "a character device" : S_ISBLK(st.st_mode) ? "a block device"
                       : S_ISSOCK(st.st_mode) ? "a socket" : "not a regular file";
    return Status::BadInput("'" + path + "' is " + type + ", not a regular file");
  }
  fcntl(fd, F_SETFL, 0);
  return fd;
}

std::string FormatByteLimit(int64_t bytes) {
  if (bytes >= (1 << 20) && bytes % (1 << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1 << 10) && bytes % (1 << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

Status ForEachChunk(const std::string& path, const std::function<void(std::string_view)>& fn) {
  GPUF_ASSIGN_OR_RETURN(int fd, OpenRegularFile(path));
  char buf[1 << 16];
  while (true) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      close(fd);
      return Status::IoError("reading '" + path + "'", std::strerror(err));
    }
    if (n == 0) break;
    fn(std::string_view(buf, static_cast<size_t>(n)));
  }
  close(fd);
  return Status::Ok();
}

Result<std::string> ReadWholeFile(const std::string& path, int64_t max_bytes) {
  std::string data;
  struct stat st {};
  auto too_large = [&] {
    return Status::BadInput("'" + path + "' is larger than the " + FormatByteLimit(max_bytes) + " limit");
  };
  if (stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)) {
    if (st.st_size > max_bytes) return too_large();
    data.reserve(static_cast<size_t>(st.st_size));
  }
  bool over = false;
  GPUF_RETURN_IF_ERROR(ForEachChunk(path, [&](std::string_view chunk) {
    if (over || static_cast<int64_t>(data.size() + chunk.size()) > max_bytes) {
      over = true;
      return;
    }
    data.append(chunk);
  }));
  if (over) return too_large();
  return data;
}

Status WriteWholeFile(const std::string& path, std::string_view data) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return Status::IoError("creating '" + path + "'", std::strerror(errno));
  while (!data.empty()) {
    ssize_t n = write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int err = errno;
      close(fd);
      return Status::IoError("writing '" + path + "'", std::strerror(err));
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  if (close(fd) != 0) return Status::IoError("closing '" + path + "'", std::strerror(errno));
  return Status::Ok();
}

Result<std::vector<std::string>> ListFolder(const std::string& dir, std::string_view extension) {
  namespace fs = std::filesystem;
  std::error_code ec;
  std::vector<std::string> files;
  const fs::path inside = fs::weakly_canonical(dir, ec);
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != extension) continue;
    // A link may stay in the folder (a ConfigMap volume's ..data/), never lead out of it.
    std::error_code link_ec;
    if (it->is_symlink(link_ec)) {
      const fs::path target = fs::weakly_canonical(it->path(), link_ec);
      const std::string parent = target.parent_path().string();
      if (link_ec || (parent != inside.string() && parent.rfind(inside.string() + "/", 0) != 0)) continue;
    }
    files.push_back(it->path().string());
  }
  if (ec) return Status::NotFound(ec.message());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace gpuf
