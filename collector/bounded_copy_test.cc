#include "collector/bounded_copy.h"

#include <doctest/doctest.h>
#include <fcntl.h>
#include <unistd.h>

#include "common/time_format.h"
#include "tests/test_support.h"

namespace gpuf {

TEST_SUITE("bounded_copy") {

TEST_CASE("CopyOpenedWithin: a read that returns is copied whole") {
  test::TempDir dir;
  test::WriteFile(dir / "information", "Model: \t\t NVIDIA H100 80GB HBM3\n");
  int fd = open((dir / "information").c_str(), O_RDONLY | O_CLOEXEC);
  REQUIRE(fd >= 0);
  CappedFile sink(dir / "out", 1 << 20, KeepMode::kHead);
  REQUIRE(sink.Open().ok());
  BoundedCopy copy = CopyOpenedWithin(fd, "/proc/driver/nvidia/gpus/0000:18:00.0/information", sink,
                                      MonotonicNowNs() + 10'000'000'000);
  REQUIRE(sink.Finish().ok());
  CHECK(copy.status.ok());
  CHECK_FALSE(copy.timed_out);
  CHECK_FALSE(copy.abandoned);
  CHECK(test::ReadFile(dir / "out") == "Model: \t\t NVIDIA H100 80GB HBM3\n");
}

TEST_CASE("CopyOpenedWithin: a read that blocks (a wedged driver) ends at the deadline with what it had") {
  test::TempDir dir;
  int pipe_fds[2];
  REQUIRE(pipe2(pipe_fds, O_CLOEXEC) == 0);
  REQUIRE(write(pipe_fds[1], "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03\n", 59) == 59);
  // The write end stays open and nothing more comes: the reader blocks.
  CappedFile sink(dir / "out", 1 << 20, KeepMode::kHead);
  REQUIRE(sink.Open().ok());
  const int64_t started = MonotonicNowNs();
  BoundedCopy copy = CopyOpenedWithin(pipe_fds[0], "/proc/driver/nvidia/version", sink, started + 300'000'000);
  const int64_t waited = MonotonicNowNs() - started;
  REQUIRE(sink.Finish().ok());
  CHECK(copy.timed_out);
  CHECK_FALSE(copy.abandoned);  // a pipe read is interruptible; only a driver's may not be
  CHECK(waited >= 300'000'000);
  CHECK(waited < 5'000'000'000LL);
  CHECK(test::ReadFile(dir / "out") == "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.129.03\n");
  close(pipe_fds[1]);
}

TEST_CASE("CopyOpenedWithin: a read error is the reader's errno") {
  test::TempDir dir;
  int fd = open(dir.path().c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);  // read() of a directory: EISDIR
  REQUIRE(fd >= 0);
  CappedFile sink(dir / "out", 1 << 20, KeepMode::kHead);
  REQUIRE(sink.Open().ok());
  BoundedCopy copy = CopyOpenedWithin(fd, "/proc/driver/nvidia/version", sink, MonotonicNowNs() + 10'000'000'000);
  CHECK_FALSE(copy.timed_out);
  CHECK(copy.status.message().find("Is a directory") != std::string::npos);
}

}  // TEST_SUITE

}  // namespace gpuf
