#include "analyzer/rules/rule_lint.h"

#include <re2/re2.h>

#include <algorithm>
#include <set>

#include "analyzer/database.h"
#include "analyzer/rules/rule_loader.h"
#include "analyzer/rules/rule_sql.h"
#include "analyzer/rules/sql_functions.h"
#include "analyzer/rules/sql_words.h"
#include "common/event_kinds.h"
#include "common/file_io.h"
#include "common/text_lines.h"
#include "formats/message_catalogue.h"
#include "formats/yaml_error.h"

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

// A finding's confidence is computed from the rule's confirming pieces
// (confirming_pieces.h): an outcome that states its own word keeps it
// whatever the evidence, and a rule with findings but no piece would
// confirm every event it sees.
void LintConfidence(const Rule& rule, const std::string& text, std::vector<std::string>& problems) {
  bool findings = false;
  for (const auto& o : rule.outcomes) {
    findings = findings || o.result != RuleOutcome::kPass;
    if (!o.confidence) continue;
    problems.push_back(FormatYamlError(
        rule.file, text, o.mark.line, o.mark.column,
        "'confidence: " + std::string(Name(*o.confidence)) +
            "' states the word the evidence should give: drop it and list the catalog's confirming evidence under "
            "confirms; the engine computes the confidence from what held (docs/diagnosis.md section 2)"));
  }
  if (rule.confirms_as_missing) {
    problems.push_back(
        rule.file +
        ": 'missing' is the older name of 'confirms': write 'confirms:' with 'when:' where it says 'unless:'");
  }
  if (findings && rule.confirms.empty()) {
    problems.push_back(rule.file +
                       ": no confirming piece (confirms): every event it sees would be confirmed; list what the "
                       "catalog says confirms the issue");
  }
}

// The first ordering of `c` without a window, as "a before b"; "" when none.
std::string UnboundedOrdering(const Condition& c) {
  if (c.op == Condition::Op::kBefore && !c.window_ns) return c.left + " before " + c.right;
  for (const auto& child : c.children) {
    std::string found = UnboundedOrdering(child);
    if (!found.empty()) return found;
  }
  return "";
}

// An ordering without a window lets a consequence hours away confirm its
// trigger: every `before`/`after` says how far apart its rows may be.
void LintWindows(const Rule& rule, std::vector<std::string>& problems) {
  std::vector<std::pair<std::string, const Condition*>> conditions;
  for (const auto& o : rule.outcomes) conditions.emplace_back("outcome '" + o.when + "'", o.condition.get());
  for (const auto& p : rule.confirms) conditions.emplace_back("confirms '" + p.when + "'", p.condition.get());
  for (const auto& a : rule.against) conditions.emplace_back("against '" + a.when + "'", a.condition.get());
  for (const auto& s : rule.selections) conditions.emplace_back("selection " + s.name, s.condition.get());
  for (const auto& [where, c] : conditions) {
    std::string found = c ? UnboundedOrdering(*c) : "";
    if (found.empty()) continue;
    problems.push_back(rule.file + ": " + where + ": '" + found +
                       "' has no window: say how far apart the rows may be ('within 10m'; a day is 24h)");
  }
}

// Whether a fault healed is the engine's to decide from what undid its
// events (common/event_kinds.cc undone_by), not an outcome's to assert:
// a hand-marked history outcome stays history when nothing undid it.
void LintHistoryMarks(const Rule& rule, const std::string& text, std::vector<std::string>& problems) {
  for (const auto& o : rule.outcomes) {
    if (!o.history) continue;
    problems.push_back(FormatYamlError(
        rule.file, text, o.mark.line, o.mark.column,
        "'history: true' asserts the fault healed: drop it; the engine makes a finding history when its events lie "
        "in an earlier boot or were undone (a later registration, the GPU listed again: common/event_kinds.cc)"));
  }
}

// An SQL selection that picks journal entries by the journal's own
// classification of an event kind re-derives what `message: KIND` reads,
// each entry once across slices: the first such word, "" when none.
std::string JournalEventReadBySql(const Selection& s) {
  if (s.kind != Selection::Kind::kSql || s.sql.find("journal_entries") == std::string::npos) return "";
  for (const auto& kind : EventKinds()) {
    for (std::string_view event : ListWords(kind.journal_events)) {
      if (s.sql.find("'" + std::string(event) + "'") != std::string::npos) return std::string(kind.name);
    }
  }
  return "";
}

void LintJournalEventSql(const Rule& rule, const std::string& text, std::vector<std::string>& problems) {
  for (const auto& s : rule.selections) {
    std::string kind = JournalEventReadBySql(s);
    if (kind.empty()) continue;
    problems.push_back(FormatYamlError(rule.file, text, s.mark.line, s.mark.column,
                                       "selection '" + s.name + "' reads the journal's events in SQL: ask for the " +
                                           "kind instead (message: " + kind + ", where: {...}; rules/README.md)"));
  }
}

// An SQL selection over other selections' rows (`matches`) that compares
// their times or lines writes a window by hand, which the operators bind,
// bound and make unknown where a precision decides it: the comparison
// found, "" when none.
std::string WindowOverMatches(const Selection& s) {
  static const RE2 kComparison(
      R"((?i)(\b(?:time_ns|line)\s*(?:<|>|\bbetween\b)|(?:<|>)=?\s*\(?\s*(?:\w+\.)?(?:time_ns|line)\b))");
  std::string found;
  if (s.kind != Selection::Kind::kSql || s.sql.find("matches") == std::string::npos) return "";
  if (!RE2::PartialMatch(s.sql, kComparison, &found)) return "";
  return found;
}

void LintWindowsOverMatches(const Rule& rule, const std::string& text, std::vector<std::string>& problems) {
  for (const auto& s : rule.selections) {
    std::string found = WindowOverMatches(s);
    if (found.empty()) continue;
    problems.push_back(FormatYamlError(rule.file, text, s.mark.line, s.mark.column,
                                       "selection '" + s.name + "' compares rows' times in SQL ('" + found +
                                           "'): keep them with a rows_of selection and before/after/within or "
                                           "'no x after a' (rules/README.md)"));
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

Result<SchemaColumns> ReadSchemaColumns(Database& db) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(
      "SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'"));
  SchemaColumns schema;
  while (s.Step()) schema[s.ColumnText(0)].insert(s.ColumnText(1));
  GPUF_RETURN_IF_ERROR(s.status());
  return schema;
}

// Where byte `offset` of a selection's SQL stands in the rule file: in a
// block scalar (| or >) on the lines below the mark, past their indent;
// otherwise on the mark's line, past an opening quote.
YamlMark SqlMark(std::string_view text, YamlMark mark, std::string_view sql, size_t offset) {
  std::vector<std::string_view> lines;
  for (size_t at = 0; at <= text.size();) {
    size_t end = text.find('\n', at);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back(text.substr(at, end - at));
    at = end + 1;
  }
  if (mark.line < 0 || static_cast<size_t>(mark.line) >= lines.size()) return mark;
  std::string_view at_mark = lines[mark.line].substr(std::min<size_t>(mark.column, lines[mark.line].size()));
  size_t line_start = sql.rfind('\n', offset == 0 ? 0 : offset - 1);
  int column_in_sql = static_cast<int>(line_start == std::string_view::npos || offset == 0 ? offset
                                                                                           : offset - line_start - 1);
  if (!at_mark.empty() && (at_mark[0] == '|' || at_mark[0] == '>')) {
    int line = mark.line + 1 + static_cast<int>(std::count(sql.begin(), sql.begin() + offset, '\n'));
    if (static_cast<size_t>(line) >= lines.size()) return mark;
    int indent = static_cast<int>(lines[mark.line + 1].find_first_not_of(' '));
    return {line, indent + column_in_sql};
  }
  bool quoted = !at_mark.empty() && (at_mark[0] == '\'' || at_mark[0] == '"');
  return {mark.line, mark.column + column_in_sql + (quoted ? 1 : 0)};
}

}  // namespace

Result<LintReport> LintRules(const std::string& dir) {
  GPUF_ASSIGN_OR_RETURN(RuleSet set, LoadRules({dir}));
  GPUF_ASSIGN_OR_RETURN(Database db, Database::Create(":memory:"));
  GPUF_RETURN_IF_ERROR(CheckRuleSqlFunctions(db));
  GPUF_RETURN_IF_ERROR(PrepareRuleSql(db));
  GPUF_ASSIGN_OR_RETURN(SchemaColumns schema, ReadSchemaColumns(db));
  LintReport report;
  report.rules = set.rules.size();
  if (set.rules.empty() && set.errors.empty())
    report.problems.push_back(dir + ": no rule files (*.yaml) in this folder");
  for (const auto& error : set.errors) report.problems.push_back(error.message);
  // The rules' message selections read the catalogue: its refused entries are the pack's problems too.
  for (const auto& error : ActiveMessages().errors) report.problems.push_back(error);
  // explained_by may name this folder's rules or the built-in ones.
  std::set<std::string> ids;
  auto builtin = LoadRules({BuiltinRulesDir()});
  for (const auto* rules : {&set.rules, builtin.ok() ? &builtin->rules : &set.rules}) {
    for (const auto& rule : *rules) ids.insert(rule.id);
  }
  for (const auto& rule : set.rules) {
    auto text = ReadWholeFile(rule.file);
    LintConfidence(rule, text.ok() ? *text : "", report.problems);
    LintNearMisses(rule, report.problems);
    LintWindows(rule, report.problems);
    LintHistoryMarks(rule, text.ok() ? *text : "", report.problems);
    LintJournalEventSql(rule, text.ok() ? *text : "", report.problems);
    LintWindowsOverMatches(rule, text.ok() ? *text : "", report.problems);
    for (const auto& id : rule.explained_by) {
      if (!ids.count(id)) report.problems.push_back(rule.file + ": explained_by names no known rule: '" + id + "'");
    }
    for (const auto& s : rule.selections) {
      if (s.kind != Selection::Kind::kSql) continue;
      std::string_view file_text = text.ok() ? std::string_view(*text) : std::string_view();
      std::string problem = TrySql(db, s);
      if (!problem.empty()) {
        report.problems.push_back(FormatYamlError(rule.file, file_text, s.mark.line, s.mark.column,
                                                  "sql of selection '" + s.name + "': " + problem));
        continue;
      }
      for (const auto& word : CheckSqlWords(s.sql, schema)) {
        YamlMark at = SqlMark(file_text, s.mark, s.sql, word.offset);
        report.problems.push_back(FormatYamlError(rule.file, file_text, at.line, at.column,
                                                  "sql of selection '" + s.name + "': " + word.message));
      }
    }
  }
  return report;
}

}  // namespace gpuf
