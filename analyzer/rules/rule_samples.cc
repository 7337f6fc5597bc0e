#include "analyzer/rules/rule_samples.h"

#include <filesystem>
#include <map>

#include "analyzer/analysis.h"
#include "analyzer/rules/rule_engine.h"
#include "analyzer/rules/rule_error.h"
#include "analyzer/rules/sample_fixture.h"
#include "common/file_io.h"

namespace gpuf {

namespace {

std::string Expected(const RuleSample& s) {
  return s.expect_confidence.empty() ? s.expect_result : s.expect_result + " " + s.expect_confidence;
}

// The rule's outcome in `summary`, in the form samples expect.
void Judge(const RuleRunSummary& summary, const std::string& rule_id, SampleCheck& check) {
  check.actual = "not run";
  for (const auto& run : summary.runs) {
    if (run.rule_id != rule_id) continue;
    check.actual = run.outcome;
    check.detail = run.reason;
  }
  for (const auto& f : summary.findings) {
    if (f.rule_id == rule_id) check.actual += " " + f.confidence;
  }
  check.passed = check.actual == check.expected;
}

SampleCheck Begin(const Rule& rule, const RuleSample& sample) {
  SampleCheck check;
  check.rule_id = rule.id;
  check.sample = sample.name;
  check.expected = Expected(sample);
  return check;
}

Result<SampleCheck> CheckInline(const Rule& rule, const RuleSample& sample) {
  SampleCheck check = Begin(rule, sample);
  GPUF_ASSIGN_OR_RETURN(Database db, Database::Create(":memory:"));
  RuleMark where;
  auto bundle = BuildSampleBundle(db, sample, &where);
  if (!bundle.ok()) {
    if (bundle.status().code() != Status::Code::kBadInput) return bundle.status();
    auto text = ReadWholeFile(rule.file);
    check.actual = "error";
    check.detail = FormatRuleError(rule.file, text.ok() ? *text : "", where.line, where.column,
                                   bundle.status().message());
    return check;
  }
  RuleSet alone;
  alone.rules.push_back(rule);
  GPUF_ASSIGN_OR_RETURN(RuleRunSummary summary, RunRuleSet(db, *bundle, alone));
  Judge(summary, rule.id, check);
  return check;
}

std::string BundlePath(const Rule& rule, const RuleSample& sample) {
  std::filesystem::path path(sample.bundle);
  if (path.is_relative()) path = std::filesystem::path(rule.file).parent_path() / path;
  return path.lexically_normal().string();
}

}  // namespace

Result<std::vector<SampleCheck>> RunRuleSamples(const RuleSet& set) {
  std::vector<SampleCheck> checks;
  // Bundle samples: path -> (rule index, sample index, position in checks).
  std::map<std::string, std::vector<std::pair<const Rule*, size_t>>> by_bundle;
  for (const auto& rule : set.rules) {
    for (const auto& sample : rule.samples) {
      if (!sample.bundle.empty()) {
        by_bundle[BundlePath(rule, sample)].emplace_back(&rule, checks.size());
        checks.push_back(Begin(rule, sample));
        continue;
      }
      GPUF_ASSIGN_OR_RETURN(SampleCheck check, CheckInline(rule, sample));
      checks.push_back(check);
    }
  }
  for (const auto& [path, users] : by_bundle) {
    GPUF_ASSIGN_OR_RETURN(Database db, Database::Create(":memory:"));
    auto loaded = PrepareBundle(path, db);
    if (!loaded.ok()) {
      for (const auto& [rule, at] : users) {
        checks[at].actual = "error";
        checks[at].detail = loaded.status().message();
      }
      continue;
    }
    GPUF_ASSIGN_OR_RETURN(RuleRunSummary summary, RunRuleSet(db, loaded->bundle_id, set));
    for (const auto& [rule, at] : users) Judge(summary, rule->id, checks[at]);
  }
  return checks;
}

}  // namespace gpuf
