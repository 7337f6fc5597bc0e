// Escaping text from a bundle (hostile input) for HTML and SVG: element
// content and quoted attribute values alike. Bytes that are not valid UTF-8
// and control characters become U+FFFD so the page stays well-formed.
#ifndef GPUF_ANALYZER_RENDER_HTML_ESCAPE_H_
#define GPUF_ANALYZER_RENDER_HTML_ESCAPE_H_

#include <string>
#include <string_view>

namespace gpuf {

std::string HtmlEscape(std::string_view text);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_HTML_ESCAPE_H_
