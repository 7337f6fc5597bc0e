#include "common/time_format.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("time_format") {

TEST_CASE("FormatRfc3339Utc: nine fraction digits, UTC") {
  CHECK(FormatRfc3339Utc(0) == "1970-01-01T00:00:00.000000000Z");
  CHECK(FormatRfc3339Utc(1763435896123456789LL) == "2025-11-18T03:18:16.123456789Z");
}

TEST_CASE("ParseRfc3339: offsets, fractions and the Go zero time") {
  SUBCASE("Z with nanoseconds") {
    auto t = ParseRfc3339("2025-11-18T03:18:16.123456789Z");
    REQUIRE(t.ok());
    CHECK(*t == 1763435896123456789LL);
  }
  SUBCASE("+08:00 is eight hours ahead of UTC") {
    auto t = ParseRfc3339("2025-11-18T11:18:16.5+08:00");
    REQUIRE(t.ok());
    CHECK(*t == 1763435896500000000LL);
  }
  SUBCASE("negative offset, no fraction") {
    auto t = ParseRfc3339("2023-12-15T14:12:36-06:00");
    REQUIRE(t.ok());
    CHECK(*t == 1702671156000000000LL);
  }
  SUBCASE("Go zero time is out of the int64 nanosecond range") {
    auto t = ParseRfc3339("0001-01-01T00:00:00Z");
    REQUIRE_FALSE(t.ok());
    CHECK(t.status().message() == "time out of range: 0001-01-01T00:00:00Z");
  }
  SUBCASE("the epoch as crictl prints an unset time") {
    auto t = ParseRfc3339("1970-01-01T00:00:00Z");
    REQUIRE(t.ok());
    CHECK(*t == 0);
  }
  SUBCASE("garbage is refused with the text in the message") {
    auto t = ParseRfc3339("yesterday");
    REQUIRE_FALSE(t.ok());
    CHECK(t.status().message() == "not an RFC 3339 time: yesterday");
  }
  SUBCASE("a zone is required") {
    CHECK_FALSE(ParseRfc3339("2025-11-18T03:18:16").ok());
  }
}

}  // TEST_SUITE

}  // namespace gpuf

namespace gpuf {

TEST_CASE("UnixNsFromUtcCivil: a date and time in range, nothing for what int64 nanoseconds cannot hold") {
  CHECK(UnixNsFromUtcCivil(2026, 11, 18, 3, 18, 17) == int64_t{1794971897} * 1000000000);
  CHECK(UnixNsFromUtcCivil(1970, 1, 1, 0, 0, 0) == 0);
  CHECK_FALSE(UnixNsFromUtcCivil(4046, 1, 1, 0, 0, 0).has_value());  // a fuzzed Go log year
  CHECK_FALSE(UnixNsFromUtcCivil(1, 1, 1, 0, 0, 0).has_value());     // Go's zero time
  CHECK_FALSE(UnixNsFromUtcCivil(2026, 13, 1, 0, 0, 0).has_value());
  CHECK_FALSE(UnixNsFromUtcCivil(2026, 11, 99999999999, 0, 0, 0).has_value());
  CHECK_FALSE(UnixNsFromUtcCivil(2026, 11, 18, 24, 0, 0).has_value());
}

}  // namespace gpuf
