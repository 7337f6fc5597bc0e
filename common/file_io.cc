#include "common/file_io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace gpuf {

Status ForEachChunk(const std::string& path, const std::function<void(std::string_view)>& fn) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IoError("opening '" + path + "'", std::strerror(errno));
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

Result<std::string> ReadWholeFile(const std::string& path) {
  std::string data;
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) data.reserve(static_cast<size_t>(st.st_size));
  GPUF_RETURN_IF_ERROR(ForEachChunk(path, [&](std::string_view chunk) { data.append(chunk); }));
  return data;
}

Status WriteWholeFile(const std::string& path, std::string_view data) {
  int fd = open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
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

}  // namespace gpuf
