#include "analyzer/rules/rule_lint.h"

#include <set>

#include "analyzer/database.h"
#include "analyzer/rules/rule_error.h"
#include "analyzer/rules/rule_loader.h"
#include "analyzer/rules/rule_sql.h"
#include "analyzer/rules/sql_functions.h"
#include "common/file_io.h"

namespace gpuf {

namespace {

// Prepares and steps one SQL selection with writes refused. Returns the
// SQLite message, or "" when it ran.
std::string TrySql(Database& db, const Selection& s) {
  Status begin = db.Exec("PRAGMA query_only = ON");
  if (!begin.ok()) return begin.message();
  std::string problem;
  auto statement = db.PrepareSingle(s.sql);
  if (!statement.ok()) {
    problem = statement.status().message();
  } else {
    statement->BindNamed(":bundle", 1);
    RuleSqlBudget budget(db);
    while (statement->Step()) {
    }
    if (!statement->status().ok()) problem = statement->status().message();
    if (problem.ends_with(kInterruptedMessage)) problem = kRuleSqlBudgetWords;
  }
  Status end = db.Exec("PRAGMA query_only = OFF");
  return problem.empty() && !end.ok() ? end.message() : problem;
}

}  // namespace

Result<LintReport> LintRules(const std::string& dir) {
  GPUF_ASSIGN_OR_RETURN(RuleSet set, LoadRules({dir}));
  GPUF_ASSIGN_OR_RETURN(Database db, Database::Create(":memory:"));
  GPUF_RETURN_IF_ERROR(CheckRuleSqlFunctions(db));
  GPUF_RETURN_IF_ERROR(PrepareRuleSql(db));
  LintReport report;
  report.rules = set.rules.size();
  for (const auto& error : set.errors) report.problems.push_back(error.message);
  // explained_by may name this folder's rules or the built-in ones.
  std::set<std::string> ids;
  auto builtin = LoadRules({BuiltinRulesDir()});
  for (const auto* rules : {&set.rules, builtin.ok() ? &builtin->rules : &set.rules}) {
    for (const auto& rule : *rules) ids.insert(rule.id);
  }
  for (const auto& rule : set.rules) {
    for (const auto& id : rule.explained_by) {
      if (!ids.count(id)) report.problems.push_back(rule.file + ": explained_by names no known rule: '" + id + "'");
    }
    for (const auto& s : rule.selections) {
      if (s.kind != Selection::Kind::kSql) continue;
      std::string problem = TrySql(db, s);
      if (problem.empty()) continue;
      auto text = ReadWholeFile(rule.file);
      report.problems.push_back(FormatRuleError(rule.file, text.ok() ? *text : "", s.mark.line, s.mark.column,
                                                "sql of selection '" + s.name + "': " + problem));
    }
  }
  return report;
}

}  // namespace gpuf
