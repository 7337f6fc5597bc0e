#include "analyzer/report_lines.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

Report WithSteps(std::initializer_list<StepStatus> statuses) {
  Report r;
  int n = 0;
  for (StepStatus s : statuses) r.verdict.push_back({ChainStepId::kPci, "step " + std::to_string(++n), s, "", "", ""});
  return r;
}

}  // namespace

TEST_SUITE("report_lines") {

TEST_CASE("ChainVerdictLine: the first failed step, or what is unknown") {
  using S = StepStatus;
  CHECK(ChainVerdictLine(WithSteps({S::kOk, S::kFailed, S::kFailed, S::kFailed})) ==
        "BROKEN at step 2, step 2 (2 later steps fail with it)");
  CHECK(ChainVerdictLine(WithSteps({S::kOk, S::kFailed})) == "BROKEN at step 2, step 2");
  CHECK(ChainVerdictLine(WithSteps({S::kOk, S::kOk, S::kUnknown})) == "no step failed, 1 of 3 unknown from this bundle");
  CHECK(ChainVerdictLine(WithSteps({S::kOk})) == "every step ok");
  CHECK(ChainVerdictLine(Report{}) == "not computed");
}

TEST_CASE("NoFindingsCaveat: no finding is never silently 'healthy'") {
  Report r;
  r.artifacts_total = 10;
  r.rule_runs = {{"a", "pass", "", 0}, {"b", "pass", "", 0}};
  CHECK(NoFindingsCaveat(r) == "");
  CHECK(FindingsLine(r) == "no known issue recognized among 2 checked");

  r.artifacts_failed = 2;
  r.artifacts_skipped = 1;
  CHECK(NoFindingsCaveat(r) == "Every rule had the evidence it needs, but 3 of 10 artifacts are missing or failed "
                               "(see Coverage).");

  r.rule_runs.push_back({"c", "skipped", "needs plugin.log", 0});
  CHECK(NoFindingsCaveat(r) == "1 of 3 rules could not be checked for lack of evidence (see Coverage): this is not a "
                               "statement that the node is healthy.");

  r.complete = false;
  r.incomplete_reason = "deadline";
  CHECK(NoFindingsCaveat(r).rfind("The collection was cut short (deadline). 1 of 3 rules", 0) == 0);
}

TEST_CASE("FindingsLine: counts by severity, most severe first") {
  Report r;
  r.rule_runs.resize(28);
  Finding high, medium;
  high.severity = "high";
  medium.severity = "medium";
  r.findings = {high, medium, high};
  CHECK(FindingsLine(r) == "3 findings (2 high, 1 medium) of 28 known issues checked");
}

}  // TEST_SUITE

}  // namespace gpuf
