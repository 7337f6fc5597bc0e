#include "common/terminal_text.h"

#include <array>
#include <cstdio>

#include "common/json_bytes.h"

namespace gpuf {

namespace {

// The SGR sequences analyzer/render/render_text.cc paints with.
constexpr std::array<std::string_view, 6> kRendererColours = {"\x1b[1m",  "\x1b[1;31m", "\x1b[32m",
                                                              "\x1b[33m", "\x1b[2m",    "\x1b[0m"};

// U+0080..U+009F (C1 controls), U+200E/F, U+202A..U+202E and U+2066..U+2069
// (direction marks, embeddings, overrides and isolates), as UTF-8.
bool IsInvisibleControl(std::string_view utf8, unsigned& code_point) {
  const auto b = [&](size_t i) { return static_cast<unsigned char>(utf8[i]); };
  if (utf8.size() == 2) {
    code_point = ((b(0) & 0x1Fu) << 6) | (b(1) & 0x3Fu);
    return code_point >= 0x80 && code_point <= 0x9F;
  }
  if (utf8.size() != 3) return false;
  code_point = ((b(0) & 0x0Fu) << 12) | ((b(1) & 0x3Fu) << 6) | (b(2) & 0x3Fu);
  return code_point == 0x200E || code_point == 0x200F || (code_point >= 0x202A && code_point <= 0x202E) ||
         (code_point >= 0x2066 && code_point <= 0x2069);
}

size_t SequenceLength(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  return 2;
}

}  // namespace

std::string TerminalSafe(std::string_view text, RendererColours colours) {
  // UTF-8 first, so that what follows walks whole characters.
  const std::string valid = IsUtf8(text) ? std::string(text) : EscapeNonUtf8(text);
  std::string out;
  out.reserve(valid.size());
  for (size_t at = 0; at < valid.size();) {
    const auto byte = static_cast<unsigned char>(valid[at]);
    if (byte == 0x1b && colours == RendererColours::kKeep) {
      bool kept = false;
      for (std::string_view sgr : kRendererColours) {
        if (valid.compare(at, sgr.size(), sgr) == 0) {
          out += sgr;
          at += sgr.size();
          kept = true;
          break;
        }
      }
      if (kept) continue;
    }
    if ((byte < 0x20 && byte != '\n' && byte != '\t') || byte == 0x7f) {
      out += EscapedByte(byte);
      ++at;
      continue;
    }
    const size_t length = SequenceLength(byte);
    const std::string_view character = std::string_view(valid).substr(at, length);
    unsigned code_point = 0;
    if (IsInvisibleControl(character, code_point)) {
      char shown[12];
      std::snprintf(shown, sizeof shown, "<U+%04X>", code_point);
      out += shown;
    } else {
      out += character;
    }
    at += length;
  }
  return out;
}

}  // namespace gpuf
