#include "common/signal_cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>

namespace gpuf {

namespace {

// A slot is claimed (kWriting) before its path is copied in and marked
// kInUse after, so a handler never reads half a path.
enum SlotState : int { kFree = 0, kWriting = 1, kInUse = 2 };

struct PathSlot {
  std::atomic<int> state{kFree};
  char path[4096];
};

PathSlot g_paths[kMaxCleanupPaths];
std::atomic<pid_t> g_groups[kMaxProcessGroups];

// Directories nest this deep at most in what we make (staging/<n>.<stream>).
constexpr int kMaxDepth = 8;

struct LinuxDirent64 {
  ino64_t d_ino;
  off64_t d_off;
  unsigned short d_reclen;
  unsigned char d_type;
  char d_name[];
};

// unlinkat() each entry of the directory `fd`, descending into directories;
// getdents64 and *at calls only (readdir may allocate).
void EmptyDirectory(int fd, int depth) {
  alignas(8) char buf[4096];
  bool removed_any = true;
  while (removed_any) {
    removed_any = false;
    long n = syscall(SYS_getdents64, fd, buf, sizeof buf);
    if (n <= 0) return;
    for (long at = 0; at < n;) {
      auto* entry = reinterpret_cast<LinuxDirent64*>(buf + at);
      at += entry->d_reclen;
      const char* name = entry->d_name;
      if (std::strcmp(name, ".") == 0 || std::strcmp(name, "..") == 0) continue;
      if (unlinkat(fd, name, 0) == 0) {
        removed_any = true;
        continue;
      }
      if ((errno != EISDIR && errno != EPERM) || depth >= kMaxDepth) continue;
      int child = openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (child < 0) continue;
      EmptyDirectory(child, depth + 1);
      close(child);
      if (unlinkat(fd, name, AT_REMOVEDIR) == 0) removed_any = true;
    }
    // Entries were removed under the cursor: read again while that helps.
    lseek(fd, 0, SEEK_SET);
  }
}

void RemoveTree(const char* path) {
  if (unlink(path) == 0 || (errno != EISDIR && errno != EPERM)) return;
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  EmptyDirectory(fd, 0);
  close(fd);
  rmdir(path);
}

}  // namespace

int RegisterCleanupPath(const std::string& path) {
  if (path.size() >= sizeof g_paths[0].path) return -1;
  for (int i = 0; i < kMaxCleanupPaths; ++i) {
    int expected = kFree;
    if (!g_paths[i].state.compare_exchange_strong(expected, kWriting)) continue;
    std::memcpy(g_paths[i].path, path.c_str(), path.size() + 1);
    g_paths[i].state.store(kInUse);
    return i;
  }
  return -1;
}

void UnregisterCleanupPath(int slot) {
  if (slot >= 0 && slot < kMaxCleanupPaths) g_paths[slot].state.store(kFree);
}

int RegisterProcessGroup(pid_t pgid) {
  for (int i = 0; i < kMaxProcessGroups; ++i) {
    pid_t expected = 0;
    if (g_groups[i].compare_exchange_strong(expected, pgid)) return i;
  }
  return -1;
}

void UnregisterProcessGroup(int slot) {
  if (slot >= 0 && slot < kMaxProcessGroups) g_groups[slot].store(0);
}

void RunSignalCleanup() {
  int saved_errno = errno;
  for (auto& group : g_groups) {
    pid_t pgid = group.load();
    if (pgid > 0) kill(-pgid, SIGKILL);
  }
  for (auto& slot : g_paths) {
    if (slot.state.load() == kInUse) RemoveTree(slot.path);
  }
  errno = saved_errno;
}

TerminationSignalsHeld::TerminationSignalsHeld() {
  sigset_t held;
  sigemptyset(&held);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&held, sig);
  pthread_sigmask(SIG_BLOCK, &held, &previous_);
}

TerminationSignalsHeld::~TerminationSignalsHeld() { pthread_sigmask(SIG_SETMASK, &previous_, nullptr); }

}  // namespace gpuf
