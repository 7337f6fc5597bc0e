// A line a parser did not understand. Parsers never fail and never stay
// silent: what they cannot read comes back as warnings, which the loader
// stores in parse_warnings with the artifact it came from.
#ifndef GPUF_COMMON_PARSE_WARNING_H_
#define GPUF_COMMON_PARSE_WARNING_H_

#include <string>

namespace gpuf {

struct ParseWarning {
  int line = 0;          // 1-based line in the artifact; 0 when not line-specific
  std::string message;   // what was wrong, e.g. "no '(UUID: ' in GPU line"
};

}  // namespace gpuf

#endif  // GPUF_COMMON_PARSE_WARNING_H_
