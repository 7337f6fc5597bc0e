#include "common/sha256_behind.h"

#include <algorithm>
#include <system_error>
#include <utility>

namespace gpuf {

Sha256Behind::Sha256Behind(bool threaded) {
  if (!threaded) return;
  filling_.reserve(kBufferBytes);
  try {
    worker_ = std::thread([this] { Run(); });
  } catch (const std::system_error&) {
    // No thread to be had: Update hashes in place.
  }
}

Sha256Behind::~Sha256Behind() { Stop(); }

void Sha256Behind::Update(std::string_view bytes) {
  if (!worker_.joinable()) {
    hash_.Update(bytes);
    return;
  }
  while (!bytes.empty()) {
    size_t take = std::min(bytes.size(), kBufferBytes - filling_.size());
    filling_.append(bytes.substr(0, take));
    bytes.remove_prefix(take);
    if (filling_.size() == kBufferBytes) HandOver();
  }
}

std::string Sha256Behind::HexDigest() {
  Stop();
  return hash_.HexDigest();
}

void Sha256Behind::HandOver() {
  std::unique_lock<std::mutex> lock(mutex_);
  changed_.wait(lock, [this] { return waiting_.size() < kBuffersWaiting; });
  waiting_.push_back(std::move(filling_));
  if (spare_.empty()) {
    filling_ = std::string();
    filling_.reserve(kBufferBytes);
  } else {
    filling_ = std::move(spare_.back());
    spare_.pop_back();
  }
  filling_.clear();
  changed_.notify_all();
}

void Sha256Behind::Run() {
  std::unique_lock<std::mutex> lock(mutex_);
  while (true) {
    changed_.wait(lock, [this] { return closed_ || !waiting_.empty(); });
    if (waiting_.empty()) return;  // closed, and everything hashed
    std::string bytes = std::move(waiting_.front());
    waiting_.pop_front();
    changed_.notify_all();
    lock.unlock();
    hash_.Update(bytes);
    lock.lock();
    spare_.push_back(std::move(bytes));
  }
}

// Hands over what is gathered and waits until the thread has hashed it all.
void Sha256Behind::Stop() {
  if (!worker_.joinable()) return;
  if (!filling_.empty()) HandOver();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    closed_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

}  // namespace gpuf
