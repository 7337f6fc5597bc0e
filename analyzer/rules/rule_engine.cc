#include "analyzer/rules/rule_engine.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "analyzer/rules/artifact_index.h"
#include "analyzer/rules/boot_clock.h"
#include "analyzer/rules/diagnosis_vocab.h"
#include "analyzer/rules/engine_selections.h"
#include "analyzer/rules/gpu_presence.h"
#include "analyzer/rules/journal_event_rows.h"
#include "analyzer/rules/log_scan.h"
#include "analyzer/rules/node_kind.h"
#include "analyzer/rules/recovery.h"
#include "analyzer/rules/rule_eval.h"
#include "analyzer/rules/rule_parser.h"
#include "analyzer/rules/rule_sql.h"
#include "analyzer/rules/rule_store.h"
#include "analyzer/rules/sql_functions.h"
#include "analyzer/rules/subject_keys.h"
#include "common/text_lines.h"
#include "common/time_format.h"
#include "common/vocabulary.h"
#include "formats/message_catalogue.h"

namespace gpuf {

namespace {

// A `current` selection's rows: the ones neither undone before capture nor
// of an earlier boot.
void KeepCurrent(const BootClock& clock, const ArtifactIndex& artifacts, std::vector<SelectionRow>& rows) {
  std::erase_if(rows, [&](const SelectionRow& row) {
    return !row.undone.empty() || clock.Of(row, artifacts) == RowBoot::kEarlier;
  });
}

// A row that names no container is about the one whose log or state it
// was read from: two lines of one plugin log are one container's.
void TagWriterContainers(const ArtifactIndex& artifacts, std::vector<SelectionRow>& rows) {
  for (auto& row : rows) {
    if (row.container || !row.artifact_id) continue;
    const BundleArtifact* a = artifacts.Find(*row.artifact_id);
    if (a && !a->container.empty()) row.container = a->container;
  }
}

// What the engine knows of one bundle before any rule runs: read once,
// shared by every rule.
struct BundleFacts {
  const LogScanner& scanner;
  const JournalKindRows& journal;
  const ArtifactIndex& artifacts;
  const BootClock& clock;
  const GpuDirectory& gpus;
  const Recoveries& recoveries;
};

// One rule's selections in order (each SQL selection sees the rows of those
// above it through `matches`), then its outcomes. An SQL selection that does
// not run makes the rule an error; a database failure fails the run.
Result<Evaluation> EvaluateOne(Database& db, int64_t bundle_id, const Rule& rule, size_t index,
                               const BundleFacts& facts) {
  const auto& [scanner, journal, artifacts, clock, gpus, recoveries] = facts;
  GPUF_RETURN_IF_ERROR(BeginRuleSql(db, rule.id));
  RuleSqlBudget budget(db);
  SelectionRows rows;
  SqlSources sql_sources;
  UnknownSelections unknown_derived;
  for (const auto& s : rule.selections) {
    std::vector<SelectionRow> got;
    if (s.kind == Selection::Kind::kDerived) {
      // In order, so that SQL below sees them in `matches`.
      UnknownSelections unknown = UnknownOf(rule, rows, artifacts, sql_sources);
      unknown.insert(unknown_derived.begin(), unknown_derived.end());
      got = DeriveRows(s, rows, unknown);
      if (unknown.count(s.name)) unknown_derived.insert(s.name);
      GPUF_RETURN_IF_ERROR(RecordSelectionRows(db, rule.id, s.name, got));
      rows[s.name] = std::move(got);
      continue;
    }
    if (s.kind == Selection::Kind::kLog) {
      got = scanner.Matches(index, s.name);
      if (auto recorded = journal.find(s.message); recorded != journal.end()) MergeRowsByLine(recorded->second, got);
      KeepWhere(s.where, got);
    } else {
      if (s.from.empty()) {
        auto behind = ArtifactsBehind(db, s);
        if (!behind.ok() && behind.status().code() != Status::Code::kInvalidArgument) return behind.status();
        if (behind.ok() && !behind->empty()) sql_sources[s.name] = std::move(*behind);
      }
      auto result = RunSqlSelection(db, s, bundle_id);
      if (!result.ok() && result.status().code() != Status::Code::kInvalidArgument) return result.status();
      if (!result.ok()) {
        Evaluation failed;
        failed.run = {rule.id, RuleOutcome::kError, result.status().message(), 0};
        return failed;
      }
      got = std::move(*result);
    }
    gpus.Tag(got);
    TagWriterContainers(artifacts, got);
    clock.Tag(got, artifacts);
    recoveries.MarkUndone(s, got);
    if (s.kind == Selection::Kind::kSql) InheritUndone(rows, got);
    if (s.current) KeepCurrent(clock, artifacts, got);
    GPUF_RETURN_IF_ERROR(RecordSelectionRows(db, rule.id, s.name, got));
    rows[s.name] = std::move(got);
  }
  return EvaluateRule(rule, rows, artifacts, clock, sql_sources, unknown_derived);
}

// A finding of a rule whose `explained_by` names a rule that also fired, at
// least as confidently and no less current, is folded into that one: the
// rule passes, saying which rule explains it. A weaker explanation leaves
// the finding standing; the diagnosis ranks both.
void ApplyExplanations(const RuleSet& set, std::map<std::string, Evaluation>& evaluations) {
  std::map<std::string, const Finding*> fired;
  for (const auto& [id, e] : evaluations) {
    if (e.finding && e.finding->tense != Tense::kRuledOut) fired[id] = &*e.finding;
  }
  std::map<std::string, std::string> explained;  // rule -> its new reason
  for (const auto& rule : set.rules) {
    auto it = evaluations.find(rule.id);
    if (it == evaluations.end() || !it->second.finding || it->second.finding->tense == Tense::kRuledOut) continue;
    const Finding& mine = *it->second.finding;
    for (const auto& other : rule.explained_by) {
      auto by = fired.find(other);
      if (by == fired.end()) continue;
      const Finding& theirs = *by->second;
      if (SurerThan(mine.confidence, theirs.confidence)) continue;
      if (theirs.tense == Tense::kHistory && mine.tense != Tense::kHistory) continue;
      explained[rule.id] = "explained by " + other + ": " + theirs.summary;
      break;
    }
  }
  for (const auto& [id, reason] : explained) {
    Evaluation& e = evaluations[id];
    e.finding.reset();
    e.run.outcome = RuleOutcome::kPass;
    e.run.reason = reason;
  }
}

// A rule that asks the catalogue for an event (`message:`) reads every
// line of every input: a failure is recognised whoever wrote it down.
bool ReadsTheCatalogue(const Rule& rule) {
  return std::any_of(rule.selections.begin(), rule.selections.end(),
                     [](const Selection& s) { return s.kind == Selection::Kind::kLog && !s.message.empty(); });
}

// The event kinds the rules ask for by name, and the unit starts that undo
// a unit's failure: the kinds whose journal rows are read, once each.
std::set<std::string> JournalKindsRead(const RuleSet& set) {
  std::set<std::string> kinds = {"unit_started"};
  for (const auto& rule : set.rules) {
    for (const auto& s : rule.selections) {
      if (!s.message.empty()) kinds.insert(s.message);
    }
  }
  return kinds;
}

// Whether a message selection has rows: as the catalogue found them, or as
// the journal's classifier recorded the kind (a daemon-reload has no
// wording of its own).
bool MessageRowsSeen(const Selection& s, size_t index, const LogScanner& scanner, const JournalKindRows& journal) {
  if (s.kind != Selection::Kind::kLog || s.message.empty()) return false;
  auto passes = [&](const SelectionRow& row) { return PassesWhere(s.where, row); };
  const std::vector<SelectionRow>& matched = scanner.Matches(index, s.name);
  if (std::any_of(matched.begin(), matched.end(), passes)) return true;
  auto it = journal.find(s.message);
  return it != journal.end() && std::any_of(it->second.begin(), it->second.end(), passes);
}

// A derived event that binds catalogue events alone (a pod's own log: NVML
// listed its GPUs, a daemon-reload, then Unknown Error) is seen when every
// selection it needs was found. One kind of line filtered is not: the rule
// named that kind context, not the event.
bool DerivedEventSeen(const Rule& rule, const Selection& derived, size_t index, const LogScanner& scanner,
                      const JournalKindRows& journal) {
  if (!derived.condition) return false;
  auto seen = [&](const std::string& name) {
    const Selection* s = rule.FindSelection(name);
    return s != nullptr && MessageRowsSeen(*s, index, scanner, journal);
  };
  std::vector<std::string> needed = RequiredSelections(*derived.condition);
  return needed.size() >= 2 && std::all_of(needed.begin(), needed.end(), seen);
}

// Whether an event of the rule was found by the catalogue, in whatever input.
bool CatalogueEventSeen(const Rule& rule, size_t index, const LogScanner& scanner, const JournalKindRows& journal) {
  for (const auto& s : rule.selections) {
    if (s.shows != SelectionKind::kEvent) continue;
    if (s.kind == Selection::Kind::kDerived ? DerivedEventSeen(rule, s, index, scanner, journal)
                                            : MessageRowsSeen(s, index, scanner, journal)) {
      return true;
    }
  }
  return false;
}

// The rules whose required artifacts are usable, or that read the
// catalogue, by index in `set`: the ones whose patterns are scanned.
std::vector<size_t> Evaluable(const RuleSet& set, const ArtifactIndex& artifacts) {
  std::vector<size_t> evaluable;
  for (size_t i = 0; i < set.rules.size(); ++i) {
    const Rule& rule = set.rules[i];
    if (ReadsTheCatalogue(rule) || artifacts.Unmet(rule.required_artifacts).empty()) evaluable.push_back(i);
  }
  return evaluable;
}

Result<RuleRunSummary> Evaluate(Database& db, int64_t bundle_id, const RuleSet& set, ScannedLogs scanned) {
  RuleRunSummary summary;
  const ArtifactIndex& artifacts = scanned.artifacts;
  const LogScanner& scanner = *scanned.scanner;
  GPUF_ASSIGN_OR_RETURN(BootClock clock, BootClock::Load(db, bundle_id));
  GPUF_ASSIGN_OR_RETURN(GpuDirectory gpus, GpuDirectory::Load(db, bundle_id));
  if (scanned.gpu_names) {
    for (const auto& row : scanner.Matches(set.rules.size(), scanned.gpu_names->name)) {
      gpus.Add({.bus = row.Field("bus").value_or(""), .uuid = row.Field("uuid").value_or("")});
    }
  }
  GPUF_ASSIGN_OR_RETURN(std::optional<std::string> not_gpu_node, WhyNotAGpuNode(db, bundle_id, gpus));
  GPUF_ASSIGN_OR_RETURN(std::vector<GpuPresence> presence, LoadGpuPresence(db, bundle_id, gpus));
  const std::vector<SelectionRow> none;
  const std::vector<SelectionRow>& registered =
      scanned.registrations ? scanner.Matches(set.rules.size(), scanned.registrations->name) : none;
  GPUF_ASSIGN_OR_RETURN(PluginRecord plugin, LoadPluginRecord(db, bundle_id, artifacts, registered));
  GPUF_ASSIGN_OR_RETURN(JournalKindRows journal, LoadJournalKindRows(db, bundle_id, JournalKindsRead(set)));
  const Recoveries recoveries(presence, std::move(plugin), UnitStartsOf(journal["unit_started"]));
  const BundleFacts facts{scanner, journal, artifacts, clock, gpus, recoveries};
  GPUF_RETURN_IF_ERROR(PrepareRuleSql(db));
  GPUF_RETURN_IF_ERROR(WriteGpuSubjects(db, presence));
  GPUF_RETURN_IF_ERROR(WriteNodeKind(db, not_gpu_node));
  summary.scan_ns = scanned.scan_ns;
  summary.scan = scanner.stats();
  std::map<std::string, Evaluation> evaluations;
  for (size_t i = 0; i < set.rules.size(); ++i) {
    const Rule& rule = set.rules[i];
    if (not_gpu_node && !rule.any_node) {
      evaluations[rule.id].run = {rule.id, RuleOutcome::kSkipped, *not_gpu_node, 0};
      continue;
    }
    std::vector<std::string> unmet = artifacts.Unmet(rule.required_artifacts);
    // The artifacts a rule requires are where its evidence usually is; a
    // catalogue event of it found in any other input is evidence too.
    if (!unmet.empty() && !CatalogueEventSeen(rule, i, scanner, journal)) {
      evaluations[rule.id].run = {rule.id, RuleOutcome::kSkipped, "missing: " + Join(unmet, "; "), 0};
      continue;
    }
    int64_t start = MonotonicNowNs();
    GPUF_ASSIGN_OR_RETURN(Evaluation e, EvaluateOne(db, bundle_id, rule, i, facts));
    e.run.elapsed_ns = MonotonicNowNs() - start;
    evaluations[rule.id] = std::move(e);
  }
  // A file that repeats a loaded rule's id keeps its own error row.
  std::vector<RuleRun> repeated;
  for (const auto& error : set.errors) {
    RuleRun run{error.id, RuleOutcome::kError, error.message, 0};
    if (evaluations.count(error.id)) {
      repeated.push_back(run);
    } else {
      evaluations[error.id].run = run;
    }
  }
  ApplyExplanations(set, evaluations);

  for (auto& [id, e] : evaluations) {
    summary.runs.push_back(e.run);
    if (!e.explanation.selections.empty()) summary.explanations[id] = std::move(e.explanation);
    if (!e.finding) continue;
    auto& into = e.finding->tense == Tense::kRuledOut ? summary.ruled_out : summary.findings;
    into.push_back(std::move(*e.finding));
  }
  summary.runs.insert(summary.runs.end(), repeated.begin(), repeated.end());
  summary.diagnosis = Diagnose(summary.findings, summary.ruled_out);
  // Findings in the diagnosis's order: the report leads with the root cause.
  std::map<std::string, int> position;
  for (const auto& entry : summary.diagnosis.entries) position.emplace(entry.rule_id, static_cast<int>(position.size()));
  std::stable_sort(summary.findings.begin(), summary.findings.end(), [&](const Finding& a, const Finding& b) {
    return position[a.rule_id] < position[b.rule_id];
  });
  GPUF_RETURN_IF_ERROR(StoreRuleResults(db, bundle_id, summary));
  return summary;
}

}  // namespace

Result<ScannedLogs> ScanRuleLogs(Database& db, int64_t bundle_id, const RuleSet& rules) {
  ScannedLogs scanned;
  GPUF_ASSIGN_OR_RETURN(scanned.artifacts, ArtifactIndex::Load(db, bundle_id));
  scanned.scanner = std::make_unique<LogScanner>();
  for (size_t i : Evaluable(rules, scanned.artifacts)) {
    for (const auto& s : rules.rules[i].selections) {
      if (s.kind == Selection::Kind::kLog) scanned.scanner->Add(i, s);
    }
  }
  scanned.gpu_names = GpuNamesSelection();
  scanned.scanner->Add(rules.rules.size(), *scanned.gpu_names);
  scanned.registrations = RegistrationsSelection();
  scanned.scanner->Add(rules.rules.size(), *scanned.registrations);
  int64_t start = MonotonicNowNs();
  GPUF_RETURN_IF_ERROR(scanned.scanner->Compile());
  GPUF_RETURN_IF_ERROR(scanned.scanner->Scan(db, scanned.artifacts));
  scanned.scan_ns = MonotonicNowNs() - start;
  return scanned;
}

Result<RuleRunSummary> RunRuleSet(Database& db, int64_t bundle_id, const RuleSet& rules,
                                  std::optional<ScannedLogs> scanned) {
  GPUF_RETURN_IF_ERROR(CheckRuleSqlFunctions(db));
  if (!scanned) {
    GPUF_ASSIGN_OR_RETURN(ScannedLogs here, ScanRuleLogs(db, bundle_id, rules));
    scanned = std::move(here);
  }
  GPUF_RETURN_IF_ERROR(db.Exec("SAVEPOINT gpuf_rules"));
  auto result = Evaluate(db, bundle_id, rules, std::move(*scanned));
  if (!result.ok()) {
    // Leave nothing half-written; the original failure is what matters.
    (void)db.Exec("PRAGMA query_only = OFF");
    (void)db.Exec("ROLLBACK TO gpuf_rules");
    (void)db.Exec("RELEASE gpuf_rules");
    return result.status();
  }
  GPUF_RETURN_IF_ERROR(db.Exec("RELEASE gpuf_rules"));
  return result;
}

Result<RuleRunSummary> RunRules(Database& db, int64_t bundle_id, const std::vector<std::string>& rule_dirs) {
  GPUF_ASSIGN_OR_RETURN(RuleSet rules, LoadRules(rule_dirs));
  return RunRuleSet(db, bundle_id, rules);
}

}  // namespace gpuf
