// `rules lint DIR`: every problem of the rule files in one folder, each as a
// ninja-style error (yaml_error.h). Beyond what reading a rule checks (fields,
// ids against file names and unique, severities, references, RE2 patterns,
// conditions, placeholders, samples present, artifact names and groups),
// each SQL selection must prepare against the documented schema (an empty
// database) and run there read-only, compare closed-list columns only with
// words on their lists (sql_words.h), and explained_by must name rules of
// the folder or of the built-in pack.
#ifndef GPUF_ANALYZER_RULES_RULE_LINT_H_
#define GPUF_ANALYZER_RULES_RULE_LINT_H_

#include <string>
#include <vector>

#include "common/status.h"

namespace gpuf {

inline constexpr int kNearMissesPerRule = 2;

struct LintReport {
  size_t rules = 0;                  // files that read cleanly
  std::vector<std::string> problems; // in file order; empty when all is well
};

// Fails when the folder cannot be read or the empty database cannot be made.
Result<LintReport> LintRules(const std::string& dir);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_LINT_H_
