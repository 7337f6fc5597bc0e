#include "analyzer/rules/boot_clock.h"

#include <doctest/doctest.h>

#include "tests/sample_rows_bundle.h"

namespace gpuf {

TEST_SUITE("boot_clock") {

TEST_CASE("BootClock::Tag: the slice's boot, else the row's boot_offset, else its time against the boot at capture") {
  Database db = test::InMemoryDatabase();
  int64_t bundle = test::SampleRowsBundle(db, R"(      journal_entries:
        - {artifact: 'journal.kernel[boot:-1]', line: 1, realtime_us: 1700000000000000, message: 'x'}
)");
  auto artifacts = ArtifactIndex::Load(db, bundle);
  REQUIRE(artifacts.ok());
  int64_t slice = -1;
  for (const auto& a : artifacts->artifacts()) {
    if (a.instance == "boot:-1") slice = a.artifact_id;
  }
  REQUIRE(slice != -1);
  auto row = [](std::optional<int64_t> artifact, std::optional<int64_t> time_ns, std::string boot_offset) {
    SelectionRow r;
    r.artifact_id = artifact;
    r.time_ns = time_ns;
    if (!boot_offset.empty()) r.fields.emplace_back("boot_offset", boot_offset);
    return r;
  };
  std::vector<SelectionRow> rows = {row(slice, 5'000, ""),           // the slice says -1
                                    row(std::nullopt, 5'000, "-2"),  // the events table says -2
                                    row(std::nullopt, 5'000, ""),    // before the boot at capture began
                                    row(std::nullopt, 20'000, ""),   // after it began
                                    row(std::nullopt, std::nullopt, "")};
  BootClock(10'000).Tag(rows, *artifacts);
  CHECK(rows[0].boot == -1);
  CHECK(rows[1].boot == -2);
  CHECK(rows[2].boot == kEarlierBoot);
  CHECK(rows[3].boot == 0);
  CHECK_FALSE(rows[4].boot);
}

TEST_CASE("MaySameBoot: an earlier boot not told apart may be any earlier one, never the boot at capture") {
  CHECK(MaySameBoot(0, 0));
  CHECK(MaySameBoot(-1, -1));
  CHECK_FALSE(MaySameBoot(-1, 0));
  CHECK(MaySameBoot(kEarlierBoot, -2));
  CHECK(MaySameBoot(-1, kEarlierBoot));
  CHECK_FALSE(MaySameBoot(kEarlierBoot, 0));
}

}  // TEST_SUITE

}  // namespace gpuf
