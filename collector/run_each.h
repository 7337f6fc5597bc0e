// Runs fn(0), ..., fn(n - 1) on up to `width` threads, the caller's among
// them, and returns when all have returned. Jobs are taken in order by
// whichever thread is free, so a few large ones (the journal slices of one
// read) set the time only as much as the largest does. Where no further
// thread can be started, the threads there are do the rest.
#ifndef GPUF_COLLECTOR_RUN_EACH_H_
#define GPUF_COLLECTOR_RUN_EACH_H_

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <system_error>
#include <thread>
#include <vector>

namespace gpuf {

template <typename Fn>
void RunEach(size_t n, size_t width, Fn fn) {
  std::atomic<size_t> next{0};
  auto work = [&] {
    for (size_t i = next++; i < n; i = next++) fn(i);
  };
  std::vector<std::thread> helpers;
  const size_t wanted = std::min(width, n);
  helpers.reserve(wanted);
  try {
    while (helpers.size() + 1 < wanted) helpers.emplace_back(work);
  } catch (const std::system_error&) {
  }
  work();
  for (auto& helper : helpers) helper.join();
}

// The width for work that only computes: every core, at least one.
inline size_t CoreCount() { return std::max(1u, std::thread::hardware_concurrency()); }

}  // namespace gpuf

#endif  // GPUF_COLLECTOR_RUN_EACH_H_
