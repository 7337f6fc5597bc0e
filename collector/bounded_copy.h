// A file read that cannot hold the collector past its deadline.
//
// Reading /proc/driver/nvidia/gpus/*/information calls into the driver, and a
// wedged GPU can block that read for good, where no signal reaches it. So the
// read happens in a child process that passes the bytes back through a pipe:
// at the deadline the child is killed and, when even SIGKILL cannot end it
// (uninterruptible sleep in the driver), abandoned, as a command is
// (subprocess.h). A thread would not do: a process exits only when all its
// threads have left the kernel.
#ifndef GPUF_COLLECTOR_BOUNDED_COPY_H_
#define GPUF_COLLECTOR_BOUNDED_COPY_H_

#include <cstdint>
#include <string>

#include "collector/capped_file.h"
#include "common/status.h"

namespace gpuf {

struct BoundedCopy {
  Status status;           // of the read or the copy; Ok when timed out
  bool timed_out = false;  // the deadline passed before the read ended
  bool abandoned = false;  // and the reader outlived SIGKILL
};

// Reads the open `fd` (HostRoot::OpenForCopy) to its end into `sink`, which
// must be open and is not finished here; closes `fd`. Waits until
// `deadline_monotonic_ns` at most, plus `kill_grace_ns` for a killed reader
// to go.
BoundedCopy CopyOpenedWithin(int fd, const std::string& host_path, CappedFile& sink, int64_t deadline_monotonic_ns,
                             int64_t kill_grace_ns = 1'000'000'000);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_BOUNDED_COPY_H_
