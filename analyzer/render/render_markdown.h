// Renders a Report as a self-contained Markdown incident summary, to paste
// into a vendor support case or a postmortem: the node and its component
// versions, the chain verdict, the findings with their evidence, the boot
// timeline and what the bundle could not show. Everything taken from the
// bundle is escaped (Markdown text) or fenced (evidence lines), so a hostile
// line cannot inject links, HTML or table cells.
#ifndef GPUF_ANALYZER_RENDER_RENDER_MARKDOWN_H_
#define GPUF_ANALYZER_RENDER_RENDER_MARKDOWN_H_

#include <string>

#include "analyzer/render/display_zone.h"
#include "analyzer/report/report.h"

namespace gpuf {

std::string RenderMarkdown(const Report& report, const DisplayZone& zone);

// Text safe inside a Markdown paragraph or table cell: punctuation that
// Markdown or HTML would act on is backslash-escaped, line breaks become spaces.
std::string MarkdownText(const std::string& text);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_RENDER_MARKDOWN_H_
