#include "analyzer/render/swimlane_axis.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("swimlane_axis") {

TEST_CASE("SwimlaneAxis: a boot's first minute spreads over the plot, no break") {
  SwimlaneAxis axis({17.3, 21.2, 37.4, 38.2}, 100, 900);
  CHECK(axis.breaks().empty());
  CHECK(axis.X(0) == doctest::Approx(100));
  CHECK(axis.X(axis.max_seconds()) == doctest::Approx(900));
  CHECK(axis.X(38.2) < 900);
  CHECK(axis.X(37.4) < axis.X(38.2));
  CHECK(axis.tick_step() == doctest::Approx(5));
  CHECK(axis.Ticks().front() == 0);
}

TEST_CASE("SwimlaneAxis: ten idle hours become one narrow break, time keeps its order") {
  SwimlaneAxis axis({17.3, 37.4, 36863.6, 36864.0}, 100, 900);
  REQUIRE(axis.breaks().size() == 1);
  CHECK(axis.breaks()[0].from_seconds > 37.4);
  CHECK(axis.breaks()[0].to_seconds < 36863.6);
  double break_width = axis.X(axis.breaks()[0].to_seconds) - axis.X(axis.breaks()[0].from_seconds);
  CHECK(break_width == doctest::Approx(SwimlaneAxis::kBreakWidth));
  // The first minute still takes most of the plot, and later is further right.
  CHECK(axis.X(37.4) - axis.X(0) > 500);
  CHECK(axis.X(36863.6) > axis.X(37.4));
  CHECK(axis.X(36864.0) > axis.X(36863.6));
  CHECK(axis.X(axis.max_seconds()) == doctest::Approx(900));
  for (double t : axis.Ticks()) {
    CHECK_FALSE((t > axis.breaks()[0].from_seconds && t < axis.breaks()[0].to_seconds));
  }
}

}  // TEST_SUITE

}  // namespace gpuf
