// Errors in rule files, in the form of ninja's manifest errors: the file and
// 1-based line, the message, the offending line and a caret under the column.
//
//   rules/xid-79.yaml:4: unknown severity 'hgih' (critical, high, medium, low, info)
//   severity: hgih
//             ^ near here
#ifndef GPUF_ANALYZER_RULES_RULE_ERROR_H_
#define GPUF_ANALYZER_RULES_RULE_ERROR_H_

#include <string>
#include <string_view>

namespace gpuf {

// `line` and `column` are 0-based (yaml-cpp marks). Lines longer than 72
// bytes are cut there with "..."; the context is left out when the line does
// not exist or the column lies beyond the cut.
std::string FormatRuleError(std::string_view file, std::string_view text, int line, int column,
                            std::string_view message);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_ERROR_H_
