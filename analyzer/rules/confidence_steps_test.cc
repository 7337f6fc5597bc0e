#include "analyzer/rules/confidence_steps.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_CASE("ConfidenceSteps: the first word stands when nothing caps or lowers it") {
  ConfidenceSteps c(Confidence::kConfirmed, "all 2 confirming pieces observed");
  CHECK(c.value() == Confidence::kConfirmed);
  CHECK_FALSE(c.ruled_out());
  CHECK(c.Line() == "confirmed: all 2 confirming pieces observed");
}

TEST_CASE("ConfidenceSteps: a cap lowers to its ceiling, never raises, and records why") {
  ConfidenceSteps c(Confidence::kConfirmed, "all 2 confirming pieces observed");
  c.Cap(Confidence::kLikely, "not captured: the device cgroup");
  c.Cap(Confidence::kLikely, "not captured: the plugin's settings");  // already there: no step
  CHECK(c.value() == Confidence::kLikely);
  CHECK(c.Line() == "confirmed: all 2 confirming pieces observed; likely: not captured: the device cgroup");

  ConfidenceSteps possible(Confidence::kPossible, "no event observed");
  possible.Cap(Confidence::kLikely, "lines of unknown origin");
  CHECK(possible.value() == Confidence::kPossible);
  CHECK(possible.steps().size() == 1);
}

TEST_CASE("ConfidenceSteps: a held lower steps down once, and a second one rules it out") {
  ConfidenceSteps c(Confidence::kConfirmed, "all 2 confirming pieces observed");
  c.Lower("nvidia-smi works inside the container");
  CHECK(c.value() == Confidence::kLikely);
  CHECK_FALSE(c.ruled_out());
  c.Lower("the plugin registered after it");
  CHECK(c.ruled_out());
  CHECK(c.steps().back() == "ruled out: a second check against held: the plugin registered after it");
}

TEST_CASE("ConfidenceSteps: a held lower on a finding that was only possible rules it out") {
  ConfidenceSteps c(Confidence::kConfirmed, "all 2 confirming pieces observed");
  c.Cap(Confidence::kPossible, "only a record that outlives the event shows it");
  c.Lower("the GPU is listed at capture");
  CHECK(c.ruled_out());
  CHECK(c.value() == Confidence::kPossible);
  CHECK(c.steps().back() == "ruled out: held against a finding that was only possible: the GPU is listed at capture");
}

TEST_CASE("ConfidenceSteps: a held rule-out rules it out, and nothing after it adds a step") {
  ConfidenceSteps c(Confidence::kLikely, "as its outcome says");
  c.RuleOut("the plugin is not the NVIDIA one");
  c.Lower("later");
  c.Cap(Confidence::kPossible, "later");
  CHECK(c.ruled_out());
  CHECK(c.Line() == "likely: as its outcome says; ruled out: the plugin is not the NVIDIA one");
}

}  // namespace gpuf
