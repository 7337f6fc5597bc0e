// A file that keeps at most a fixed number of bytes of what is written to it.
//
// Head mode keeps the first bytes (command output: the start explains the
// rest); tail mode keeps the newest bytes (logs: the end is where the failure
// is), cut at a line start. Newest-first mode is for a log printed newest
// first (journalctl -r): its first whole lines are kept, so a timeout or the
// cap drops the oldest, and Finish puts them back in time order. Either way
// the bytes that did not fit are counted, so the manifest can say exactly how
// much was dropped.
#ifndef GPUF_COLLECTOR_CAPPED_FILE_H_
#define GPUF_COLLECTOR_CAPPED_FILE_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "collector/byte_sink.h"
#include "common/status.h"

namespace gpuf {

enum class KeepMode { kHead, kTail, kNewestFirst };

class CappedFile : public ByteSink {
 public:
  CappedFile(std::string path, int64_t cap_bytes, KeepMode mode)
      : path_(std::move(path)), cap_(cap_bytes), mode_(mode) {}
  ~CappedFile() override;
  CappedFile(const CappedFile&) = delete;
  CappedFile& operator=(const CappedFile&) = delete;

  // Creates the file (mode 0600). Fails with IoError.
  Status Open();
  // Never fails for lack of room: bytes over the cap are counted and dropped.
  // A failed write (a full disk) is kept: later bytes are dropped and
  // write_status() says why, so that the output is known to be lost.
  Status Write(std::string_view bytes) override;
  // Head and newest-first modes at the cap; a tail never is (the newest replaces).
  bool Full() const override { return mode_ != KeepMode::kTail && stored_ >= cap_; }
  // Applies the tail cut or the newest-first reordering, and closes. Call once.
  Status Finish();

  const std::string& path() const { return path_; }
  int64_t stored_bytes() const { return stored_; }
  int64_t dropped_bytes() const { return dropped_; }
  bool truncated() const { return dropped_ > 0; }
  // The first failed write, compaction or close; Ok while none failed.
  const Status& write_status() const { return write_status_; }

 private:
  Status CompactToTail(int64_t keep, bool cut_at_line);
  Status ReverseWholeLines();
  Status Store(std::string_view bytes);
  Status Failed(Status status);

  std::string path_;
  int64_t cap_;
  KeepMode mode_;
  int fd_ = -1;
  int64_t stored_ = 0;   // bytes in the file now
  int64_t dropped_ = 0;  // bytes seen but not kept
  Status write_status_;
};

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_CAPPED_FILE_H_
