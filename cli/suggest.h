// "Did you mean": the closest of some names to a typo, as ninja's
// SpellcheckString offers for its tools. Used for commands and options.
#ifndef GPUF_CLI_SUGGEST_H_
#define GPUF_CLI_SUGGEST_H_

#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

// The candidate that `typo` is a prefix of, else the one at the fewest
// edits (at most two); "" when none is that close. Ties go to the first.
std::string ClosestName(std::string_view typo, const std::vector<std::string>& candidates);

}  // namespace gpuf

#endif  // GPUF_CLI_SUGGEST_H_
