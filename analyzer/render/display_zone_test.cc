#include "analyzer/render/display_zone.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("display_zone") {

constexpr int64_t kNovember = 1700000000123000000;  // 2023-11-14T22:13:20.123Z
constexpr int64_t kJuly = 1720000000123000000;      // 2024-07-03T09:46:40.123Z

std::string FormatIn(const std::string& spec, int64_t unix_ns) {
  auto zone = DisplayZone::Parse(spec, "Asia/Shanghai");
  REQUIRE(zone.ok());
  return zone->Format(unix_ns);
}

TEST_CASE("DisplayZone: UTC, fixed offsets, IANA zones with their summer time, the node's zone") {
  CHECK(DisplayZone().Format(kNovember) == "2023-11-14T22:13:20.123Z");
  CHECK(FormatIn("Etc/UTC", kNovember) == "2023-11-14T22:13:20.123Z");
  CHECK(FormatIn("-05:30", kNovember) == "2023-11-14T16:43:20.123-05:30");
  CHECK(FormatIn("Asia/Shanghai", kNovember) == "2023-11-15T06:13:20.123+08:00");
  CHECK(FormatIn("Asia/Kolkata", kNovember) == "2023-11-15T03:43:20.123+05:30");
  CHECK(FormatIn("America/New_York", kNovember) == "2023-11-14T17:13:20.123-05:00");
  CHECK(FormatIn("America/New_York", kJuly) == "2024-07-03T05:46:40.123-04:00");
  CHECK(FormatIn("node", kJuly) == "2024-07-03T17:46:40.123+08:00");
  CHECK(DisplayZone::Parse("node", "Asia/Shanghai")->name() == "Asia/Shanghai");
}

TEST_CASE("DisplayZone: names outside the zone database are refused") {
  for (const char* spec : {"Mars/Base", "../../etc/passwd", "/usr/share/zoneinfo/UTC", "zone.tab", "+25:00"}) {
    CAPTURE(spec);
    auto zone = DisplayZone::Parse(spec, "");
    REQUIRE_FALSE(zone.ok());
    CHECK(zone.status().message() ==
          "--tz '" + std::string(spec) + "' is not UTC, +HH:MM, node, or a zone in /usr/share/zoneinfo");
  }
}

}  // TEST_SUITE

}  // namespace gpuf
