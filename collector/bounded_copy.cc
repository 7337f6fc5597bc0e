#include "collector/bounded_copy.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/time_format.h"

namespace gpuf {

namespace {

// The child's whole life: only calls that are safe after fork() in a process
// with threads. Its exit status is the errno of a failed read, 0 at the end.
[[noreturn]] void ReadInto(int fd, int out) {
  char buf[1 << 16];
  while (true) {
    ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) _exit(errno & 0xff ? errno & 0xff : EIO);
    if (n == 0) _exit(0);
    for (ssize_t done = 0; done < n;) {
      ssize_t w = write(out, buf + done, static_cast<size_t>(n - done));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) _exit(0);  // the parent stopped listening: nothing to tell
      done += w;
    }
  }
}

// Waits for `pid` until `until` (monotonic ns); true when it was reaped.
bool ReapBy(pid_t pid, int64_t until, int* wstatus) {
  while (true) {
    pid_t r = waitpid(pid, wstatus, WNOHANG);
    if (r == pid || (r < 0 && errno != EINTR)) return true;
    if (MonotonicNowNs() >= until) return false;
    usleep(10'000);
  }
}

int PollMs(int64_t deadline_ns) {
  int64_t left = deadline_ns - MonotonicNowNs();
  return left <= 0 ? 0 : static_cast<int>(std::min<int64_t>(left / 1'000'000 + 1, 1000));
}

}  // namespace

BoundedCopy CopyOpenedWithin(int fd, const std::string& host_path, CappedFile& sink, int64_t deadline_monotonic_ns,
                             int64_t kill_grace_ns) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) {
    close(fd);
    return {Status::IoError("creating a pipe to read '" + host_path + "'", std::strerror(errno))};
  }
  pid_t pid = fork();
  if (pid == 0) {
    close(pipe_fds[0]);
    ReadInto(fd, pipe_fds[1]);
  }
  int fork_errno = errno;
  close(fd);
  close(pipe_fds[1]);
  if (pid < 0) {
    close(pipe_fds[0]);
    return {Status::IoError("starting the reader of '" + host_path + "'", std::strerror(fork_errno))};
  }
  BoundedCopy copy;
  char buf[1 << 16];
  while (true) {
    if (MonotonicNowNs() >= deadline_monotonic_ns) {
      copy.timed_out = true;
      break;
    }
    struct pollfd p = {pipe_fds[0], POLLIN, 0};
    if (poll(&p, 1, PollMs(deadline_monotonic_ns)) <= 0) continue;
    ssize_t n = read(pipe_fds[0], buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    Status written = sink.Write(std::string_view(buf, static_cast<size_t>(n)));
    if (!written.ok() && copy.status.ok()) copy.status = written;
  }
  close(pipe_fds[0]);
  int wstatus = 0;
  if (copy.timed_out) {
    kill(pid, SIGKILL);
    copy.abandoned = !ReapBy(pid, MonotonicNowNs() + kill_grace_ns, &wstatus);
    return copy;
  }
  // The pipe closed: the reader is done or about to be.
  if (!ReapBy(pid, MonotonicNowNs() + kill_grace_ns, &wstatus)) {
    kill(pid, SIGKILL);
    copy.abandoned = true;
  } else if (copy.status.ok() && WIFEXITED(wstatus) && WEXITSTATUS(wstatus) != 0) {
    copy.status = Status::IoError("reading '" + host_path + "'", std::strerror(WEXITSTATUS(wstatus)));
  }
  return copy;
}

}  // namespace gpuf
