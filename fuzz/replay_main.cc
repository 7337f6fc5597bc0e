// Replays files through a fuzz target's entry point without libFuzzer, so
// the normal (and sanitizer) test builds check every kept crash input:
//   <target>_replay FILE|DIR...
// A crash aborts the process; an unreadable argument fails it with 74.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "common/file_io.h"
#include "fuzz/fuzz_input.h"

namespace {

int ReplayOne(const std::string& path) {
  auto bytes = gpuf::ReadWholeFile(path);
  if (!bytes.ok()) {
    std::fprintf(stderr, "replay: %s\n", bytes.status().message().c_str());
    return 74;
  }
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes->data()), bytes->size());
  std::printf("replayed %s (%zu bytes)\n", path.c_str(), bytes->size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  int replayed = 0;
  for (int i = 1; i < argc; ++i) {
    std::error_code ec;
    if (!fs::is_directory(argv[i], ec)) {
      if (int rc = ReplayOne(argv[i])) return rc;
      ++replayed;
      continue;
    }
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(argv[i], ec))
      if (entry.is_regular_file()) files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
      if (int rc = ReplayOne(file)) return rc;
      ++replayed;
    }
  }
  std::printf("replayed %d inputs\n", replayed);
  return replayed > 0 ? 0 : 74;
}
