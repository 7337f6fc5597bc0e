// Errors in YAML files (rules, catalogue entries, samples), in the form of ninja's manifest errors: the file and
// 1-based line, the message, the offending line and a caret under the column.
//
//   rules/xid-79.yaml:4: unknown severity 'hgih' (critical, high, medium, low, info)
//   severity: hgih
//             ^ near here
#ifndef GPUF_FORMATS_YAML_ERROR_H_
#define GPUF_FORMATS_YAML_ERROR_H_

#include <string>
#include <string_view>

namespace gpuf {

// Where a value was written in its file: 0-based line and column, as
// yaml-cpp marks them. Used for file:line: messages after parsing too (SQL
// that does not prepare, a sample that does not build).
struct YamlMark {
  int line = 0;
  int column = 0;
};

// `line` and `column` are 0-based (yaml-cpp marks). Lines longer than 72
// bytes are cut there with "..."; the context is left out when the line does
// not exist or the column lies beyond the cut.
std::string FormatYamlError(std::string_view file, std::string_view text, int line, int column,
                            std::string_view message);

}  // namespace gpuf

#endif  // GPUF_FORMATS_YAML_ERROR_H_
