#include "analyzer/batch_pipe.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <numeric>
#include <vector>

namespace gpuf {

TEST_SUITE("batch_pipe") {

TEST_CASE("BatchPipe: every row is consumed once, in order, on the worker, before Close returns") {
  std::vector<int> seen;
  std::thread::id consumer;
  size_t largest_batch = 0;
  {
    BatchPipe<int> pipe([&](const std::vector<int>& batch) {
      consumer = std::this_thread::get_id();
      largest_batch = std::max(largest_batch, batch.size());
      seen.insert(seen.end(), batch.begin(), batch.end());
    });
    for (int n = 0; n < 3000; ++n) pipe.Add(n);
    pipe.Close();
    std::vector<int> expected(3000);
    std::iota(expected.begin(), expected.end(), 0);
    CHECK(seen == expected);
    CHECK(consumer != std::this_thread::get_id());
    CHECK(largest_batch == BatchPipe<int>::kBatchRows);
  }
  CHECK(seen.size() == 3000);
}

TEST_CASE("BatchPipe: the destructor drains what was added without a Close") {
  int sum = 0;
  {
    BatchPipe<int> pipe([&](const std::vector<int>& batch) {
      for (int n : batch) sum += n;
    });
    for (int n = 1; n <= 100; ++n) pipe.Add(n);
  }
  CHECK(sum == 5050);
}

TEST_CASE("BatchPipe: unthreaded, each batch is consumed on the caller's thread as it fills") {
  std::vector<int> seen;
  std::thread::id consumer;
  BatchPipe<int> pipe(
      [&](const std::vector<int>& batch) {
        consumer = std::this_thread::get_id();
        seen.insert(seen.end(), batch.begin(), batch.end());
      },
      /*threaded=*/false);
  const int full = static_cast<int>(BatchPipe<int>::kBatchRows);
  for (int n = 0; n < full; ++n) pipe.Add(n);
  CHECK(seen.size() == BatchPipe<int>::kBatchRows);
  CHECK(consumer == std::this_thread::get_id());
  pipe.Add(full);
  CHECK(seen.size() == BatchPipe<int>::kBatchRows);
  pipe.Close();
  REQUIRE(seen.size() == BatchPipe<int>::kBatchRows + 1);
  CHECK(seen.back() == full);
}

TEST_CASE("BatchPipe: closing an idle pipe, twice, returns") {
  BatchPipe<int> pipe([](const std::vector<int>&) {});
  pipe.Close();
  pipe.Close();
}

}  // TEST_SUITE

}  // namespace gpuf
