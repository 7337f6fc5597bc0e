// gpuforensics-collect's verify: the tar.zst as given (cli/verify_input.h).
#include "cli/verify_input.h"

namespace gpuf {

namespace {

class TarZstInput : public VerifyInput {
 public:
  explicit TarZstInput(std::string path) : path_(std::move(path)) {}
  const std::string& bundle_path() const override { return path_; }
  bool repacked() const override { return false; }

 private:
  std::string path_;
};

}  // namespace

Result<std::unique_ptr<VerifyInput>> OpenVerifyInput(const std::string& path) {
  return std::unique_ptr<VerifyInput>(new TarZstInput(path));
}

}  // namespace gpuf
