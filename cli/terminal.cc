#include "cli/terminal.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>

namespace gpuf {

namespace {

// https://no-color.org: any non-empty NO_COLOR turns colour off.
bool ColorWanted() {
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* term = std::getenv("TERM");
  return !(term && std::strcmp(term, "dumb") == 0);
}

}  // namespace

TextStyle StdoutTextStyle() {
  TextStyle style;
  if (!isatty(STDOUT_FILENO)) return style;
  style.color = ColorWanted();
  winsize size{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &size) == 0 && size.ws_col >= 40) style.width = size.ws_col;
  return style;
}

bool StderrIsTerminal() { return isatty(STDERR_FILENO) != 0; }

}  // namespace gpuf
