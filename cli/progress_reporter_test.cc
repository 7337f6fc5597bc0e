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

TEST_CASE("ProgressReporter: one redrawn line per phase, erased at the end") {
  FILE* f = std::tmpfile();
  {
    ProgressReporter progress(true, f);
    LoadProgressFn callback = progress.Callback();
    REQUIRE(callback);
    LoadProgress p;
    p.compressed_bytes_read = 3 << 20;
    p.compressed_bytes_total = 12 << 20;
    p.members_loaded = 40;
    callback(p);
    p.members_loaded = 41;
    callback(p);  // within 100 ms of the last: not redrawn
    LoadProgress rules;
    rules.phase = "rules";
    callback(rules);
  }
  CHECK(Contents(f) ==
        "\r\x1b[Kanalyzing: loading 25% of 12.0 MiB, 40 members"
        "\r\x1b[Kanalyzing: running the rules"
        "\r\x1b[K");
  std::fclose(f);
}

}  // TEST_SUITE

}  // namespace gpuf
