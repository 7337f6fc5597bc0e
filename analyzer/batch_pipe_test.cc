#include "analyzer/batch_pipe.h"

#include <doctest/doctest.h>

#include <numeric>
#include <vector>

namespace gpuf {

TEST_SUITE("batch_pipe") {

TEST_CASE("BatchPipe: every batch is consumed once, in order, before Close returns") {
  std::vector<int> seen;
  std::thread::id consumer;
  {
    BatchPipe<std::vector<int>> pipe(
        [&](std::vector<int>& batch) {
          consumer = std::this_thread::get_id();
          seen.insert(seen.end(), batch.begin(), batch.end());
        },
        2);
    for (int b = 0; b < 1000; ++b) pipe.Push({3 * b, 3 * b + 1, 3 * b + 2});
    pipe.Close();
    std::vector<int> expected(3000);
    std::iota(expected.begin(), expected.end(), 0);
    CHECK(seen == expected);
    CHECK(consumer != std::this_thread::get_id());
  }
  CHECK(seen.size() == 3000);
}

TEST_CASE("BatchPipe: the destructor drains what was pushed without a Close") {
  int sum = 0;
  {
    BatchPipe<int> pipe([&](int& n) { sum += n; }, 1);
    for (int n = 1; n <= 100; ++n) pipe.Push(n);
  }
  CHECK(sum == 5050);
}

TEST_CASE("BatchPipe: unthreaded, each batch is consumed on the caller's thread as it is pushed") {
  std::vector<int> seen;
  std::thread::id consumer;
  BatchPipe<int> pipe(
      [&](int& n) {
        consumer = std::this_thread::get_id();
        seen.push_back(n);
      },
      1, /*threaded=*/false);
  pipe.Push(1);
  CHECK(seen == std::vector<int>{1});
  CHECK(consumer == std::this_thread::get_id());
  pipe.Push(2);
  CHECK(seen == std::vector<int>{1, 2});
}

TEST_CASE("BatchPipe: closing an idle pipe, twice, returns") {
  BatchPipe<int> pipe([](int&) {}, 4);
  pipe.Close();
  pipe.Close();
}

}  // TEST_SUITE

}  // namespace gpuf
