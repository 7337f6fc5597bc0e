#include <cstdio>
#include <iostream>
#include <optional>

#include "analyzer/analysis.h"
#include "analyzer/database.h"
#include "analyzer/render/report_lines.h"
#include "analyzer/rule_samples.h"
#include "analyzer/rules/rule_engine.h"
#include "analyzer/rules/rule_lint.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/exit_codes.h"
#include "common/terminal_text.h"
#include "common/time_format.h"
#include "formats/message_catalogue.h"

namespace gpuf {

namespace {

constexpr const char* kUsage =
    "gpuforensics rules list [--rules DIR]...\n"
    "gpuforensics rules lint DIR\n"
    "gpuforensics rules test DIR\n"
    "gpuforensics rules run BUNDLE [--rules DIR]... [--no-builtin] [--db FILE]\n\n"
    "The known-issue rules (format: rules/README.md). list shows the built-in\n"
    "rules and those of each --rules folder; lint checks one folder's files\n"
    "(fields, RE2, references, unique ids, SQL against the schema); test runs\n"
    "every rule's samples and checks the outcome each expects; run evaluates\n"
    "the rules on a bundle and prints what they found.\n\noptions";

std::vector<std::string> RuleDirs(const po::variables_map& values) {
  std::vector<std::string> dirs;
  if (!values.count("no-builtin")) dirs.push_back(BuiltinRulesDir());
  if (values.count("rules")) {
    for (const auto& d : values["rules"].as<std::vector<std::string>>()) dirs.push_back(d);
  }
  return dirs;
}

int List(const po::variables_map& values) {
  auto set = LoadRules(RuleDirs(values));
  if (!set.ok()) return ReportFailure("rules list", set.status());
  std::string out;
  for (const auto& r : set->rules) {
    char line[512];
    std::snprintf(line, sizeof line, "%-48s %-8s %s\n", r.id.c_str(), Word(r.severity).c_str(), r.title.c_str());
    out += line;
  }
  for (const auto& e : set->errors) out += e.id + ": not usable:\n" + e.message + "\n";
  WriteStdout(TerminalSafe(out));
  return set->errors.empty() ? kExitOk : kExitFindings;
}

int Lint(const std::string& dir) {
  auto report = LintRules(dir);
  if (!report.ok()) return ReportFailure("rules lint", report.status());
  std::string out;
  for (const auto& p : report->problems) out += p + "\n";
  out += std::to_string(report->rules) + " rules read, " + std::to_string(report->problems.size()) + " problems\n";
  WriteStdout(TerminalSafe(out));
  return report->problems.empty() ? kExitOk : kExitFindings;
}

int Test(const std::string& dir) {
  auto set = LoadRules({dir});
  if (!set.ok()) return ReportFailure("rules test", set.status());
  auto checks = RunRuleSamples(*set);
  if (!checks.ok()) return ReportFailure("rules test", checks.status());
  std::string out;
  size_t passed = 0;
  size_t failed = set->errors.size();
  for (const auto& e : set->errors) out += "FAIL " + e.id + ": the file does not read:\n" + e.message + "\n";
  for (const auto& c : *checks) {
    if (c.passed) {
      ++passed;
      out += "ok   " + c.rule_id + ": " + c.sample + "\n";
      continue;
    }
    ++failed;
    out += "FAIL " + c.rule_id + ": " + c.sample + ": expected " + c.expected + ", got " + c.actual + "\n";
    if (!c.detail.empty()) out += "     " + c.detail + "\n";
  }
  out += std::to_string(passed) + " samples passed, " + std::to_string(failed) + " failed\n";
  WriteStdout(TerminalSafe(out));
  return failed == 0 ? kExitOk : kExitFindings;
}

std::string Describe(const Finding& f) {
  std::string tense = f.tense == Tense::kCurrent ? "" : " (" + Word(f.tense) + ")";
  std::string out = Word(f.result) + " " + Word(f.severity) + " " + Word(f.confidence) + tense + "  " + f.rule_id +
                    ": " + f.summary + "\n";
  for (const auto& e : f.evidence) {
    std::string where = e.artifact.empty() ? "" : e.artifact + (e.line ? ":" + std::to_string(*e.line) : "") + " ";
    std::string when = e.time_ns ? FormatRfc3339Utc(*e.time_ns) + " " : "";
    out += "    evidence: " + where + when + e.text + "\n";
  }
  for (const auto& a : f.against) out += "    against: " + AgainstStateWords(a) + ": " + a.text + "\n";
  for (const auto& m : f.missing_evidence) out += "    missing: " + m + "\n";
  return out;
}

bool Serious(const Finding& f) { return Serious(f.severity); }

// As analyze: findings at medium or above first, then what the run cannot
// vouch for (no rule, a rule in error, members missing or damaged).
int RunExitStatus(const RuleRunSummary& summary, const LoadResult& loaded) {
  for (const auto& f : summary.findings) {
    if (Serious(f)) return kExitFindings;
  }
  bool errors = false;
  for (const auto& r : summary.runs) errors = errors || r.outcome == RuleOutcome::kError;
  bool gaps = summary.runs.empty() || errors || !loaded.manifest.complete || !loaded.integrity_issues.empty();
  return gaps ? kExitIncomplete : kExitOk;
}

int Run(const std::string& bundle, const po::variables_map& values) {
  std::optional<DatabaseOutput> kept;
  if (values.count("db")) {
    auto output = DatabaseOutput::Begin(values["db"].as<std::string>(), DatabaseKind::kAnalysis);
    if (!output.ok()) return ReportFailure("rules run", output.status());
    kept.emplace(std::move(*output));
  }
  auto db = Database::Create(kept ? kept->write_path() : std::string(kScratchDatabase));
  if (!db.ok()) return ReportFailure("rules run", db.status());
  auto loaded = PrepareBundle(bundle, *db);
  if (!loaded.ok()) return ReportFailure("rules run", loaded.status());
  auto summary = RunRules(*db, loaded->bundle_id, RuleDirs(values));
  if (!summary.ok()) return ReportFailure("rules run", summary.status());
  if (kept) {
    Status published = kept->Publish();
    if (!published.ok()) return ReportFailure("rules run", published);
  }
  std::string out;
  for (const auto& f : summary->findings) out += Describe(f);
  for (const auto& f : summary->ruled_out) out += Describe(f);
  for (const auto& r : summary->runs) {
    if (RuleNotEvaluated(r)) out += Word(r.outcome) + "  " + r.rule_id + ": " + r.reason + "\n";
  }
  if (summary->runs.empty()) out += "no rule ran\n";
  for (const auto& issue : loaded->integrity_issues) out += "integrity  " + issue.member + ": " + issue.problem + "\n";
  WriteStdout(TerminalSafe(out));
  return RunExitStatus(*summary, *loaded);
}

}  // namespace

int RunRulesCommand(const std::vector<std::string>& args) {
  po::options_description options(kUsage);
  options.add_options()
      ("action", po::value<std::string>()->value_name("ACTION"), "list | lint | test | run")
      ("target", po::value<std::string>()->value_name("DIR|BUNDLE"), "the rules folder (lint, test) or the bundle (run)")
      ("rules", po::value<std::vector<std::string>>()->value_name("DIR"), "a site's rules folder, added to the built-in ones")
      ("messages", po::value<std::vector<std::string>>()->value_name("DIR"),
       "a site's wordings folder (messages/*.yaml format), added to the built-in catalogue")
      ("no-builtin", "leave out the built-in rules")
      ("db", po::value<std::string>()->value_name("FILE"),
       "run: keep the database in this file: a new file, or an analysis database written before (default: none)");
  po::positional_options_description positional;
  positional.add("action", 1).add("target", 1);
  auto parsed = ParseOptions("rules", args, options, positional);
  if (!parsed.ok()) return ReportFailure("rules", parsed.status());
  if (parsed->help) return PrintHelp("rules", options, positional);
  const po::variables_map& values = parsed->values;
  if (values.count("messages")) {
    Status used = UseMessageFolders(values["messages"].as<std::vector<std::string>>());
    if (!used.ok()) return ReportFailure("rules", used);
  }
  std::string action = values.count("action") ? values["action"].as<std::string>() : "";
  std::string target = values.count("target") ? values["target"].as<std::string>() : "";
  if (action == "list" && target.empty()) return List(values);
  if (action == "lint" && !target.empty()) return Lint(target);
  if (action == "test" && !target.empty()) return Test(target);
  if (action == "run" && !target.empty()) return Run(target, values);
  return ReportFailure("rules", Status::InvalidArgument("usage: gpuforensics rules list | lint DIR | test DIR | run BUNDLE",
                                                        "see 'gpuforensics rules --help'"));
}

}  // namespace gpuf
