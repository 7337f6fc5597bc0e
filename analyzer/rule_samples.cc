#include "analyzer/rule_samples.h"

#include <filesystem>
#include <map>

#include "analyzer/analysis.h"
#include "analyzer/rules/rule_engine.h"
#include "analyzer/rules/sample_fixture.h"
#include "common/file_io.h"
#include "formats/yaml_error.h"

namespace gpuf {

namespace {

std::string Expected(const RuleSample& s) {
  std::string expected = s.expect_confidence.empty() ? s.expect_result : s.expect_result + " " + s.expect_confidence;
  if (!s.expect_summary.empty()) expected += ", saying '" + s.expect_summary + "'";
  return expected;
}

// The rule's outcome in `summary`, in the form samples expect; the summary
// said (a finding's, else the reason the rule passed) when the sample names
// text it must contain.
void Judge(const RuleRunSummary& summary, const std::string& rule_id, const RuleSample& sample,
           SampleCheck& check) {
  check.actual = "not run";
  std::string said;
  for (const auto& run : summary.runs) {
    if (run.rule_id != rule_id) continue;
    check.actual = run.outcome == RuleOutcome::kRuledOut ? "ruled-out" : Word(run.outcome);
    check.detail = run.reason;
    said = run.reason;
  }
  for (const auto& f : summary.findings) {
    if (f.rule_id != rule_id) continue;
    check.actual = (f.tense == Tense::kHistory ? "history " : check.actual + " ") + Word(f.confidence);
    said = f.summary;
  }
  if (!sample.expect_summary.empty()) {
    check.actual += said.find(sample.expect_summary) != std::string::npos
                        ? ", saying '" + sample.expect_summary + "'"
                        : ", saying '" + said + "'";
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
  YamlMark where;
  auto bundle = BuildSampleBundle(db, sample, &where);
  if (!bundle.ok()) {
    if (bundle.status().code() != Status::Code::kBadInput) return bundle.status();
    auto text = ReadWholeFile(rule.file);
    check.actual = "error";
    check.detail = FormatYamlError(rule.file, text.ok() ? *text : "", where.line, where.column,
                                   bundle.status().message());
    return check;
  }
  RuleSet alone;
  alone.rules.push_back(rule);
  GPUF_ASSIGN_OR_RETURN(RuleRunSummary summary, RunRuleSet(db, *bundle, alone));
  Judge(summary, rule.id, sample, check);
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
  // Bundle samples by path: the rule, the sample and its position in checks.
  struct BundleUser {
    const Rule* rule;
    const RuleSample* sample;
    size_t at;
  };
  std::map<std::string, std::vector<BundleUser>> by_bundle;
  for (const auto& rule : set.rules) {
    for (const auto& sample : rule.samples) {
      if (!sample.bundle.empty()) {
        by_bundle[BundlePath(rule, sample)].push_back({&rule, &sample, checks.size()});
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
      for (const auto& user : users) {
        checks[user.at].actual = "error";
        checks[user.at].detail = loaded.status().message();
      }
      continue;
    }
    GPUF_ASSIGN_OR_RETURN(RuleRunSummary summary, RunRuleSet(db, loaded->bundle_id, set));
    for (const auto& user : users) Judge(summary, user.rule->id, *user.sample, checks[user.at]);
  }
  return checks;
}

}  // namespace gpuf
