// The RE2 options for patterns matched against what a node wrote. Logs,
// hostnames and file names are bytes, not UTF-8 (Latin-1 consoles, damaged
// journals): in RE2's default UTF-8 mode neither '.' nor a negated class
// matches a byte outside UTF-8, so one such byte makes `(.*)$` fail on the
// whole line. In Latin-1 mode every byte is one character: ASCII patterns
// mean what they say, and a UTF-8 literal matches its own bytes (a class or
// quantifier must then name the whole sequence: `(?:● |× )`, not `[●×] `).
#ifndef GPUF_COMMON_BYTE_PATTERN_H_
#define GPUF_COMMON_BYTE_PATTERN_H_

#include <re2/re2.h>

namespace gpuf {

inline RE2::Options BytePatternOptions() {
  RE2::Options options;
  options.set_encoding(RE2::Options::EncodingLatin1);
  options.set_log_errors(false);
  return options;
}

}  // namespace gpuf

#endif  // GPUF_COMMON_BYTE_PATTERN_H_
