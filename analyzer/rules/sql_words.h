// The quoted words rule SQL compares with a column whose values are a
// closed list (common/vocabulary.h, common/artifacts.h):
//
//   a.status = 'timed_out'          artifacts.status       ProbeStatus
//   skip_reason <> 'not_found'      artifacts.skip_reason  SkipReason
//   a.name = 'host.nvidia_smi_list' artifacts.name         the artifact table
//   milestone IN ('driver_loaded')  events.milestone       Milestone
//   severity = 'high'               findings.severity      Severity
//   confidence = 'likely'           findings.confidence    Confidence
//
// A word that is not on its list makes the comparison false for every row,
// so the rule quietly never fires; `rules lint` reports it instead. The
// scan reads tokens, not a parse tree: a column is resolved through the
// statement's `FROM table [AS] alias` and `JOIN table [AS] alias`, and an
// unqualified one through the statement's tables that have such a column.
// Comparisons it cannot resolve are not reported.
#ifndef GPUF_ANALYZER_RULES_SQL_WORDS_H_
#define GPUF_ANALYZER_RULES_SQL_WORDS_H_

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace gpuf {

// Table name -> its columns, as the schema has them.
using SchemaColumns = std::map<std::string, std::set<std::string>>;

struct SqlWordProblem {
  size_t offset = 0;    // of the quoted word in the SQL text
  std::string message;  // "unknown milestone 'x' (events.milestone); did you mean 'y'?"
};

std::vector<SqlWordProblem> CheckSqlWords(std::string_view sql, const SchemaColumns& schema);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_SQL_WORDS_H_
