// SIGINT and SIGTERM for the commands that collect: the first asks the
// collection to stop and still write its bundle; a second ends the process.
#ifndef GPUF_CLI_INTERRUPT_H_
#define GPUF_CLI_INTERRUPT_H_

#include <atomic>

namespace gpuf {

// Installs the handlers (and ignores SIGPIPE); returns the flag they set.
const std::atomic<bool>* InstallInterruptHandlers();

// The signal that set the flag (SIGINT or SIGTERM), 0 before any: a command
// that cleans up after an interrupt ends by raising it again.
int InterruptSignal();

}  // namespace gpuf

#endif  // GPUF_CLI_INTERRUPT_H_
