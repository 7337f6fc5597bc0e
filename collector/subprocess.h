// Runs one external command without ever hanging the collector.
//
// The command runs from an argv (no shell) in its own process group, with
// stdin from /dev/null (or a given file), LC_ALL=C, and stdout/stderr
// captured into capped files. At the deadline the whole group gets SIGTERM, then SIGKILL after a
// grace period; a process that still does not die (a wedged GPU puts
// nvidia-smi into uninterruptible sleep) is abandoned, never waited on.
// A child that exits while a grandchild still holds its stdout open is given
// a short drain window, then the group is killed and the pipes are closed.
// Modelled on ninja's subprocess-posix.cc, plus the deadline and caps.
#ifndef GPUF_COLLECTOR_SUBPROCESS_H_
#define GPUF_COLLECTOR_SUBPROCESS_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "collector/capped_file.h"

namespace gpuf {

struct CommandSpec {
  std::string executable;              // absolute path, already resolved
  std::vector<std::string> argv;       // argv[0] is what the command sees as its name
  std::vector<std::string> extra_env;  // "NAME=value", added to the environment
  int64_t deadline_monotonic_ns = 0;   // absolute, CLOCK_MONOTONIC
  std::string stdin_path = "/dev/null";  // a file the command reads as its stdin
  // nvidia-smi, crictl and kubectl exit on SIGTERM at once; one that does
  // not within half a second is stuck, and waiting longer only delays the
  // collection of a node that is already broken.
  int64_t term_grace_ns = 500'000'000;
  int64_t kill_grace_ns = 1'000'000'000;
  int64_t drain_grace_ns = 500'000'000;
  // Asked between reads; true ends the command as a deadline does (SIGTERM,
  // then SIGKILL), because its reader has all of it that it will keep.
  std::function<bool()> stop_when;
};

struct CommandOutcome {
  bool started = false;
  std::string start_error;        // why posix_spawn failed
  std::optional<int> exit_code;   // when it exited normally
  std::optional<int> signal;      // when a signal ended it
  bool timed_out = false;         // our deadline fired
  bool interrupted = false;       // the collector was asked to stop
  bool stopped = false;           // stop_when ended it
  bool abandoned = false;         // still alive after SIGKILL + grace
  int64_t duration_ns = 0;
};

// Runs the command to completion or deadline. Output goes to the two sinks
// (capped files: open, and not finished here). `interrupt`, when set by a
// signal handler, ends the command like a deadline does.
CommandOutcome RunCommand(const CommandSpec& spec, ByteSink& out, ByteSink& err,
                          const std::atomic<bool>* interrupt);

// Finds `name` on PATH (or takes it as a path when it holds a '/').
// Returns "" when there is no executable regular file by that name.
std::string FindExecutable(const std::string& name, const std::string& path_env);

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_SUBPROCESS_H_
