// Reads one rule file (rules/README.md) into a Rule, checking all that can be
// checked without a database: fields and their values, the id against the
// file name, RE2 patterns, conditions, summary placeholders, references and
// samples. SQL is prepared later, against the schema (rule_lint.h) or the
// loaded bundle (rule_engine.h).
//
// Failures are BadInput whose message is the whole ninja-style error
// (yaml_error.h); no yaml-cpp exception gets out.
#ifndef GPUF_ANALYZER_RULES_RULE_PARSER_H_
#define GPUF_ANALYZER_RULES_RULE_PARSER_H_

#include <cstdint>
#include <string>
#include <string_view>

#include "analyzer/rules/rule.h"
#include "common/status.h"

namespace gpuf {

// Makes `s`, whose `message` and `where` are set, a message selection
// (rules/README.md): read over every artifact, matched with the active
// catalogue's wordings of that event that may say `where`. No wording
// leaves its patterns empty; a kind the journal classifies is then read
// from the journal's entries alone (EventKindRow::journal_events).
void FillMessagePatterns(Selection& s);

// `file` names the text in errors; its stem must equal the rule's id.
Result<Rule> ParseRuleText(const std::string& file, std::string_view text);

// The largest rule file read (the largest of the pack is ~20 KiB): a 100 MB
// file is refused before it is read.
inline constexpr int64_t kMaxRuleFileBytes = 1 << 20;

// Also fails with BadInput "PATH:1: 'PATH' is larger than the 1 MiB limit",
// a FIFO or a file that cannot be read.
Result<Rule> ParseRuleFile(const std::string& path);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_PARSER_H_
