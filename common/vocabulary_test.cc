#include "common/vocabulary.h"

#include <doctest/doctest.h>

namespace gpuf {

namespace {

// Every value's name parses back to it; names are unique lower_snake_case.
template <typename E>
void RoundTrips() {
  auto names = Names<E>();
  for (size_t i = 0; i < names.size(); ++i) {
    E value = static_cast<E>(i);
    CHECK(Parse<E>(Name(value)) == value);
    for (char c : names[i]) CHECK(((c >= 'a' && c <= 'z') || c == '_'));
  }
}

}  // namespace

TEST_SUITE("vocabulary") {

TEST_CASE("Name and Parse: every word of every list, and nothing else") {
  RoundTrips<ProbeStatus>();
  RoundTrips<SkipReason>();
  RoundTrips<Severity>();
  RoundTrips<Confidence>();
  RoundTrips<Milestone>();
  CHECK(Name(Milestone::kPluginRegistered) == "plugin_registered");
  CHECK(Name(SkipReason::kNotApplicable) == "not_applicable");
  CHECK(Parse<Severity>("hgih") == std::nullopt);
  CHECK(Parse<Milestone>("plugin_registerd") == std::nullopt);
  CHECK(Parse<ProbeStatus>("") == std::nullopt);
}

TEST_CASE("Severity and Confidence: most severe and surest first") {
  CHECK(Severity::kCritical < Severity::kHigh);
  CHECK(Names<Severity>().front() == "critical");
  CHECK(Names<Confidence>().front() == "confirmed");
}

TEST_CASE("Severity: serious is medium or above, written once") {
  CHECK(AtLeast(Severity::kCritical, Severity::kHigh));
  CHECK(AtLeast(Severity::kHigh, Severity::kHigh));
  CHECK_FALSE(AtLeast(Severity::kMedium, Severity::kHigh));
  CHECK(Serious(Severity::kCritical));
  CHECK(Serious(Severity::kHigh));
  CHECK(Serious(Severity::kMedium));
  CHECK_FALSE(Serious(Severity::kLow));
  CHECK_FALSE(Serious(Severity::kInfo));
}

TEST_CASE("Confidence: one step down at a time, possible is the floor") {
  CHECK(Lowered(Confidence::kConfirmed) == Confidence::kLikely);
  CHECK(Lowered(Confidence::kLikely) == Confidence::kPossible);
  CHECK(Lowered(Confidence::kPossible) == Confidence::kPossible);
  CHECK(SurerThan(Confidence::kConfirmed, Confidence::kLikely));
  CHECK_FALSE(SurerThan(Confidence::kPossible, Confidence::kLikely));
  CHECK_FALSE(SurerThan(Confidence::kLikely, Confidence::kLikely));
}

}  // TEST_SUITE

}  // namespace gpuf
