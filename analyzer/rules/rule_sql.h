// The SQL side of the rule engine. Rule SQL runs read-only (PRAGMA
// query_only) against the loaded database with :bundle bound to the bundle
// under evaluation, and can read what the rule's earlier selections returned:
//
//   matches(selection, artifact_id, line, time_ns, text, captures)
//     a temp view of the current rule's rows so far; captures is a JSON
//     object of the row's fields (named captures, or the SQL columns other
//     than artifact_id, line, time_ns and text), e.g.
//     SELECT json_extract(captures, '$.bus') FROM matches WHERE selection = 'xid'
//
// Columns named artifact_id, line, time_ns and text give a row its
// provenance and evidence text; every other column becomes a field.
#ifndef GPUF_ANALYZER_RULES_RULE_SQL_H_
#define GPUF_ANALYZER_RULES_RULE_SQL_H_

#include <cstdint>
#include <string>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/rules/rule.h"
#include "analyzer/rules/selection_rows.h"
#include "common/status.h"

namespace gpuf {

// Rows one SQL selection may return; the rest are not read.
inline constexpr size_t kMaxSqlRows = 10000;

// The time one rule's SQL may take, all its selections together (the pack's
// slowest takes milliseconds); past it the rule is an error, not a hang.
inline constexpr int64_t kRuleSqlBudgetNs = 10'000'000'000;
inline constexpr char kRuleSqlBudgetWords[] = "ran past the rule's time budget of 10 s";

// The database's deadline for one rule's SQL from now; lifted when it goes.
class RuleSqlBudget {
 public:
  explicit RuleSqlBudget(Database& db);
  ~RuleSqlBudget();
  RuleSqlBudget(const RuleSqlBudget&) = delete;

 private:
  Database& db_;
};

// Creates the temp tables behind `matches` (once per connection) and clears
// them. Fails when the database does.
Status PrepareRuleSql(Database& db);

// Makes `matches` show the rows of `rule_id`, forgetting those of the rule
// before.
Status BeginRuleSql(Database& db, const std::string& rule_id);

// Adds a selection's rows to what `matches` shows for `rule_id`.
Status RecordSelectionRows(Database& db, const std::string& rule_id, const std::string& selection,
                           const std::vector<SelectionRow>& rows);

// Runs one SQL selection. Fails (InvalidArgument, naming the selection) when
// the SQL does not prepare, writes, fails while stepping or runs past the
// budget (kRuleSqlBudgetWords).
Result<std::vector<SelectionRow>> RunSqlSelection(Database& db, const Selection& selection, int64_t bundle_id);

// What an SQL selection reads, as artifacts: those the loaders that fill
// the tables it reads read (analyzer/load/loader.cc). An empty result is "none"
// when any of them was captured; one over nothing captured is unknown. The
// tables every bundle has (artifacts, events, artifact_lines, `matches`)
// add nothing, so a selection over those alone is always known. Fails as
// RunSqlSelection does when the SQL does not prepare.
Result<ArtifactChoice> ArtifactsBehind(Database& db, const Selection& selection);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_SQL_H_
