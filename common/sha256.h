// SHA-256 of bytes and files, as lower-case hex (OpenSSL libcrypto).
#ifndef GPUF_COMMON_SHA256_H_
#define GPUF_COMMON_SHA256_H_

#include <memory>
#include <string>
#include <string_view>

#include "common/status.h"

namespace gpuf {

// Incremental hashing: Update() any number of times, then HexDigest() once.
class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;

  void Update(std::string_view bytes);
  std::string HexDigest();

 private:
  struct State;
  std::unique_ptr<State> state_;
};

std::string Sha256Hex(std::string_view bytes);

// Fails with IoError when the file cannot be read.
Result<std::string> Sha256OfFile(const std::string& path);

}  // namespace gpuf

#endif  // GPUF_COMMON_SHA256_H_
