// Literal prefilters for log patterns: strings of which every line a pattern
// matches contains at least one, so that a line holding none of them need not
// reach the RE2 set at all. Derived conservatively from the pattern text; a
// pattern they cannot be derived for (case folding, a branch without a plain
// literal) gets none and is always matched.
//   'NVRM: Xid \((?:PCI:)?[0-9a-f:.]+\): 79,'   -> {"NVRM: Xid ("}
//   'could not load NVML|Incompatible strategy' -> {"could not load NVML", "Incompatible strategy"}
#ifndef GPUF_ANALYZER_RULES_LITERAL_PREFILTER_H_
#define GPUF_ANALYZER_RULES_LITERAL_PREFILTER_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

// One literal (the longest, at least 3 bytes) per top-level alternative, or
// an empty vector when some alternative has none.
std::vector<std::string> DerivePrefilter(std::string_view pattern);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_LITERAL_PREFILTER_H_
