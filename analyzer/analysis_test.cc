#include "analyzer/analysis.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include "analyzer/render/render_json.h"
#include "analyzer/report/build_report.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

// The JSON report of `bundle` analysed in `db`.
std::string JsonReport(Database& db, const std::string& bundle) {
  auto analysis = AnalyzeBundle(bundle, db);
  REQUIRE(analysis.ok());
  auto report = BuildReport(db, *analysis, bundle);
  REQUIRE(report.ok());
  return RenderJson(*report);
}

}  // namespace

// The scratch database scans the rules' logs on its reader, in a thread,
// while the timeline is built; an in-memory one has no reader and scans
// after the timeline, on the one connection.
TEST_CASE("AnalyzeBundle: the rules' log scan beside the timeline reports what the scan after it does") {
  int compared = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::SourcePath("samples"))) {
    const std::string bundle = entry.path().string();
    if (entry.path().extension() != ".zst") continue;
    CAPTURE(bundle);
    auto beside = Database::Create(kScratchDatabase);
    REQUIRE(beside.ok());
    auto after = Database::Create(":memory:");
    REQUIRE(after.ok());
    REQUIRE_FALSE(after->OpenReader().ok());
    std::string with_reader = JsonReport(*beside, bundle);
    CHECK(with_reader == JsonReport(*after, bundle));
    CHECK(with_reader.find("\"findings\"") != std::string::npos);
    ++compared;
  }
  CHECK(compared >= 13);
}

}  // namespace gpuf
