// Renders a Report as one self-contained HTML page: the content of the
// Markdown summary plus the boot timeline drawn as swimlanes (inline SVG,
// see swimlane_svg.h). No scripts, no network: the CSS is inline, fonts are
// the reader's own, and a Content-Security-Policy forbids loading anything.
// Every text from the bundle is HTML-escaped (bundles are hostile input).
#ifndef GPUF_ANALYZER_RENDER_RENDER_HTML_H_
#define GPUF_ANALYZER_RENDER_RENDER_HTML_H_

#include <string>

#include "analyzer/render/display_zone.h"
#include "analyzer/report/report.h"

namespace gpuf {

std::string RenderHtml(const Report& report, const DisplayZone& zone);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_RENDER_HTML_H_
