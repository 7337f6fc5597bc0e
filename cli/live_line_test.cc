#include "cli/live_line.h"

#include <doctest/doctest.h>

namespace gpuf {

TEST_CASE("The live line is cut to fewer columns than the terminal has") {
  CHECK(FitToColumns("collecting 3 s: logs 4/9", 10) == "collectin");
  CHECK(FitToColumns("short", 10) == "short");
  CHECK(FitToColumns("exactly10!", 10) == "exactly10");
}

TEST_CASE("The live line keeps whole UTF-8 characters and any width when it is unknown") {
  CHECK(FitToColumns("n\xc3\xb6" "de-\xc3\xa4\xc3\xa4", 5) == "n\xc3\xb6" "de");
  CHECK(FitToColumns("anything at all", 0) == "anything at all");
}

}  // namespace gpuf
