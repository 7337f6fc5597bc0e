#include "cli/progress_reporter.h"

#include <doctest/doctest.h>

#include <string>

namespace gpuf {

namespace {

std::string Contents(FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string out;
  char buf[256];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
  return out;
}

}  // namespace

TEST_SUITE("progress_reporter") {

TEST_CASE("ProgressReporter: silent and callback-free when not on a terminal") {
  FILE* f = std::tmpfile();
  {
    ProgressReporter progress(false, f);
    CHECK_FALSE(progress.Callback());
  }
  CHECK(Contents(f).empty());
  std::fclose(f);
}

TEST_CASE("ProgressReporter: a line per update, erased at the end") {
  FILE* f = std::tmpfile();
  {
    ProgressReporter progress(true, f, std::chrono::hours(1));  // no tick during the test
    LoadProgressFn callback = progress.Callback();
    REQUIRE(callback);
    LoadProgress p;
    p.compressed_bytes_read = 3 << 20;
    p.compressed_bytes_total = 12 << 20;
    p.members_loaded = 57;
    p.members_total = 101;
    p.artifact = "plugin.log";
    p.artifact_bytes = 145 << 20;
    callback(p);
    p.members_loaded = 58;
    callback(p);  // within 100 ms of the last draw: left to the ticker
    LoadProgress rules;
    rules.phase = "rules";
    callback(rules);
  }
  CHECK(Contents(f) ==
        "\r\x1b[Kanalyzing 0 s: loading 57 of 101, plugin.log (145.0 MiB), 25% of 12.0 MiB read"
        "\r\x1b[Kanalyzing 0 s: running the rules"
        "\r\x1b[K");
  std::fclose(f);
}

TEST_CASE("ProgressReporter: the ticker redraws while the work is quiet") {
  FILE* f = std::tmpfile();
  {
    ProgressReporter progress(true, f, std::chrono::milliseconds(10));
    LoadProgress timeline;
    timeline.phase = "timeline";
    progress.Update(timeline);
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  std::string out = Contents(f);
  size_t lines = 0;
  for (size_t at = out.find("building the timeline"); at != std::string::npos;
       at = out.find("building the timeline", at + 1)) {
    ++lines;
  }
  CHECK(lines >= 3);
  std::fclose(f);
}

TEST_CASE("ProgressReporter::Line: small bundles in KiB, no member count before the manifest") {
  LoadProgress p;
  p.compressed_bytes_read = 14 << 10;
  p.compressed_bytes_total = 35 << 10;
  CHECK(ProgressReporter::Line(p, 3) == "analyzing 3 s: loading, 40% of 35.0 KiB read");
}

}  // TEST_SUITE

}  // namespace gpuf
