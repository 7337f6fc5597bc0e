#include "collector/run_each.h"

#include <doctest/doctest.h>

#include <atomic>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

namespace gpuf {

TEST_SUITE("collector") {

TEST_CASE("RunEach: every job runs once, on no more threads than the width") {
  for (size_t width : {size_t{1}, size_t{3}, size_t{64}}) {
    CAPTURE(width);
    std::vector<std::atomic<int>> runs(40);
    std::mutex mutex;
    std::set<std::thread::id> threads;
    RunEach(runs.size(), width, [&](size_t i) {
      ++runs[i];
      std::lock_guard<std::mutex> lock(mutex);
      threads.insert(std::this_thread::get_id());
    });
    for (const auto& n : runs) CHECK(n == 1);
    CHECK(threads.size() >= 1);
    CHECK(threads.size() <= width);
  }
}

TEST_CASE("RunEach: width 1 runs the jobs in order on the caller's thread, and no jobs is nothing") {
  std::vector<size_t> order;
  RunEach(5, 1, [&](size_t i) { order.push_back(i); });
  CHECK(order == std::vector<size_t>{0, 1, 2, 3, 4});
  const auto caller = std::this_thread::get_id();
  bool same_thread = true;
  RunEach(3, 1, [&](size_t) { same_thread = same_thread && std::this_thread::get_id() == caller; });
  CHECK(same_thread);
  int called = 0;
  RunEach(0, 4, [&](size_t) { ++called; });
  CHECK(called == 0);
}

}  // TEST_SUITE

}  // namespace gpuf
