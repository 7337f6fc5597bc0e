#include "common/sha256_behind.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>

namespace gpuf {

TEST_SUITE("sha256") {

TEST_CASE("Sha256Behind: the digest of the bytes however they are cut, on a thread or not") {
  std::string bytes;
  for (int64_t i = 0; bytes.size() < (5u << 20); ++i) bytes += "line " + std::to_string(i * 7919) + "\n";
  const std::string expected = Sha256Hex(bytes);
  for (bool threaded : {true, false}) {
    for (size_t piece : {size_t{1} << 20, size_t{65536}, size_t{4093}, bytes.size()}) {
      CAPTURE(threaded);
      CAPTURE(piece);
      Sha256Behind hash(threaded);
      for (size_t at = 0; at < bytes.size(); at += piece) hash.Update(std::string_view(bytes).substr(at, piece));
      CHECK(hash.HexDigest() == expected);
    }
  }
}

TEST_CASE("Sha256Behind: nothing hashed is the empty input's digest, and a hash left unread stops cleanly") {
  Sha256Behind empty;
  CHECK(empty.HexDigest() == Sha256Hex(""));
  Sha256Behind unread;
  unread.Update(std::string(3 << 20, 'x'));
}

}  // TEST_SUITE

}  // namespace gpuf
