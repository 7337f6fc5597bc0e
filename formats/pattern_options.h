// The one set of RE2 options behind every rule pattern, in log selections and
// in the regexp() SQL functions alike: over bytes, not UTF-8
// (common/byte_pattern.h), case-sensitive unless the pattern says (?i), '.'
// never matches a newline, ^ and $ anchor at the start and end of the line,
// leftmost-first (Perl) semantics, no logging.
#ifndef GPUF_FORMATS_PATTERN_OPTIONS_H_
#define GPUF_FORMATS_PATTERN_OPTIONS_H_

#include <re2/re2.h>

#include "common/byte_pattern.h"

namespace gpuf {

inline RE2::Options RulePatternOptions() {
  RE2::Options options = BytePatternOptions();
  options.set_case_sensitive(true);
  options.set_dot_nl(false);
  options.set_longest_match(false);
  options.set_max_mem(64 << 20);
  return options;
}

}  // namespace gpuf

#endif  // GPUF_FORMATS_PATTERN_OPTIONS_H_
