// The rule engine: known issues (rules/*.yaml, rules/README.md) evaluated
// against one bundle loaded into the database.
//
//   auto summary = RunRules(db, loaded.bundle_id, {BuiltinRulesDir(), site_dir});
//
// For each rule: when an artifact it requires is not usable it is `skipped`
// with the names; otherwise its log selections are matched (all rules' log
// patterns in one RE2::Set, one pass over each log source), its SQL
// selections run read-only in order, and its first outcome whose condition
// holds decides (rule_eval.h: three-valued evidence, evidence against,
// current or history). A rule whose file does not parse, or whose SQL fails,
// is an `error` with the message; other rules go on. A rule that failed or
// warned is then turned into a pass when a rule it lists in `explained_by`
// failed or warned too with at least its confidence ("explained by <id>").
// Last, the findings are grouped and ranked (differential.h).
//
// Results are written to rule_runs, findings, finding_evidence,
// finding_missing, diagnoses, diagnosis_against and diagnosis_evidence
// (replacing earlier results for the bundle) inside a savepoint, and
// returned.
#ifndef GPUF_ANALYZER_RULES_RULE_ENGINE_H_
#define GPUF_ANALYZER_RULES_RULE_ENGINE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/rules/artifact_index.h"
#include "analyzer/rules/differential.h"
#include "analyzer/rules/explanation.h"
#include "analyzer/rules/finding.h"
#include "analyzer/rules/log_scan.h"
#include "analyzer/rules/rule_loader.h"
#include "analyzer/rules/rule_run_summary.h"
#include "analyzer/rules/scan_stats.h"
#include "common/status.h"

namespace gpuf {

// What the rules are evaluated against: the bundle's artifacts, and every
// log pattern of the rules that can run matched in one pass over the log
// sources (`rules` must outlive it). Only reads: it may run on another
// connection (Database::OpenReader) while this one builds the timeline,
// which changes none of the tables it reads.
struct ScannedLogs {
  ArtifactIndex artifacts;
  std::unique_ptr<LogScanner> scanner;
  // The engine's own selection: the kernel's lines that name a GPU ("GPU
  // at PCI:… GPU-…", which joins its bus to its UUID for `same gpu`; an
  // Xid, a fall off the bus, a failed initialisation).
  std::unique_ptr<Selection> gpu_names;
  // And the device plugin's registrations, wherever written: what undoes an
  // earlier start's failure (recovery.h).
  std::unique_ptr<Selection> registrations;
  int64_t scan_ns = 0;
};
Result<ScannedLogs> ScanRuleLogs(Database& db, int64_t bundle_id, const RuleSet& rules);

// Fails when a folder cannot be read (NotFound) or the database fails
// (Internal); problems of single rules are rule_runs rows, not failures.
Result<RuleRunSummary> RunRules(Database& db, int64_t bundle_id, const std::vector<std::string>& rule_dirs);

// The same with rules already read (rules test runs one rule at a time),
// and with their logs already scanned when `scanned` is given.
Result<RuleRunSummary> RunRuleSet(Database& db, int64_t bundle_id, const RuleSet& rules,
                                  std::optional<ScannedLogs> scanned = std::nullopt);

}  // namespace gpuf

#endif  // GPUF_ANALYZER_RULES_RULE_ENGINE_H_
