#include "cli/interrupt.h"

#include <signal.h>

#include "common/signal_cleanup.h"

namespace gpuf {

namespace {

std::atomic<bool> g_interrupted{false};
volatile sig_atomic_t g_signal = 0;

// Cleans up, then dies of the same signal, so that the caller sees it.
void CleanUpAndDie(int signal_number) {
  RunSignalCleanup();
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal_number, &action, nullptr);
  raise(signal_number);
}

// The first signal asks the command to stop; a second cleans up and ends
// the process at once.
void OnInterrupt(int signal_number) {
  if (g_interrupted.exchange(true)) CleanUpAndDie(signal_number);
  g_signal = signal_number;
}

void Install(void (*handler)(int), int signal_number) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  // While one handler runs, the others wait: the cleanup runs once.
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  sigaddset(&action.sa_mask, SIGHUP);
  sigaction(signal_number, &action, nullptr);
}

}  // namespace

void InstallCleanupOnSignal() {
  for (int s : {SIGINT, SIGTERM, SIGHUP}) Install(CleanUpAndDie, s);
}

const std::atomic<bool>* InstallInterruptHandlers() {
  Install(OnInterrupt, SIGINT);
  Install(OnInterrupt, SIGTERM);
  Install(OnInterrupt, SIGHUP);  // an ssh session that dropped: the bundle is still written
  signal(SIGPIPE, SIG_IGN);
  return &g_interrupted;
}

int InterruptSignal() { return g_signal; }

}  // namespace gpuf
