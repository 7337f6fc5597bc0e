// What the terminal on stdout and stderr can show: colour (unless NO_COLOR is
// set or TERM is dumb) and width, only when the stream is a terminal.
#ifndef GPUF_CLI_TERMINAL_H_
#define GPUF_CLI_TERMINAL_H_

#include "analyzer/render/render_text.h"

namespace gpuf {

// The style for a report on stdout: plain when stdout is not a terminal.
TextStyle StdoutTextStyle();

// True when stderr is a terminal (progress goes there only then).
bool StderrIsTerminal();

}  // namespace gpuf

#endif  // GPUF_CLI_TERMINAL_H_
