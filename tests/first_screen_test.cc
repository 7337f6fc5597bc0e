// The first screen at 3 am: for every sample bundle, the text report at 80
// columns says the verdict, the root cause with its confidence and the
// single safest next action with this node's exact command within the 24
// lines of a terminal, wherever the bundle lies (support desks keep them
// under paths like /var/tmp/support/CASE-123456/node-a/); the recovered
// node gets no restart advice.
#include <doctest/doctest.h>

#include <filesystem>
#include <sstream>

#include "analyzer/analysis.h"
#include "analyzer/render/render_text.h"
#include "analyzer/render/text_wrap.h"
#include "analyzer/report/build_report.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

constexpr int kFirstScreenLines = 24;
constexpr size_t kLongPathChars = 120;

// A copy of the sample under a directory whose path is kLongPathChars long.
class SampleAtLongPath {
 public:
  explicit SampleAtLongPath(const std::string& scenario) {
    std::string dir = temp_.path() + "/var/tmp/support/CASE-123456/node-a/";
    dir += std::string(kLongPathChars - dir.size(), 'x');
    std::filesystem::create_directories(dir);
    path_ = dir + "/" + scenario + ".tar.zst";
    std::filesystem::copy_file(test::SourcePath("samples/" + scenario + ".tar.zst"), path_);
  }
  const std::string& path() const { return path_; }

 private:
  test::TempDir temp_;
  std::string path_;
};

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
  SampleAtLongPath sample(scenario);
  const std::string& path = sample.path();
  REQUIRE(std::filesystem::path(path).parent_path().string().size() == kLongPathChars);
  auto analysis = AnalyzeBundle(path, *db);
  REQUIRE_MESSAGE(analysis.ok(), analysis.status().message());
  auto report = BuildReport(*db, *analysis, path);
  REQUIRE_MESSAGE(report.ok(), report.status().message());
  return *report;
}

}  // namespace

TEST_SUITE("first_screen") {

TEST_CASE("Text report: verdict, root cause and next action within 24 lines at 80 columns, the bundle 120 characters deep") {
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
    // The exact command, whole on its line when it fits the terminal.
    int command = LineStarting(lines, "    " + report.next_action.command.substr(0, 40));
    CHECK((command > next && command < kFirstScreenLines));
    if (command >= 0 && report.next_action.command.size() + 4 <= 80) {
      CHECK(lines[command] == "    " + report.next_action.command);
    }
  }
}

TEST_CASE("Text report: the seed incident leads with the race, its amplifier under it, the exact crictl command") {
  Report seed = ReportOf("seed-incident");
  std::vector<std::string> lines = Lines(RenderText(seed, DisplayZone()));
  REQUIRE(lines.size() > 11);
  // Lines 1-2: the node, and the bundle's ID with its integrity; then the verdict.
  CHECK(lines[0].rfind("gpuforensics report: node cn-shanghai.10.20.31.47", 0) == 0);
  CHECK(lines[1] == "bundle " + seed.bundle_id + ", integrity: every member matches the manifest");
  CHECK(seed.bundle_id.rfind("gf-", 0) == 0);
  CHECK(lines[3] == "GPU chain verdict: BROKEN at step 7, device plugin NVML init (2 later steps fail with it); root "
                    "cause: dp-started-before-driver-ready (confirmed)");
  CHECK(lines[4] == "Root cause [HIGH, confirmed]: dp-started-before-driver-ready");
  CHECK(lines[6] == "  amplifier [HIGH, confirmed]: dp-null-manager-after-nvml-failure");
  CHECK(lines[7].rfind("Next action: Restart the device-plugin container only and check that it registers: the command "
                       "below (static pod nvidia-device-plugin-cn-shanghai.10.20.31.47: ",
                       0) == 0);
  CHECK(lines[8] == "    crictl stop f3d0365e077f8 && crictl rm f3d0365e077f8");
  // Where the bundle lies comes after the first screen.
  int bundle = LineStarting(lines, "Bundle");
  CHECK(bundle > 8);
  CHECK(LineStarting(lines, "  file: " + seed.bundle_path) == bundle + 1);
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
