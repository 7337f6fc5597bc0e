#include "analyzer/journal/batch_pipe.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <mutex>
#include <numeric>
#include <string>
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

TEST_CASE("BatchPipe: Emplace fills rows of consumed batches again, and the worker sees only what was filled") {
  std::vector<std::string> seen;
  size_t reused = 0;
  const size_t rows = 20 * BatchPipe<std::string>::kBatchRows + 3;
  {
    BatchPipe<std::string> pipe([&](const std::vector<std::string>& batch) {
      seen.insert(seen.end(), batch.begin(), batch.end());
    });
    for (size_t n = 0; n < rows; ++n) {
      pipe.Emplace([&](std::string& row) {
        if (!row.empty()) ++reused;  // a row a batch before held
        row = "row " + std::to_string(n);
      });
    }
    pipe.Close();
  }
  REQUIRE(seen.size() == rows);
  for (size_t n = 0; n < rows; ++n) CHECK(seen[n] == "row " + std::to_string(n));
  // At most the batches in flight (waiting, being consumed, being filled) are new.
  CHECK(reused >= rows - (BatchPipe<std::string>::kBatchesWaiting + 3) * BatchPipe<std::string>::kBatchRows);
}

TEST_CASE("BatchPipe: unthreaded, Emplace reuses the one batch") {
  std::vector<int> seen;
  int reused = 0;
  BatchPipe<int> pipe([&](const std::vector<int>& batch) { seen.insert(seen.end(), batch.begin(), batch.end()); },
                      /*threaded=*/false);
  const int rows = 3 * static_cast<int>(BatchPipe<int>::kBatchRows) + 1;
  for (int n = 1; n <= rows; ++n) {
    pipe.Emplace([&](int& row) {
      if (row != 0) ++reused;
      row = n;
    });
  }
  pipe.Close();
  REQUIRE(seen.size() == static_cast<size_t>(rows));
  CHECK(seen.back() == rows);
  CHECK(reused == 2 * static_cast<int>(BatchPipe<int>::kBatchRows) + 1);
}

TEST_CASE("BatchPipe: the worker is behind while half the batches that may wait are waiting, and not once drained") {
  std::mutex gate;
  gate.lock();  // the worker stops inside its first batch until the gate opens
  BatchPipe<int> pipe([&](const std::vector<int>&) { std::lock_guard<std::mutex> pass(gate); });
  CHECK_FALSE(pipe.WorkerBehind());
  const size_t batches = 1 + BatchPipe<int>::kBatchesWaiting / 2;  // the one being consumed, and those waiting
  for (size_t n = 0; n < batches * BatchPipe<int>::kBatchRows; ++n) pipe.Add(static_cast<int>(n));
  CHECK(pipe.WorkerBehind());
  gate.unlock();
  pipe.Close();
  CHECK_FALSE(pipe.WorkerBehind());
}

TEST_CASE("BatchPipe: unthreaded, the worker is never behind") {
  BatchPipe<int> pipe([](const std::vector<int>&) {}, /*threaded=*/false);
  for (size_t n = 0; n < BatchPipe<int>::kBatchesWaiting * BatchPipe<int>::kBatchRows; ++n) pipe.Add(1);
  CHECK_FALSE(pipe.WorkerBehind());
}

TEST_CASE("BatchPipe: closing an idle pipe, twice, returns") {
  BatchPipe<int> pipe([](const std::vector<int>&) {});
  pipe.Close();
  pipe.Close();
}

}  // TEST_SUITE

}  // namespace gpuf
