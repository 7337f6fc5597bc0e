#include "importer/boot_list.h"

#include <doctest/doctest.h>

#include "tests/fixtures.h"

namespace gpuf {

TEST_SUITE("boot_list") {

TEST_CASE("ParseBootList: the old form with German weekdays, times at the host's offset") {
  auto boots = ParseBootList(test::Fixture("formats/journalctl-list-boots_old-format-localized_systemd-3603.txt"),
                             2 * 3600);  // CEST
  REQUIRE(boots.size() == 3);
  CHECK(boots[-2].id == "f2c9668240bf458a96948bb490923ba0");
  CHECK(boots[0].id == "9e2ffa348b354fbc8555aa1f524214e5");
  CHECK(boots[0].start_ns == 1466903002LL * 1000000000);  // 2016-06-26 03:03:22 CEST = 01:03:22 UTC
  CHECK(boots[0].last_ns > boots[0].start_ns);
}

TEST_CASE("ParseBootList: the last entry, after a dash or in its own column") {
  auto old_form = ParseBootList(
      "-1 9041bba558bd41d70d8d3d4dd1461f95 Mon 2023-03-27 09:12:03 UTC\u2014"
      "Mon 2023-04-03 22:20:30 UTC\n",
      0);
  CHECK(old_form[-1].last_ns == 1680560430LL * 1000000000);
  auto table = ParseBootList(
      "IDX BOOT ID                          FIRST ENTRY                 LAST ENTRY\n"
      "  0 1a2b3c4d5e6f708192a3b4c5d6e7f801 Tue 2023-04-04 08:00:01 UTC Tue 2023-04-04 09:00:00 UTC\n",
      0);
  CHECK(table[0].start_ns == 1680595201LL * 1000000000);
  CHECK(table[0].last_ns == 1680598800LL * 1000000000);
  CHECK(ParseBootList(" 0 1a2b3c4d5e6f708192a3b4c5d6e7f801 Tue 2023-04-04 08:00:01 UTC\n", 0)[0].last_ns == 0);
}

TEST_CASE("ParseBootList: the table form of newer systemd") {
  for (const char* name : {"formats/journalctl-list-boots_new-table-clock-skew_systemd-28981.txt",
                           "formats/journalctl-list-boots_new-table-last-before-first_systemd-27422.txt",
                           "formats/journalctl-list-boots_old-format_systemd-17326.txt"}) {
    auto boots = ParseBootList(test::Fixture(name), 0);
    CHECK_MESSAGE(!boots.empty(), name);
    for (const auto& [offset, boot] : boots) {
      CHECK(offset <= 0);
      CHECK(boot.id.size() == 32);
      CHECK(boot.start_ns > 0);
    }
  }
  CHECK(ParseBootList("IDX BOOT ID FIRST ENTRY LAST ENTRY\nnot a row\n", 0).empty());
}

}  // TEST_SUITE

}  // namespace gpuf
