// A whole bundle file (tar.zst) through LoadBundle, the loader's own entry,
// into an in-memory database: decompression, tar, manifest, hashes, and every
// member parser the manifest reaches.
#include <unistd.h>

#include <cstdlib>
#include <string>

#include "analyzer/database.h"
#include "analyzer/load/loader.h"
#include "common/file_io.h"
#include "fuzz/fuzz_input.h"

namespace {

// LoadBundle reads a path, so each input goes to one scratch file.
const std::string& ScratchPath() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    return std::string(dir ? dir : "/tmp") + "/gpuf_fuzz_bundle." + std::to_string(getpid()) + ".tar.zst";
  }();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (!gpuf::WriteWholeFile(ScratchPath(), gpuf::FuzzText(data, size)).ok()) std::abort();
  auto db = gpuf::Database::Create(":memory:");
  if (!db.ok()) std::abort();
  (void)gpuf::LoadBundle(ScratchPath(), *db);
  unlink(ScratchPath().c_str());
  return 0;
}
