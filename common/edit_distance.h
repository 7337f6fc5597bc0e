// The Levenshtein distance of two words: what "did you mean" measures, for
// commands and options (cli/suggest.h) and for names in rule files
// (analyzer/rules/rule_artifacts.h).
#ifndef GPUF_COMMON_EDIT_DISTANCE_H_
#define GPUF_COMMON_EDIT_DISTANCE_H_

#include <cstddef>
#include <string_view>

namespace gpuf {

// The fewest single-byte insertions, deletions and substitutions that turn
// `a` into `b`.
size_t EditDistance(std::string_view a, std::string_view b);

}  // namespace gpuf

#endif  // GPUF_COMMON_EDIT_DISTANCE_H_
