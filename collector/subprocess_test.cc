#include "collector/subprocess.h"

#include <doctest/doctest.h>
#include <signal.h>

#include "common/time_format.h"
#include "tests/test_support.h"

namespace gpuf {

namespace {

struct Run {
  CommandOutcome outcome;
  std::string out, err;
  int64_t dropped = 0;
};

Run RunSh(const std::string& script, double timeout_s, int64_t cap = 1 << 20,
          const std::function<bool(const CappedFile&)>& stop_when = nullptr) {
  test::TempDir dir;
  CappedFile out(dir / "out", cap, KeepMode::kHead), err(dir / "err", cap, KeepMode::kTail);
  REQUIRE(out.Open().ok());
  REQUIRE(err.Open().ok());
  CommandSpec spec;
  spec.executable = "/bin/sh";
  spec.argv = {"sh", "-c", script};
  spec.deadline_monotonic_ns = MonotonicNowNs() + static_cast<int64_t>(timeout_s * 1e9);
  if (stop_when) spec.stop_when = [&] { return stop_when(out); };
  Run run;
  run.outcome = RunCommand(spec, out, err, nullptr);
  REQUIRE(out.Finish().ok());
  REQUIRE(err.Finish().ok());
  run.out = test::ReadFile(dir / "out");
  run.err = test::ReadFile(dir / "err");
  run.dropped = out.dropped_bytes();
  return run;
}

}  // namespace

TEST_SUITE("subprocess") {

TEST_CASE("RunCommand: stdout, stderr and exit code are kept apart") {
  Run r = RunSh("echo to-out; echo to-err >&2; exit 3", 5);
  CHECK(r.outcome.started);
  CHECK(r.outcome.exit_code == 3);
  CHECK(r.out == "to-out\n");
  CHECK(r.err == "to-err\n");
  CHECK_FALSE(r.outcome.timed_out);
}

TEST_CASE("RunCommand: the environment pins LC_ALL=C and stdin is /dev/null") {
  Run r = RunSh("echo \"$LC_ALL\"; cat; echo end", 5);
  CHECK(r.out == "C\nend\n");
}

TEST_CASE("RunCommand: a child that ignores SIGTERM is killed after the grace period") {
  int64_t start = MonotonicNowNs();
  Run r = RunSh("trap '' TERM; echo started; while :; do sleep 1; done", 1.0);
  double seconds = (MonotonicNowNs() - start) / 1e9;
  CHECK(r.outcome.timed_out);
  CHECK(r.outcome.signal == SIGKILL);
  CHECK_FALSE(r.outcome.abandoned);
  CHECK(r.out == "started\n");
  CHECK(seconds >= 1.5);  // the deadline, then half a second of SIGTERM grace
  CHECK(seconds < 3.5);
}

TEST_CASE("RunCommand: a grandchild holding stdout does not hold us") {
  int64_t start = MonotonicNowNs();
  Run r = RunSh("sleep 30 & echo parent-done", 20);
  double seconds = (MonotonicNowNs() - start) / 1e9;
  CHECK(r.outcome.exit_code == 0);
  CHECK_FALSE(r.outcome.timed_out);
  CHECK(r.out == "parent-done\n");
  CHECK(seconds < 2.0);
}

TEST_CASE("RunCommand: a flood is capped and counted") {
  Run r = RunSh("dd if=/dev/zero bs=1048576 count=64 2>/dev/null", 30, 1 << 20);
  CHECK(r.outcome.exit_code == 0);
  CHECK(r.out.size() == (1u << 20));
  CHECK(r.dropped == 63LL * (1 << 20));
}

TEST_CASE("RunCommand: stop_when ends the command once its reader has what it keeps, not as a timeout") {
  int64_t start = MonotonicNowNs();
  Run r = RunSh("while :; do echo line; done", 30, 1 << 20,
                [](const CappedFile& out) { return out.stored_bytes() >= 4096; });
  double seconds = (MonotonicNowNs() - start) / 1e9;
  CHECK(r.outcome.stopped);
  CHECK_FALSE(r.outcome.timed_out);
  CHECK_FALSE(r.outcome.interrupted);
  CHECK(r.outcome.signal == SIGTERM);
  CHECK(r.out.size() >= 4096);
  CHECK(seconds < 10);
}

TEST_CASE("RunCommand: a command that ends by itself is not stopped") {
  Run r = RunSh("echo one; echo two", 30, 1 << 20, [](const CappedFile& out) { return out.stored_bytes() >= 4096; });
  CHECK_FALSE(r.outcome.stopped);
  CHECK(r.outcome.exit_code == 0);
  CHECK(r.out == "one\ntwo\n");
}

TEST_CASE("RunCommand: output written in many small pieces, with stderr between, arrives whole and in order") {
  // Small writes are gathered between reads (subprocess.cc); none may be lost or reordered.
  Run r = RunSh("i=0; while [ $i -lt 3000 ]; do echo \"line $i\"; i=$((i+1)); "
                "[ $((i % 1000)) -eq 0 ] && echo \"err $i\" >&2; done", 30);
  CHECK(r.outcome.exit_code == 0);
  std::string expected;
  for (int i = 0; i < 3000; ++i) expected += "line " + std::to_string(i) + "\n";
  CHECK(r.out == expected);
  CHECK(r.err == "err 1000\nerr 2000\nerr 3000\n");
}

TEST_CASE("RunCommand: a missing executable is a start error, not a crash") {
  test::TempDir dir;
  CappedFile out(dir / "out", 100, KeepMode::kHead), err(dir / "err", 100, KeepMode::kHead);
  REQUIRE(out.Open().ok());
  REQUIRE(err.Open().ok());
  CommandSpec spec;
  spec.executable = dir / "no-such-tool";
  spec.argv = {"no-such-tool"};
  spec.deadline_monotonic_ns = MonotonicNowNs() + 1'000'000'000;
  CommandOutcome outcome = RunCommand(spec, out, err, nullptr);
  CHECK_FALSE(outcome.started);
  CHECK(outcome.start_error == "spawn: No such file or directory");
}

TEST_CASE("FindExecutable: searches PATH in order, skips non-executables") {
  test::TempDir dir;
  test::WriteFile(dir / "a/tool", "#!/bin/sh\n", 0644);
  test::WriteFile(dir / "b/tool", "#!/bin/sh\n", 0755);
  CHECK(FindExecutable("tool", dir / "a" + ":" + dir / "b") == dir / "b/tool");
  CHECK(FindExecutable("tool", dir / "a") == "");
  CHECK(FindExecutable("sh", "/nonexistent:/bin") == "/bin/sh");
}

}  // TEST_SUITE

}  // namespace gpuf
