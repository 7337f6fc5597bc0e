#include "analyzer/journal/journal_boot_ends.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_SUITE("journal_boot_ends") {

TEST_CASE("JournalBootEnds: the latest entry with both clocks, per boot") {
  JournalBootEnds ends;
  ends.Note("aa", 0, 1000, 10);
  ends.Note("aa", 0, 3000, 30);
  ends.Note("aa", 0, 2000, 20);      // earlier: ignored
  ends.Note("aa", 0, 9000, std::nullopt);  // no monotonic stamp
  ends.Note("bb", -1, 500, 5);
  ends.Note("", 0, 99999, 1);         // no boot id
  REQUIRE(ends.ends().size() == 2);
  const JournalBootEnd& a = ends.ends().at("aa");
  CHECK(a.boot_offset == 0);
  CHECK(a.realtime_us == 3000);
  CHECK(a.monotonic_us == 30);
  CHECK(ends.ends().at("bb").boot_offset == -1);
}

TEST_CASE("JournalBootEnds: of equal latest stamps, one whose slice names its boot") {
  JournalBootEnds ends;
  ends.Note("aa", std::nullopt, 3000, 30);
  ends.Note("aa", 0, 3000, 30);
  ends.Note("aa", std::nullopt, 3000, 30);
  CHECK(ends.ends().at("aa").boot_offset == 0);
}

}  // TEST_SUITE

}  // namespace gpuf
