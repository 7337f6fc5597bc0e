// Renders a Report as plain text for a terminal or a pipe.
#ifndef GPUF_ANALYZER_RENDER_TEXT_H_
#define GPUF_ANALYZER_RENDER_TEXT_H_

#include <string>

#include "analyzer/report.h"

namespace gpuf {

std::string RenderText(const Report& report);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_TEXT_H_
