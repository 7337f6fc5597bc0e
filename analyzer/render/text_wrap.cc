#include "analyzer/render/text_wrap.h"

#include <utf8proc.h>

#include <algorithm>
#include <vector>

namespace gpuf {

namespace {

// Byte length of the escape sequence at `i` ("\x1b[1;31m"), 0 if none.
size_t EscapeLength(const std::string& s, size_t i) {
  if (s[i] != '\x1b') return 0;
  size_t end = i + 1;
  while (end < s.size() && !((s[end] >= 'A' && s[end] <= 'Z') || (s[end] >= 'a' && s[end] <= 'z'))) ++end;
  return std::min(end + 1, s.size()) - i;
}

struct Glyph {
  size_t bytes;
  int columns;
};

// The character or escape sequence at `i` and the columns it takes. A byte
// that does not start valid UTF-8 (logs and host names are bytes) is one
// column, as a terminal's replacement character is.
Glyph GlyphAt(const std::string& s, size_t i) {
  if (size_t n = EscapeLength(s, i)) return {n, 0};
  utf8proc_int32_t code_point = 0;
  utf8proc_ssize_t n = utf8proc_iterate(reinterpret_cast<const utf8proc_uint8_t*>(s.data() + i),
                                        static_cast<utf8proc_ssize_t>(s.size() - i), &code_point);
  if (n <= 0) return {1, 1};
  return {static_cast<size_t>(n), utf8proc_charwidth(code_point)};
}

// Runs of spaces and runs of anything else, in order.
std::vector<std::string> Tokens(const std::string& line) {
  std::vector<std::string> tokens;
  for (char c : line) {
    bool space = c == ' ';
    if (tokens.empty() || (tokens.back()[0] == ' ') != space) tokens.emplace_back();
    tokens.back() += c;
  }
  return tokens;
}

// Splits a word wider than `room` columns: its first `room` columns and the
// rest. Zero-width marks stay with their base; a wide character that alone
// exceeds a room of one column is kept, so that every split makes progress.
std::pair<std::string, std::string> SplitWord(const std::string& word, int room) {
  int columns = 0;
  for (size_t i = 0; i < word.size();) {
    Glyph glyph = GlyphAt(word, i);
    if (columns + glyph.columns > room && (columns > 0 || room <= 0)) return {word.substr(0, i), word.substr(i)};
    columns += glyph.columns;
    i += glyph.bytes;
  }
  return {word, ""};
}

// Where a continuation starts: under the last column of a table row (text
// after a gap of two or more spaces, in the left 60 % of the line), else
// four columns past the line's indent.
int ContinuationIndent(const std::vector<std::string>& tokens, int indent, int width) {
  int column = 0, aligned = 0;
  for (size_t t = 0; t < tokens.size(); ++t) {
    column += VisibleWidth(tokens[t]);
    if (t > 0 && tokens[t][0] == ' ' && tokens[t].size() >= 2 && column * 10 <= width * 6) aligned = column;
  }
  return aligned > indent ? aligned : std::min(indent + 4, width / 2);
}

std::string WrapLine(const std::string& line, int width) {
  if (VisibleWidth(line) <= width) return line;
  std::vector<std::string> tokens = Tokens(line);
  int indent = tokens.empty() || tokens[0][0] != ' ' ? 0 : static_cast<int>(tokens[0].size());
  const std::string continuation(ContinuationIndent(tokens, indent, width), ' ');
  std::string out, current;
  int used = 0;
  std::string pending_space;
  auto new_line = [&]() {
    out += current + "\n";
    current = continuation;
    used = static_cast<int>(continuation.size());
    pending_space.clear();
  };
  for (size_t t = 0; t < tokens.size(); ++t) {
    std::string token = tokens[t];
    if (token[0] == ' ') {
      if (t == 0) {
        current = token;
        used = static_cast<int>(token.size());
      } else {
        pending_space = token;
      }
      continue;
    }
    int w = VisibleWidth(token);
    int space = static_cast<int>(pending_space.size());
    if (used + space + w > width && used > static_cast<int>(continuation.size())) new_line();
    current += pending_space;
    used += static_cast<int>(pending_space.size());
    pending_space.clear();
    while (used + VisibleWidth(token) > width) {
      auto [head, rest] = SplitWord(token, width - used);
      current += head;
      new_line();
      token = rest;
    }
    current += token;
    used += VisibleWidth(token);
  }
  return out + current;
}

}  // namespace

int VisibleWidth(const std::string& text) {
  int columns = 0;
  for (size_t i = 0; i < text.size();) {
    Glyph glyph = GlyphAt(text, i);
    columns += glyph.columns;
    i += glyph.bytes;
  }
  return columns;
}

std::string WrapToWidth(const std::string& text, int width) {
  if (width <= 0) return text;
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    out += WrapLine(text.substr(start, end - start), width);
    if (end < text.size()) out += '\n';
    start = end + 1;
  }
  return out;
}

}  // namespace gpuf
