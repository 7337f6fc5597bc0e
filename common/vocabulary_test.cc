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

}  // TEST_SUITE

}  // namespace gpuf
