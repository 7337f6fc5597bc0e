// The first screen at 3 am: for every sample bundle, the text report at 80
// columns says the verdict, the root cause with its confidence and the
// single safest next action with this node's command within its first 25
// lines; the recovered node gets no restart advice.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

#include "analyzer/analysis.h"
#include "analyzer/render_text.h"
#include "analyzer/text_wrap.h"
#include "analyzer/report.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

constexpr int kFirstScreenLines = 25;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// The 0-based index of the first line starting with `prefix`; -1 when none.
int LineStarting(const std::vector<std::string>& lines, const std::string& prefix) {
  for (size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].rfind(prefix, 0) == 0) return static_cast<int>(i);
  }
  return -1;
}

Report ReportOf(const std::string& scenario) {
  auto db = Database::Create(":memory:");
  REQUIRE(db.ok());
  const std::string path = test::SourcePath("samples/" + scenario + ".tar.zst");
  auto analysis = AnalyzeBundle(path, *db);
  REQUIRE_MESSAGE(analysis.ok(), analysis.status().message());
  auto report = BuildReport(*db, *analysis, path);
  REQUIRE_MESSAGE(report.ok(), report.status().message());
  return *report;
}

}  // namespace

TEST_SUITE("first_screen") {

TEST_CASE("Text report: verdict, root cause and next action within 25 lines at 80 columns") {
  for (const auto& entry : std::filesystem::directory_iterator(test::SourcePath("samples/scenarios"))) {
    const std::string scenario = entry.path().filename().string();
    CAPTURE(scenario);
    Report report = ReportOf(scenario);
    std::vector<std::string> lines = Lines(RenderText(report, DisplayZone(), TextStyle{false, 80}));
    for (const auto& line : lines) CHECK_MESSAGE(VisibleWidth(line) <= 80, line);
    int verdict = LineStarting(lines, "GPU chain verdict: ");
    CHECK((verdict >= 0 && verdict < kFirstScreenLines));
    const DiagnosisEntry* leader = report.diagnosis.Leader();
    int cause = LineStarting(lines, leader && leader->place == "root_cause" ? "Root cause [" : leader ? "Leading finding ("
                                                                                                     : "Root cause: ");
    CHECK((cause >= 0 && cause < kFirstScreenLines));
    if (report.next_action.kind.empty()) continue;
    int next = LineStarting(lines, "Next action: ");
    CHECK((next >= 0 && next < kFirstScreenLines));
    if (report.next_action.command.empty()) continue;
    int command = LineStarting(lines, "    " + report.next_action.command.substr(0, 40));
    CHECK((command > next && command < kFirstScreenLines));
  }
}

TEST_CASE("Text report: the seed incident leads with the race, its amplifier under it, the exact crictl command") {
  std::vector<std::string> lines = Lines(RenderText(ReportOf("seed-incident"), DisplayZone()));
  REQUIRE(lines.size() > 11);
  // Lines 1-4: the report, node, node identity and integrity lines; then the verdict.
  CHECK(lines[5] == "GPU chain verdict: BROKEN at step 7, device plugin NVML init (2 later steps fail with it); root "
                    "cause: dp-started-before-driver-ready (confirmed)");
  CHECK(lines[6] == "Root cause [HIGH, confirmed]: dp-started-before-driver-ready");
  CHECK(lines[8] == "  amplifier [HIGH, confirmed]: dp-null-manager-after-nvml-failure");
  CHECK(lines[9].rfind("Next action: Restart the device-plugin container only and check that it registers: the command "
                       "below (static pod nvidia-device-plugin-cn-shanghai.10.20.31.47: ",
                       0) == 0);
  CHECK(lines[10] == "    crictl stop f3d0365e077f8 && crictl rm f3d0365e077f8");
}

TEST_CASE("Text report: a recovered node (chain ok, registered) gets no restart advice and exits 0") {
  Report report = ReportOf("recovery");
  CHECK_FALSE(HasSeriousFinding(report));
  CHECK(report.next_action.kind == "prevent");
  CHECK(report.next_action.command.empty());
  std::string text = RenderText(report, DisplayZone());
  CHECK(text.find("crictl stop") == std::string::npos);
  CHECK(text.find("delete pod") == std::string::npos);
  CHECK(text.find("Restart the device-plugin") == std::string::npos);
  auto run = test::RunGpuforensics({"analyze", test::SourcePath("samples/recovery.tar.zst")});
  CHECK(run.exit_code == 0);
}

}  // TEST_SUITE

}  // namespace gpuf
