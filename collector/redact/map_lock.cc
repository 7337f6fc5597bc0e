#include "collector/redact/map_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace gpuf {

Result<MapLock> MapLock::Acquire(const std::string& map_path) {
  std::filesystem::path dir = std::filesystem::path(map_path).parent_path();
  if (dir.empty()) dir = ".";
  int fd = open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return Status::IoError("cannot open the map's directory '" + dir.string() + "'", std::strerror(errno));
  while (flock(fd, LOCK_EX) != 0) {
    if (errno == EINTR) continue;
    int error = errno;
    close(fd);
    return Status::IoError("cannot lock the map's directory '" + dir.string() + "'", std::strerror(error));
  }
  return MapLock(fd);
}

MapLock& MapLock::operator=(MapLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

MapLock::~MapLock() {
  if (fd_ >= 0) close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace gpuf
