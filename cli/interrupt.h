// Signals. Every command removes what it registered for cleanup
// (common/signal_cleanup.h: work directories, unpublished outputs, probe
// process groups) when SIGINT, SIGTERM or SIGHUP ends it. The commands that
// collect stop gracefully on the first SIGINT or SIGTERM instead: the
// collection stops and still writes its bundle, marked incomplete; a second
// one cleans up and ends the process at once.
#ifndef GPUF_CLI_INTERRUPT_H_
#define GPUF_CLI_INTERRUPT_H_

#include <atomic>

namespace gpuf {

// For every command, before it runs (RunProgram).
void InstallCleanupOnSignal();

// For collect and watch: installs the graceful handlers (and ignores
// SIGPIPE); returns the flag the first signal sets.
const std::atomic<bool>* InstallInterruptHandlers();

// The signal that set the flag (SIGINT or SIGTERM), 0 before any: a command
// that cleans up after an interrupt ends by raising it again.
int InterruptSignal();

}  // namespace gpuf

#endif  // GPUF_CLI_INTERRUPT_H_
