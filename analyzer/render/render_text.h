// Renders a Report as text for a terminal or a pipe, with times in the
// chosen display zone: the chain verdict first, then the findings, the
// boot timeline and what the bundle could not show.
#ifndef GPUF_ANALYZER_RENDER_RENDER_TEXT_H_
#define GPUF_ANALYZER_RENDER_RENDER_TEXT_H_

#include <string>

#include "analyzer/render/display_zone.h"
#include "analyzer/report/report.h"

namespace gpuf {

// How the terminal wants it. The default (no colour, no width) is what a
// pipe or a file gets and what the golden files hold.
struct TextStyle {
  bool color = false;  // ANSI colours (the caller checks isatty and NO_COLOR)
  int width = 0;       // wrap longer lines to this many columns; 0: keep
};

std::string RenderText(const Report& report, const DisplayZone& zone, const TextStyle& style = {});


// "+36.120s", "-1.500s": an offset in seconds with millisecond precision.
std::string FormatOffset(int64_t ns);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_RENDER_TEXT_H_
