#include "collector/subprocess.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "common/signal_cleanup.h"
#include "common/time_format.h"

extern char** environ;

namespace gpuf {

namespace {

constexpr int64_t kPollSliceNs = 50'000'000;

std::vector<std::string> BuildEnvironment(const std::vector<std::string>& extra) {
  std::vector<std::string> env;
  auto overridden = [&](const char* entry) {
    for (const auto& e : extra) {
      size_t eq = e.find('=');
      if (std::strncmp(entry, e.c_str(), eq) == 0 && entry[eq] == '=') return true;
    }
    return std::strncmp(entry, "LC_ALL=", 7) == 0;
  };
  for (char** p = environ; *p; ++p) {
    if (!overridden(*p)) env.emplace_back(*p);
  }
  env.emplace_back("LC_ALL=C");
  for (const auto& e : extra) env.push_back(e);
  return env;
}

std::vector<char*> CStrings(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// A pipe we read from until EOF or until we give up on it.
struct Stream {
  int fd = -1;
  ByteSink* sink = nullptr;
};

void CloseStream(Stream& s) {
  if (s.fd >= 0) close(s.fd);
  s.fd = -1;
}

// The child's stdout holds 1 MiB rather than 64 KiB, and when a read finds
// less than 64 KiB waiting we let 1 ms pass before the next: a child that
// writes GBs in small pieces (journalctl) otherwise woke us for each piece,
// and the switches between the two cost more than the reading. The pipe
// keeps the writer going meanwhile; a small probe ends 1 ms later at most.
constexpr int kLargePipeBytes = 1 << 20;
constexpr size_t kGatherBelowBytes = 1 << 16;
constexpr useconds_t kGatherMicros = 1000;

// Reads what the pipe holds now, at most a few MiB per call so that a
// flooding child cannot keep us from checking the deadline. Returns the
// bytes read.
size_t DrainAvailable(Stream& s) {
  char buf[1 << 16];
  size_t read_bytes = 0;
  for (int round = 0; round < 64 && s.fd >= 0; ++round) {
    ssize_t n = read(s.fd, buf, sizeof buf);
    if (n > 0) {
      // A failed write to our own staging file loses output, not the run;
      // the sink keeps its count of what it stored.
      (void)s.sink->Write(std::string_view(buf, static_cast<size_t>(n)));
      read_bytes += static_cast<size_t>(n);
      continue;
    }
    if (n == 0) {
      CloseStream(s);
      return read_bytes;
    }
    if (errno == EINTR) continue;
    if (errno == EAGAIN || errno == EWOULDBLOCK) return read_bytes;
    CloseStream(s);
    return read_bytes;
  }
  return read_bytes;
}

}  // namespace

std::string FindExecutable(const std::string& name, const std::string& path_env) {
  auto usable = [](const std::string& p) {
    struct stat st {};
    return stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && access(p.c_str(), X_OK) == 0;
  };
  if (name.empty()) return "";
  if (name.find('/') != std::string::npos) return usable(name) ? name : "";
  size_t start = 0;
  while (start <= path_env.size()) {
    size_t end = path_env.find(':', start);
    if (end == std::string::npos) end = path_env.size();
    std::string dir = path_env.substr(start, end - start);
    if (dir.empty()) dir = ".";
    std::string candidate = dir + "/" + name;
    if (usable(candidate)) return candidate;
    start = end + 1;
  }
  return "";
}

CommandOutcome RunCommand(const CommandSpec& spec, ByteSink& out, ByteSink& err,
                          const std::atomic<bool>* interrupt) {
  CommandOutcome outcome;
  const int64_t started = MonotonicNowNs();
  int out_pipe[2], err_pipe[2];
  if (pipe2(out_pipe, O_CLOEXEC) != 0) {
    outcome.start_error = std::string("pipe: ") + std::strerror(errno);
    return outcome;
  }
  if (pipe2(err_pipe, O_CLOEXEC) != 0) {
    outcome.start_error = std::string("pipe: ") + std::strerror(errno);
    close(out_pipe[0]);
    close(out_pipe[1]);
    return outcome;
  }

  // Every call's return is checked, as ninja's subprocess-posix does: a
  // failed setup (no memory, a bad descriptor) must not spawn a child
  // without its process group or with our stdout.
  int setup_error = 0;
  auto check = [&setup_error](int rc) {
    if (setup_error == 0 && rc != 0) setup_error = rc;
  };
  posix_spawn_file_actions_t actions;
  const int actions_init = posix_spawn_file_actions_init(&actions);
  check(actions_init);
  check(posix_spawn_file_actions_addopen(&actions, 0, spec.stdin_path.c_str(), O_RDONLY, 0));
  check(posix_spawn_file_actions_adddup2(&actions, out_pipe[1], 1));
  check(posix_spawn_file_actions_adddup2(&actions, err_pipe[1], 2));

  posix_spawnattr_t attr;
  const int attr_init = posix_spawnattr_init(&attr);
  check(attr_init);
  sigset_t empty_mask, default_signals;
  sigemptyset(&empty_mask);
  sigemptyset(&default_signals);
  for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGCHLD}) sigaddset(&default_signals, sig);
  check(posix_spawnattr_setsigmask(&attr, &empty_mask));
  check(posix_spawnattr_setsigdefault(&attr, &default_signals));
  check(posix_spawnattr_setpgroup(&attr, 0));
  check(posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF));

  std::vector<std::string> argv_storage = spec.argv;
  std::vector<std::string> env_storage = BuildEnvironment(spec.extra_env);
  std::vector<char*> argv = CStrings(argv_storage);
  std::vector<char*> envp = CStrings(env_storage);

  pid_t pid = -1;
  int rc = 0;
  int cleanup_slot = -1;
  if (setup_error == 0) {
    // A second Ctrl-C ends us at once: the handler kills the group then.
    TerminationSignalsHeld held;
    rc = posix_spawn(&pid, spec.executable.c_str(), &actions, &attr, argv.data(), envp.data());
    if (rc == 0) cleanup_slot = RegisterProcessGroup(pid);
  }
  if (actions_init == 0) posix_spawn_file_actions_destroy(&actions);
  if (attr_init == 0) posix_spawnattr_destroy(&attr);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (setup_error != 0 || rc != 0) {
    outcome.start_error = std::string(setup_error != 0 ? "spawn setup: " : "spawn: ") +
                          std::strerror(setup_error != 0 ? setup_error : rc);
    close(out_pipe[0]);
    close(err_pipe[0]);
    return outcome;
  }
  outcome.started = true;

  Stream streams[2] = {{out_pipe[0], &out}, {err_pipe[0], &err}};
  for (auto& s : streams) fcntl(s.fd, F_SETFL, O_NONBLOCK);
  fcntl(out_pipe[0], F_SETPIPE_SZ, kLargePipeBytes);  // refused above pipe-max-size: the default stays

  enum class Phase { kRunning, kTerminating, kKilling } phase = Phase::kRunning;
  bool reaped = false;
  int64_t reaped_at = 0, signal_sent_at = 0;

  while (true) {
    const int64_t now = MonotonicNowNs();
    if (!reaped) {
      int wstatus = 0;
      pid_t r = waitpid(pid, &wstatus, WNOHANG);
      if (r == pid) {
        reaped = true;
        reaped_at = now;
        if (WIFEXITED(wstatus)) outcome.exit_code = WEXITSTATUS(wstatus);
        if (WIFSIGNALED(wstatus)) outcome.signal = WTERMSIG(wstatus);
      }
    }
    const bool pipes_open = streams[0].fd >= 0 || streams[1].fd >= 0;
    if (reaped && !pipes_open) break;
    if (reaped && now - reaped_at >= spec.drain_grace_ns) break;  // a grandchild holds the pipe

    if (phase == Phase::kRunning) {
      bool stop_requested = interrupt && interrupt->load();
      const bool reader_done = !reaped && spec.stop_when && spec.stop_when();
      if (now >= spec.deadline_monotonic_ns || stop_requested || reader_done) {
        if (stop_requested) {
          outcome.interrupted = true;
        } else if (reader_done) {
          outcome.stopped = true;
        } else {
          outcome.timed_out = true;
        }
        kill(-pid, SIGTERM);
        phase = Phase::kTerminating;
        signal_sent_at = now;
      }
    } else if (phase == Phase::kTerminating && now - signal_sent_at >= spec.term_grace_ns) {
      kill(-pid, SIGKILL);
      phase = Phase::kKilling;
      signal_sent_at = now;
    } else if (phase == Phase::kKilling && !reaped && now - signal_sent_at >= spec.kill_grace_ns) {
      outcome.abandoned = true;
      break;
    }

    pollfd fds[2];
    nfds_t count = 0;
    for (auto& s : streams) {
      if (s.fd >= 0) fds[count++] = {s.fd, POLLIN, 0};
    }
    int timeout_ms = static_cast<int>(kPollSliceNs / 1'000'000);
    if (count > 0) {
      poll(fds, count, timeout_ms);
    } else {
      usleep(static_cast<useconds_t>(timeout_ms) * 1000);
    }
    size_t drained = 0;
    for (auto& s : streams) drained += DrainAvailable(s);
    if (drained > 0 && drained < kGatherBelowBytes && !reaped) usleep(kGatherMicros);
  }

  // Nothing we started may outlive the probe: sweep the group (a daemonised
  // grandchild, or the process we abandoned), then keep what is buffered.
  kill(-pid, SIGKILL);
  UnregisterProcessGroup(cleanup_slot);
  for (auto& s : streams) {
    DrainAvailable(s);
    CloseStream(s);
  }
  outcome.duration_ns = MonotonicNowNs() - started;
  return outcome;
}

}  // namespace gpuf
