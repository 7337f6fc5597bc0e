// Reads one rule file (rules/README.md) into a Rule, checking all that can be
// checked without a database: fields and their values, the id against the
// file name, RE2 patterns, conditions, summary placeholders, references and
// samples. SQL is prepared later, against the schema (rule_lint.h) or the
// loaded bundle (rule_engine.h).
//
// Failures are BadInput whose message is the whole ninja-style error
// (rule_error.h); no yaml-cpp exception gets out.
#ifndef GPUF_ANALYZER_RULES_RULE_PARSER_H_
#define GPUF_ANALYZER_RULES_RULE_PARSER_H_

#include <string>
#include <string_view>

#include "analyzer/rules/rule.h"
#include "common/status.h"

namespace gpuf {

// `file` names the text in errors; its stem must equal the rule's id.
Result<Rule> ParseRuleText(const std::string& file, std::string_view text);

// Also fails with IoError when the file cannot be read.
Result<Rule> ParseRuleFile(const std::string& path);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_PARSER_H_
