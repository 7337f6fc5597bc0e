#include "cli/interrupt.h"

#include <signal.h>

namespace gpuf {

namespace {

std::atomic<bool> g_interrupted{false};
volatile sig_atomic_t g_signal = 0;

void OnInterrupt(int sig) {
  g_signal = sig;
  g_interrupted.store(true);
}

}  // namespace

const std::atomic<bool>* InstallInterruptHandlers() {
  struct sigaction action {};
  action.sa_handler = OnInterrupt;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND;  // a second Ctrl-C ends the process at once
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
  signal(SIGPIPE, SIG_IGN);
  return &g_interrupted;
}

int InterruptSignal() { return g_signal; }

}  // namespace gpuf
