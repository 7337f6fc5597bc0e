#include "cli/verify_input.h"

#include "common/bundle_layout.h"
#include "importer/bundle_repack.h"
#include "importer/import_source.h"

namespace gpuf {

namespace {

class ResolvedVerifyInput : public VerifyInput {
 public:
  explicit ResolvedVerifyInput(ResolvedInput input) : input_(std::move(input)) {}
  const std::string& bundle_path() const override { return input_.bundle_path(); }
  bool repacked() const override { return input_.kind() == kRepackedBundleKind; }

 private:
  ResolvedInput input_;
};

}  // namespace

Result<std::unique_ptr<VerifyInput>> OpenVerifyInput(const std::string& path) {
  GPUF_ASSIGN_OR_RETURN(ResolvedInput input, ResolveInput(path));
  if (input.kind() != kBundleFormatName && input.kind() != kRepackedBundleKind) {
    return Status::BadInput("not a gpuforensics bundle: no manifest.json at its root (it reads as " + input.kind() +
                            ", which analyze imports)");
  }
  return std::unique_ptr<VerifyInput>(new ResolvedVerifyInput(std::move(input)));
}

}  // namespace gpuf
