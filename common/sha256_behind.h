// SHA-256 of a stream, computed on a thread of its own. The bundle reader
// hashes a streamed member while the same thread decompresses and parses
// it; on the bench bundle the hash is 0.6 s of that thread's 2.6 s, and the
// other core had time to spare.
//
// Update copies the bytes into one of a few buffers the thread takes in
// turn (memory stays a few MB however long the stream); HexDigest waits for
// the last. Without a thread (none to be had, or `threaded` false for a
// small member) Update hashes in place.
#ifndef GPUF_COMMON_SHA256_BEHIND_H_
#define GPUF_COMMON_SHA256_BEHIND_H_

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "common/sha256.h"

namespace gpuf {

class Sha256Behind {
 public:
  explicit Sha256Behind(bool threaded = true);
  ~Sha256Behind();
  Sha256Behind(const Sha256Behind&) = delete;
  Sha256Behind& operator=(const Sha256Behind&) = delete;

  void Update(std::string_view bytes);
  // Once, after the last Update.
  std::string HexDigest();

 private:
  // Bytes gathered before a hand-over (fewer, larger hand-overs), and how
  // many gathered buffers may wait for the thread.
  static constexpr size_t kBufferBytes = 256 << 10;
  static constexpr size_t kBuffersWaiting = 8;

  void HandOver();
  void Run();
  void Stop();

  Sha256 hash_;
  std::string filling_;
  std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> waiting_;  // guarded by mutex_
  std::vector<std::string> spare_;   // guarded by mutex_: hashed, to fill again
  bool closed_ = false;              // guarded by mutex_
  std::thread worker_;               // last: stopped before the members above go
};

}  // namespace gpuf

#endif  // GPUF_COMMON_SHA256_BEHIND_H_
