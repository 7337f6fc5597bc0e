#include "collector/capped_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <string>
#include <unistd.h>

namespace gpuf {

namespace {

Status WriteAll(int fd, std::string_view bytes, const std::string& path) {
  while (!bytes.empty()) {
    ssize_t n = write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return Status::IoError("writing '" + path + "'", std::strerror(errno));
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::Ok();
}

}  // namespace

CappedFile::~CappedFile() {
  if (fd_ >= 0) close(fd_);
}

Status CappedFile::Open() {
  fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd_ < 0) return Status::IoError("creating '" + path_ + "'", std::strerror(errno));
  return Status::Ok();
}

Status CappedFile::Failed(Status status) {
  if (write_status_.ok()) write_status_ = status;
  return status;
}

Status CappedFile::Write(std::string_view bytes) {
  if (!write_status_.ok()) {
    dropped_ += static_cast<int64_t>(bytes.size());
    return write_status_;
  }
  Status stored = Store(bytes);
  return stored.ok() ? stored : Failed(stored);
}

Status CappedFile::Store(std::string_view bytes) {
  if (mode_ != KeepMode::kTail) {
    int64_t room = cap_ - stored_;
    if (room <= 0) {
      dropped_ += static_cast<int64_t>(bytes.size());
      return Status::Ok();
    }
    std::string_view kept = bytes.substr(0, static_cast<size_t>(std::min<int64_t>(room, bytes.size())));
    dropped_ += static_cast<int64_t>(bytes.size() - kept.size());
    GPUF_RETURN_IF_ERROR(WriteAll(fd_, kept, path_));
    stored_ += static_cast<int64_t>(kept.size());
    return Status::Ok();
  }
  GPUF_RETURN_IF_ERROR(WriteAll(fd_, bytes, path_));
  stored_ += static_cast<int64_t>(bytes.size());
  // Compacting only when the file reaches twice the cap keeps the cost of
  // the copy proportional to the bytes written.
  if (stored_ >= 2 * cap_) GPUF_RETURN_IF_ERROR(CompactToTail(cap_, /*cut_at_line=*/false));
  return Status::Ok();
}

Status CappedFile::CompactToTail(int64_t keep, bool cut_at_line) {
  if (stored_ <= keep) return Status::Ok();
  std::string tail(static_cast<size_t>(keep), '\0');
  ssize_t n = pread(fd_, tail.data(), tail.size(), stored_ - keep);
  if (n != static_cast<ssize_t>(tail.size())) {
    return Status::IoError("re-reading '" + path_ + "'", n < 0 ? std::strerror(errno) : "short read");
  }
  int64_t cut = 0;
  if (cut_at_line) {
    size_t newline = tail.find('\n');
    if (newline != std::string::npos && newline + 1 < tail.size()) cut = static_cast<int64_t>(newline + 1);
  }
  std::string_view kept = std::string_view(tail).substr(static_cast<size_t>(cut));
  if (ftruncate(fd_, 0) != 0 || lseek(fd_, 0, SEEK_SET) != 0) {
    return Status::IoError("truncating '" + path_ + "'", std::strerror(errno));
  }
  GPUF_RETURN_IF_ERROR(WriteAll(fd_, kept, path_));
  dropped_ += stored_ - static_cast<int64_t>(kept.size());
  stored_ = static_cast<int64_t>(kept.size());
  return Status::Ok();
}

// "c\nb\na\n" -> "a\nb\nc\n", in place: the whole text reversed, then each
// line, so one buffer of the cap's size is all it holds. A last line without
// its newline was cut by the cap or a timeout: it is dropped and counted.
Status CappedFile::ReverseWholeLines() {
  std::string text(static_cast<size_t>(stored_), '\0');
  ssize_t n = pread(fd_, text.data(), text.size(), 0);
  if (n != static_cast<ssize_t>(text.size())) {
    return Status::IoError("re-reading '" + path_ + "'", n < 0 ? std::strerror(errno) : "short read");
  }
  size_t end = text.rfind('\n');
  size_t whole = end == std::string::npos ? 0 : end + 1;
  dropped_ += static_cast<int64_t>(text.size() - whole);
  text.resize(whole);
  if (!text.empty()) {
    std::reverse(text.begin(), text.end() - 1);  // the last newline stays last
    for (auto line = text.begin(); line != text.end();) {
      auto newline = std::find(line, text.end(), '\n');
      std::reverse(line, newline);
      line = newline == text.end() ? newline : newline + 1;
    }
  }
  if (ftruncate(fd_, 0) != 0 || lseek(fd_, 0, SEEK_SET) != 0) {
    return Status::IoError("truncating '" + path_ + "'", std::strerror(errno));
  }
  GPUF_RETURN_IF_ERROR(WriteAll(fd_, text, path_));
  stored_ = static_cast<int64_t>(text.size());
  return Status::Ok();
}

Status CappedFile::Finish() {
  Status status;
  if (mode_ == KeepMode::kTail && stored_ > cap_) status = CompactToTail(cap_, /*cut_at_line=*/true);
  if (mode_ == KeepMode::kNewestFirst && fd_ >= 0) status = ReverseWholeLines();
  if (fd_ >= 0 && close(fd_) != 0 && status.ok()) {
    status = Status::IoError("closing '" + path_ + "'", std::strerror(errno));
  }
  fd_ = -1;
  return status.ok() ? status : Failed(status);
}

}  // namespace gpuf
