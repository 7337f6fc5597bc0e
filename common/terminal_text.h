// Text for a terminal, from data a node or a stranger wrote. Log lines, node
// names and file names may hold escape sequences that set a window title,
// clear the screen or rewrite what the reader sees (ESC ] ... BEL, ESC [2J,
// U+202E), and bytes that are not UTF-8. Every rendered text report passes
// through here last: such characters become visible escapes (\x1B, \xB5,
// <U+202E>); newlines and tabs stay. The only escape sequences kept are the
// renderer's own colours, and only when colour is on.
#ifndef GPUF_COMMON_TERMINAL_TEXT_H_
#define GPUF_COMMON_TERMINAL_TEXT_H_

#include <string>
#include <string_view>

namespace gpuf {

enum class RendererColours { kDrop, kKeep };

std::string TerminalSafe(std::string_view text, RendererColours colours = RendererColours::kDrop);

}  // namespace gpuf

#endif  // GPUF_COMMON_TERMINAL_TEXT_H_
