#include "common/work_dir.h"

#include <stdlib.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/signal_cleanup.h"

namespace gpuf {

Result<WorkDir> WorkDir::Create(const std::string& parent, std::string_view prefix) {
  std::string dir = parent;
  if (dir.empty()) {
    const char* tmp = std::getenv("TMPDIR");
    dir = tmp && *tmp ? tmp : "/tmp";
  }
  std::string name = dir + "/" + std::string(prefix) + "XXXXXX";
  TerminationSignalsHeld held;
  if (!mkdtemp(name.data())) {
    return Status::IoError("creating a work directory in '" + dir + "'", std::strerror(errno));
  }
  WorkDir work;
  work.path_ = name;
  work.cleanup_slot_ = RegisterCleanupPath(name);
  return work;
}

Result<WorkDir> WorkDir::Beside(const std::string& file, std::string_view prefix) {
  std::string parent = std::filesystem::path(file).parent_path().string();
  return Create(parent.empty() ? "." : parent, prefix);
}

WorkDir::WorkDir(WorkDir&& other) noexcept : path_(std::move(other.path_)), cleanup_slot_(other.cleanup_slot_) {
  other.path_.clear();
  other.cleanup_slot_ = -1;
}

WorkDir& WorkDir::operator=(WorkDir&& other) noexcept {
  if (this != &other) {
    Remove();
    path_ = std::move(other.path_);
    cleanup_slot_ = other.cleanup_slot_;
    other.path_.clear();
    other.cleanup_slot_ = -1;
  }
  return *this;
}

WorkDir::~WorkDir() { Remove(); }

void WorkDir::Remove() {
  if (!path_.empty()) {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  UnregisterCleanupPath(cleanup_slot_);
  cleanup_slot_ = -1;
  path_.clear();
}

}  // namespace gpuf
