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
    while (statement->Step()) {
    }
    if (!statement->status().ok()) problem = statement->status().message();
  }
  Status end = db.Exec("PRAGMA query_only = OFF");
  return problem.empty() && !end.ok() ? end.message() : problem;
}

std::string Join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

// Confirmed means the event was observed: each way the condition can hold
// must rest on at least one event selection.
void LintConfirmed(const Rule& rule, const std::string& text, std::vector<std::string>& problems) {
  for (const auto& o : rule.outcomes) {
    if (o.confidence != "confirmed") continue;
    std::vector<std::vector<std::string>> branches = {{}};
    if (o.condition) branches = PositiveBranches(*o.condition);
    for (const auto& branch : branches) {
      bool event = false;
      for (const auto& name : branch) {
        const Selection* s = rule.FindSelection(name);
        event = event || (s && s->shows == SelectionKind::kEvent);
      }
      if (event) continue;
      std::string rests = branch.empty() ? "nothing it selects" : Join(branch, " and ");
      problems.push_back(FormatRuleError(rule.file, text, o.mark.line, o.mark.column,
                                         "a confirmed outcome rests on " + rests +
                                             " alone (no event selection): confirmed means the event was observed"));
      break;
    }
  }
}

void LintNearMisses(const Rule& rule, std::vector<std::string>& problems) {
  int near_misses = 0;
  for (const auto& s : rule.samples) near_misses += s.near_miss;
  if (near_misses >= kNearMissesPerRule) return;
  problems.push_back(rule.file + ": " + std::to_string(near_misses) + " near-miss sample" +
                     (near_misses == 1 ? "" : "s") + "; every rule needs at least " +
                     std::to_string(kNearMissesPerRule) +
                     " (near_miss: true - a node that looks like the issue but has another cause, or its "
                     "precondition without the event)");
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
    auto text = ReadWholeFile(rule.file);
    LintConfirmed(rule, text.ok() ? *text : "", report.problems);
    LintNearMisses(rule, report.problems);
    for (const auto& id : rule.explained_by) {
      if (!ids.count(id)) report.problems.push_back(rule.file + ": explained_by names no known rule: '" + id + "'");
    }
    for (const auto& s : rule.selections) {
      if (s.kind != Selection::Kind::kSql) continue;
      std::string problem = TrySql(db, s);
      if (problem.empty()) continue;
      report.problems.push_back(FormatRuleError(rule.file, text.ok() ? *text : "", s.mark.line, s.mark.column,
                                                "sql of selection '" + s.name + "': " + problem));
    }
  }
  return report;
}

}  // namespace gpuf
