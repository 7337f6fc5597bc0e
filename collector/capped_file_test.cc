#include "collector/capped_file.h"

#include <doctest/doctest.h>

#include "tests/test_support.h"

namespace gpuf {

TEST_SUITE("capped_file") {

TEST_CASE("CappedFile: head mode keeps the first bytes and counts the rest") {
  test::TempDir dir;
  CappedFile f(dir / "out", 10, KeepMode::kHead);
  REQUIRE(f.Open().ok());
  REQUIRE(f.Write("0123456").ok());
  REQUIRE(f.Write("789abcdef").ok());
  REQUIRE(f.Finish().ok());
  CHECK(test::ReadFile(dir / "out") == "0123456789");
  CHECK(f.dropped_bytes() == 6);
  CHECK(f.truncated());
}

TEST_CASE("CappedFile: tail mode keeps the newest whole lines") {
  test::TempDir dir;
  CappedFile f(dir / "out", 12, KeepMode::kTail);
  REQUIRE(f.Open().ok());
  for (int i = 0; i < 10; ++i) REQUIRE(f.Write("line" + std::to_string(i) + "\n").ok());
  REQUIRE(f.Finish().ok());
  CHECK(test::ReadFile(dir / "out") == "line8\nline9\n");
  CHECK(f.stored_bytes() == 12);
  CHECK(f.dropped_bytes() == 48);
}

TEST_CASE("CappedFile: newest-first mode keeps the newest whole lines, in time order") {
  test::TempDir dir;
  CappedFile f(dir / "out", 16, KeepMode::kNewestFirst);
  REQUIRE(f.Open().ok());
  for (int i = 9; i >= 0; --i) REQUIRE(f.Write("line" + std::to_string(i) + "\n").ok());
  REQUIRE(f.Finish().ok());
  // 16 bytes held "line9\nline8\nline": the cut line is dropped too.
  CHECK(test::ReadFile(dir / "out") == "line8\nline9\n");
  CHECK(f.stored_bytes() == 12);
  CHECK(f.dropped_bytes() == 48);
}

TEST_CASE("CappedFile: newest-first output stopped mid-line (a timeout) loses only that line") {
  test::TempDir dir;
  CappedFile f(dir / "out", 100, KeepMode::kNewestFirst);
  REQUIRE(f.Open().ok());
  REQUIRE(f.Write("newest\nmiddle\nolde").ok());
  REQUIRE(f.Finish().ok());
  CHECK(test::ReadFile(dir / "out") == "middle\nnewest\n");
  CHECK(f.dropped_bytes() == 4);
  CHECK(f.truncated());
}

TEST_CASE("CappedFile: full once a head or newest-first file reaches its cap, a tail never") {
  test::TempDir dir;
  for (KeepMode mode : {KeepMode::kHead, KeepMode::kNewestFirst}) {
    CappedFile f(dir / "out", 10, mode);
    REQUIRE(f.Open().ok());
    REQUIRE(f.Write("012345678").ok());
    CHECK_FALSE(f.Full());
    REQUIRE(f.Write("9").ok());
    CHECK(f.Full());
    REQUIRE(f.Finish().ok());
  }
  CappedFile tail(dir / "tail", 10, KeepMode::kTail);
  REQUIRE(tail.Open().ok());
  REQUIRE(tail.Write("0123456789abcdef\n").ok());
  CHECK_FALSE(tail.Full());
  REQUIRE(tail.Finish().ok());
}

TEST_CASE("CappedFile: under the cap nothing is dropped") {
  test::TempDir dir;
  CappedFile f(dir / "out", 100, KeepMode::kTail);
  REQUIRE(f.Open().ok());
  REQUIRE(f.Write("short\n").ok());
  REQUIRE(f.Finish().ok());
  CHECK(test::ReadFile(dir / "out") == "short\n");
  CHECK_FALSE(f.truncated());
}

}  // TEST_SUITE

}  // namespace gpuf
