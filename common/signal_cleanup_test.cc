#include "common/signal_cleanup.h"

#include <doctest/doctest.h>
#include <signal.h>

#include <filesystem>

#include "tests/test_support.h"

namespace gpuf {

namespace {

namespace fs = std::filesystem;

volatile sig_atomic_t g_delivered = 0;

void CountDelivery(int) { g_delivered = g_delivered + 1; }

}  // namespace

TEST_SUITE("signal_cleanup") {

TEST_CASE("a termination signal raised while held is delivered once the guard goes") {
  struct sigaction counting {}, previous {};
  counting.sa_handler = CountDelivery;
  sigemptyset(&counting.sa_mask);
  REQUIRE(sigaction(SIGHUP, &counting, &previous) == 0);
  g_delivered = 0;
  {
    TerminationSignalsHeld held;
    raise(SIGHUP);
    CHECK(g_delivered == 0);
  }
  CHECK(g_delivered == 1);
  sigaction(SIGHUP, &previous, nullptr);
}

TEST_CASE("a path registered for cleanup is removed whole, a released one is left") {
  test::TempDir dir;
  const std::string removed = dir / "removed", kept = dir / "kept";
  fs::create_directories(removed + "/a/b");
  fs::create_directories(kept);
  test::WriteFile(removed + "/a/b/f", "x\n");
  int removed_slot = RegisterCleanupPath(removed);
  int kept_slot = RegisterCleanupPath(kept);
  REQUIRE(removed_slot >= 0);
  REQUIRE(kept_slot >= 0);
  UnregisterCleanupPath(kept_slot);
  RunSignalCleanup();
  UnregisterCleanupPath(removed_slot);
  CHECK(!fs::exists(removed));
  CHECK(fs::is_directory(kept));
}

}  // TEST_SUITE

}  // namespace gpuf
