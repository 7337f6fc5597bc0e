// Renders a Report as plain text for a terminal or a pipe, with times in
// the chosen display zone.
#ifndef GPUF_ANALYZER_RENDER_TEXT_H_
#define GPUF_ANALYZER_RENDER_TEXT_H_

#include <string>

#include "analyzer/display_zone.h"
#include "analyzer/report.h"

namespace gpuf {

std::string RenderText(const Report& report, const DisplayZone& zone);

// "+36.120s", "-1.500s": an offset in seconds with millisecond precision.
std::string FormatOffset(int64_t ns);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_TEXT_H_
