// A bundle's tar stream, compressed here with zstd before LoadBundle reads
// it: mutations of the uncompressed tar reach the manifest and the member
// parsers far more often than mutations of compressed bytes do.
#include <unistd.h>
#include <zstd.h>

#include <cstdlib>
#include <string>

#include "analyzer/database.h"
#include "analyzer/load/loader.h"
#include "common/file_io.h"
#include "fuzz/fuzz_input.h"

namespace {

const std::string& ScratchPath() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir ? dir : "/tmp") + "/gpuf_fuzz_tar." + std::to_string(getpid()) + ".tar.zst";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string compressed(ZSTD_compressBound(size), '\0');
  size_t n = ZSTD_compress(compressed.data(), compressed.size(), data, size, 1);
  if (ZSTD_isError(n)) std::abort();
  compressed.resize(n);
  if (!gpuf::WriteWholeFile(ScratchPath(), compressed).ok()) std::abort();
  auto db = gpuf::Database::Create(":memory:");
  if (!db.ok()) std::abort();
  (void)gpuf::LoadBundle(ScratchPath(), *db);
  unlink(ScratchPath().c_str());
  return 0;
}
