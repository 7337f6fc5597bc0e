#include "analyzer/render/render_explain.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("render_explain") {
TEST_CASE("RenderExplanation: selections with their rows or what was not captured, the outcome that decided") {
  RuleRunSummary summary;
  summary.runs = {{"xid-79", RuleOutcome::kFail, "GPU 0000:2b:00 fell off the bus (Xid 79)", 0}, {"other", RuleOutcome::kSkipped, "missing", 0}};
  RuleExplanation x;
  x.selections = {{.name = "kernel_xid", .shows = "event", .reads = "the catalogue's xid code=79", .state = "true",
                   .rows = 4, .examples = {"journal.kernel:7  NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus."}},
                  {.name = "unhealthy", .shows = "event", .reads = "the catalogue's gpu_unhealthy", .state = "unknown",
                   .needs = "plugin.log or plugin.crictl_logs"}};
  x.outcomes = {{"kernel_xid and unhealthy within 2m of kernel_xid and same gpu", "fail", "confirmed", "unknown"},
                {"kernel_xid", "fail", "likely", "true"},
                {"", "pass", "", "not reached"}};
  summary.explanations["xid-79"] = x;
  Finding f;
  f.rule_id = "xid-79";
  f.confidence = Confidence::kPossible;
  f.confidence_before = Confidence::kLikely;
  f.against.push_back({.text = "another cause", .effect = "lower", .state = "held"});
  f.confidence_steps = {"likely: 1 of 2 confirming pieces absent (not captured: plugin.log)",
                        "possible: held against: another cause"};
  summary.findings.push_back(f);
  auto text = RenderExplanation(summary, "xid-79");
  REQUIRE(text.ok());
  CHECK(text->rfind("rule xid-79: fail (possible, current)\n  GPU 0000:2b:00 fell off the bus (Xid 79)\n", 0) == 0);
  CHECK(text->find("  kernel_xid              event        true (4 rows) the catalogue's xid code=79\n"
                   "      journal.kernel:7  NVRM: Xid (PCI:0000:2b:00): 79, GPU has fallen off the bus.\n"
                   "      ... and 3 more\n") != std::string::npos);
  CHECK(text->find("      not captured: plugin.log or plugin.crictl_logs\n") != std::string::npos);
  CHECK(text->find("  2  true        fail likely      when kernel_xid   <- decided\n") != std::string::npos);
  CHECK(text->find("  3  not reached pass             (always)\n") != std::string::npos);
  CHECK(text->find("\nconfidence\n  likely: 1 of 2 confirming pieces absent (not captured: plugin.log)\n  possible: "
                   "held against: another cause\n"
                   "  against: another cause: HELD (lower)\n") != std::string::npos);
  auto skipped = RenderExplanation(summary, "other");
  REQUIRE(skipped.ok());
  CHECK(*skipped == "rule other: skipped\n  missing\n\nnot evaluated: nothing was selected or decided\n");
  auto unknown = RenderExplanation(summary, "xid-97");
  REQUIRE_FALSE(unknown.ok());
  CHECK(unknown.status().message() == "no rule 'xid-97': the rules run were: xid-79, other");
}
}

}  // namespace gpuf
