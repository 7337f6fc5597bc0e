// Wrapping report text to a terminal's width. Columns are counted as a
// terminal shows them (Unicode widths from utf8proc): ANSI escape sequences,
// control characters (a tab too) and combining marks take none, a wide (CJK)
// character two, any other character one, and so does a byte that is not
// UTF-8. Lines break at spaces; a continuation lines up under a table row's
// last column (after a gap of two spaces or more), else sits four columns
// past the line's own indent; a word wider than the line is split.
#ifndef GPUF_ANALYZER_RENDER_TEXT_WRAP_H_
#define GPUF_ANALYZER_RENDER_TEXT_WRAP_H_

#include <string>

namespace gpuf {

// Every line of `text` wrapped to `width` columns; `width` <= 0 keeps it.
std::string WrapToWidth(const std::string& text, int width);

// Columns `text` takes on a terminal.
int VisibleWidth(const std::string& text);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RENDER_TEXT_WRAP_H_
