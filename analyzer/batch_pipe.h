// Hands batches of work from the thread that makes them to one worker thread
// that consumes them, in order, with at most `capacity` batches waiting. The
// loader uses it to parse a journal slice on the reading thread while the
// rows of the lines before go into SQLite on the worker: the two halves of
// the load then take the longer one's time, not the sum.
//
// Call order: Push any number of times, then Close (the destructor closes
// too). Close returns when every batch has been consumed and the worker has
// exited; what `consume` wrote is then visible to the caller. Without
// `threaded` (small inputs, where starting a thread and handing batches over
// costs more than it saves), or when no thread can be started, Push
// consumes the batch itself.
#ifndef GPUF_ANALYZER_BATCH_PIPE_H_
#define GPUF_ANALYZER_BATCH_PIPE_H_

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

namespace gpuf {

template <typename Batch>
class BatchPipe {
 public:
  BatchPipe(std::function<void(Batch&)> consume, size_t capacity, bool threaded = true)
      : consume_(std::move(consume)), capacity_(capacity) {
    if (!threaded) return;
    try {
      worker_ = std::thread([this] { Run(); });
    } catch (const std::system_error&) {
      // No thread to be had: consume on the caller's thread instead.
    }
  }
  BatchPipe(const BatchPipe&) = delete;
  BatchPipe& operator=(const BatchPipe&) = delete;
  ~BatchPipe() { Close(); }

  void Push(Batch batch) {
    if (!worker_.joinable()) {
      consume_(batch);
      return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    room_.wait(lock, [&] { return waiting_.size() < capacity_; });
    waiting_.push_back(std::move(batch));
    work_.notify_one();
  }

  void Close() {
    if (!worker_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    work_.notify_one();
    worker_.join();
  }

 private:
  void Run() {
    while (true) {
      Batch batch;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        work_.wait(lock, [&] { return closed_ || !waiting_.empty(); });
        if (waiting_.empty()) return;  // closed and drained
        batch = std::move(waiting_.front());
        waiting_.pop_front();
      }
      room_.notify_one();
      consume_(batch);
    }
  }

  std::function<void(Batch&)> consume_;
  size_t capacity_;
  std::mutex mutex_;
  std::condition_variable work_;  // a batch is waiting, or the pipe closed
  std::condition_variable room_;  // a batch was taken
  std::deque<Batch> waiting_;
  bool closed_ = false;
  std::thread worker_;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_BATCH_PIPE_H_
