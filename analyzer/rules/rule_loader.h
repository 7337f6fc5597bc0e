// Finding and reading rule files: every *.yaml of each rules folder, in name
// order. The built-in pack is compiled into the binary (builtin_rules.h)
// and named by the folder kBuiltinRules; a site adds its own folders after
// it.
#ifndef GPUF_ANALYZER_RULES_RULE_LOADER_H_
#define GPUF_ANALYZER_RULES_RULE_LOADER_H_

#include <string>
#include <string_view>
#include <vector>

#include "analyzer/rules/rule.h"
#include "common/status.h"

namespace gpuf {

struct RuleFileError {
  std::string file;
  std::string id;       // the file's stem: the id the rule would have had
  std::string message;  // ninja-style, possibly several lines
};

struct RuleSet {
  std::vector<Rule> rules;
  std::vector<RuleFileError> errors;  // files that did not parse, ids given twice
};

// A file that does not parse or repeats an earlier id becomes an entry of
// `errors`, and reading goes on. Fails with NotFound when a folder does not
// exist or cannot be listed.
Result<RuleSet> LoadRules(const std::vector<std::string>& dirs);

// The name LoadRules reads the built-in pack for; its rules' files are
// "rules/ID.yaml" in messages.
inline constexpr std::string_view kBuiltinRules = "<built-in>";
std::string BuiltinRulesDir();

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_LOADER_H_
