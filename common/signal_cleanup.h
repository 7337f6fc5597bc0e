// What must not outlive a process that a signal ends: the work directories
// and unpublished output files it made (unredacted probe outputs among
// them) and the process groups of the probes it started.
//
//   int slot = RegisterCleanupPath(dir);    // after creating it
//   ...
//   UnregisterCleanupPath(slot);             // after removing or publishing it
//
// Registration is thread-safe and cheap; RunSignalCleanup() uses only
// async-signal-safe calls, for a signal handler (cli/interrupt.cc). The
// tables are fixed: past kMaxCleanupPaths paths or kMaxProcessGroups groups,
// Register returns -1 and the entry is not cleaned on a signal (the normal
// path still cleans it).
#ifndef GPUF_COMMON_SIGNAL_CLEANUP_H_
#define GPUF_COMMON_SIGNAL_CLEANUP_H_

#include <signal.h>
#include <sys/types.h>

#include <string>

namespace gpuf {

inline constexpr int kMaxCleanupPaths = 64;
inline constexpr int kMaxProcessGroups = 256;

// A file or a directory tree (removed whole, without following links).
int RegisterCleanupPath(const std::string& path);
void UnregisterCleanupPath(int slot);  // -1 is ignored

// A process group to SIGKILL.
int RegisterProcessGroup(pid_t pgid);
void UnregisterProcessGroup(int slot);  // -1 is ignored

// Kills every registered group, then removes every registered path.
void RunSignalCleanup();

// Holds SIGINT, SIGTERM, SIGHUP and SIGQUIT in the calling thread while it
// lives: a path created and then registered under it is never left behind
// by a signal that lands between the two. A held signal is delivered when
// the guard goes.
class TerminationSignalsHeld {
 public:
  TerminationSignalsHeld();
  ~TerminationSignalsHeld();
  TerminationSignalsHeld(const TerminationSignalsHeld&) = delete;
  TerminationSignalsHeld& operator=(const TerminationSignalsHeld&) = delete;

 private:
  sigset_t previous_;
};

}  // namespace gpuf

#endif  // GPUF_COMMON_SIGNAL_CLEANUP_H_
