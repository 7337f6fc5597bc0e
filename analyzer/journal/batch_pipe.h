// Hands rows from the thread that makes them to one worker thread that
// consumes them, in order and in batches, with a bounded number of batches
// waiting. The loader uses it to parse a journal slice or a pod log on the
// reading thread while the rows of the lines before go into SQLite on the
// worker: the two halves of the load then take the longer one's time, not
// the sum.
//
// Call order: Add or Emplace any number of times, then Close (the
// destructor closes too). Close hands over the last, partial batch and
// returns when every row has been consumed and the worker has exited; what
// `consume` wrote is then visible to the caller. Without `threaded` (small
// inputs, where starting a thread and handing batches over costs more than
// it saves), or when no thread can be started, the caller's thread consumes
// each batch as it fills.
//
// WorkerBehind() lets the caller balance the halves: work that may be done
// on either side (classifying a row) is done on the caller's while the
// worker has batches backed up, and left to the worker otherwise.
#ifndef GPUF_ANALYZER_JOURNAL_BATCH_PIPE_H_
#define GPUF_ANALYZER_JOURNAL_BATCH_PIPE_H_

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

namespace gpuf {

template <typename Row>
class BatchPipe {
 public:
  using Batch = std::vector<Row>;
  // Enough rows a batch to make the hand-over cheap, few enough batches
  // waiting to keep memory flat (a few MB of log lines).
  static constexpr size_t kBatchRows = 512;
  static constexpr size_t kBatchesWaiting = 8;

  explicit BatchPipe(std::function<void(Batch&)> consume, bool threaded = true)
      : consume_(std::move(consume)) {
    filling_.reserve(kBatchRows);
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

  void Add(Row row) {
    Emplace([&](Row& slot) { slot = std::move(row); });
  }

  // Calls `fill` with the next row to overwrite in place. Batches the worker
  // has consumed come back to be filled again, so a row that owns buffers
  // (strings) reuses them instead of allocating on this thread and freeing
  // on the worker's.
  template <typename Fill>
  void Emplace(Fill fill) {
    if (filled_ == filling_.size()) filling_.emplace_back();
    fill(filling_[filled_++]);
    if (filled_ >= kBatchRows) HandOver();
  }

  // True while half the batches that may wait are waiting for the worker
  // (never without one): the worker is the slower half just now.
  bool WorkerBehind() const { return waiting_count_.load(std::memory_order_relaxed) >= kBatchesWaiting / 2; }

  // True when a worker consumes the batches (false: the caller does).
  bool threaded() const { return worker_.joinable(); }

  void Close() {
    if (filled_ > 0) HandOver();
    if (!worker_.joinable()) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      closed_ = true;
    }
    work_.notify_one();
    worker_.join();
  }

 private:
  void HandOver() {
    filling_.resize(filled_);  // a last, partial batch: the rows past it are stale
    filled_ = 0;
    if (!worker_.joinable()) {
      consume_(filling_);
      return;
    }
    Batch batch = std::move(filling_);
    filling_ = Batch();
    {
      std::unique_lock<std::mutex> lock(mutex_);
      room_.wait(lock, [&] { return waiting_.size() < kBatchesWaiting; });
      waiting_.push_back(std::move(batch));
      waiting_count_.store(waiting_.size(), std::memory_order_relaxed);
      if (!consumed_.empty()) {
        filling_ = std::move(consumed_.front());
        consumed_.pop_front();
      }
    }
    work_.notify_one();
    if (filling_.capacity() == 0) filling_.reserve(kBatchRows);
  }

  void Run() {
    while (true) {
      Batch batch;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        work_.wait(lock, [&] { return closed_ || !waiting_.empty(); });
        if (waiting_.empty()) return;  // closed and drained
        batch = std::move(waiting_.front());
        waiting_.pop_front();
        waiting_count_.store(waiting_.size(), std::memory_order_relaxed);
      }
      room_.notify_one();
      consume_(batch);
      std::lock_guard<std::mutex> lock(mutex_);
      consumed_.push_back(std::move(batch));
    }
  }

  std::function<void(Batch&)> consume_;  // the batch is the worker's to change while it consumes
  Batch filling_;                 // the caller's, until handed over
  size_t filled_ = 0;             // rows of filling_ written since its hand-over
  std::mutex mutex_;
  std::condition_variable work_;  // a batch is waiting, or the pipe closed
  std::condition_variable room_;  // a batch was taken
  std::deque<Batch> waiting_;
  std::atomic<size_t> waiting_count_{0};  // waiting_.size(), for WorkerBehind without the lock
  std::deque<Batch> consumed_;    // the worker's, done with: filled again
  bool closed_ = false;
  std::thread worker_;
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_JOURNAL_BATCH_PIPE_H_
