// RE2 inside SQL, for rule selections and for anyone querying a database:
//
//   regexp(pattern, text)                 1 when text matches, 0 when not, NULL for NULL text;
//                                         also `text REGEXP pattern`
//   regexp_capture(text, pattern[, group]) the capture (number, default 1, or name),
//                                         NULL when there is no match or no such group
//
// Matching follows the rule format (rules/README.md): partial unless
// anchored, case-sensitive unless (?i). A pattern that does not compile is an
// SQL error naming it.
//
// The functions are installed in every SQLite connection the process opens
// after start-up (sqlite3_auto_extension, registered when this library is
// linked in). CheckRuleSqlFunctions says whether a database has them.
#ifndef GPUF_ANALYZER_RULES_SQL_FUNCTIONS_H_
#define GPUF_ANALYZER_RULES_SQL_FUNCTIONS_H_

#include "analyzer/database.h"
#include "common/status.h"

namespace gpuf {

// Internal when the database was opened without them (before start-up).
Status CheckRuleSqlFunctions(Database& db);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_SQL_FUNCTIONS_H_
