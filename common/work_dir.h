// A private work directory: collect's staging beside its bundle, redact's
// beside its output, import's in $TMPDIR. Made with mkdtemp (mode 0700, a
// random name), removed with everything in it when the WorkDir goes and,
// through signal_cleanup.h, when a signal ends the process first.
#ifndef GPUF_COMMON_WORK_DIR_H_
#define GPUF_COMMON_WORK_DIR_H_

#include <string>
#include <string_view>

#include "common/status.h"

namespace gpuf {

class WorkDir {
 public:
  // "<parent>/<prefix>XXXXXX"; `parent` "" means $TMPDIR (else /tmp). Fails
  // with IoError naming the parent.
  static Result<WorkDir> Create(const std::string& parent, std::string_view prefix);
  // The directory beside `file` ("." when it has no directory part).
  static Result<WorkDir> Beside(const std::string& file, std::string_view prefix);

  WorkDir() = default;
  WorkDir(WorkDir&& other) noexcept;
  WorkDir& operator=(WorkDir&& other) noexcept;
  WorkDir(const WorkDir&) = delete;
  WorkDir& operator=(const WorkDir&) = delete;
  ~WorkDir();

  const std::string& path() const { return path_; }
  std::string operator/(std::string_view name) const { return path_ + "/" + std::string(name); }
  // Removes it now (what the destructor does).
  void Remove();

 private:
  std::string path_;
  int cleanup_slot_ = -1;
};

}  // namespace gpuf

#endif  // GPUF_COMMON_WORK_DIR_H_
