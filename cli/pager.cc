#include "cli/pager.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

namespace gpuf {

namespace {

pid_t g_pager = -1;

std::string PagerCommand() {
  for (const char* name : {"GPUFORENSICS_PAGER", "PAGER"}) {
    if (const char* value = std::getenv(name)) return value;
  }
  return "less";
}

// A pager that cannot run would leave the report unread: sh reports "not
// found" and the writes fail. Only a first word found on PATH (or a path
// that is executable) is started.
bool Runnable(const std::string& command) {
  const size_t begin = command.find_first_not_of(" \t");
  if (begin == std::string::npos) return false;
  const std::string program = command.substr(begin, command.find_first_of(" \t", begin) - begin);
  if (program == "cat") return false;
  if (program.find('/') != std::string::npos) return access(program.c_str(), X_OK) == 0;
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t start = 0;
  while (start <= dirs.size()) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
    if (access((dir + "/" + program).c_str(), X_OK) == 0) return true;
    start = end + 1;
  }
  return false;
}

}  // namespace

void StartPager(bool wanted) {
  if (!wanted || g_pager > 0 || !isatty(STDOUT_FILENO)) return;
  const std::string command = PagerCommand();
  if (!Runnable(command)) return;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return;
  std::cout.flush();
  std::fflush(stdout);
  setenv("LESS", "FRX", /*overwrite=*/0);  // before fork: the child only execs
  const pid_t pid = fork();
  if (pid < 0) {
    close(fds[0]);
    close(fds[1]);
    return;
  }
  if (pid == 0) {
    dup2(fds[0], STDIN_FILENO);
    signal(SIGPIPE, SIG_DFL);
    execl("/bin/sh", "sh", "-c", command.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  dup2(fds[1], STDOUT_FILENO);
  close(fds[0]);
  close(fds[1]);
  g_pager = pid;
  // Ctrl-C belongs to the pager now (less stops a search with it): dying
  // here would hand the terminal back to the shell while less still runs.
  signal(SIGINT, SIG_IGN);
  signal(SIGQUIT, SIG_IGN);
}

bool PagerActive() { return g_pager > 0; }

void WaitForPager() {
  if (g_pager <= 0) return;
  close(STDOUT_FILENO);  // the pager's end of input, whatever state stdout was left in
  int status = 0;
  while (waitpid(g_pager, &status, 0) < 0 && errno == EINTR) {
  }
  g_pager = -1;
}

}  // namespace gpuf
