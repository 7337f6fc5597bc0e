#include "cli/verify_input.h"

#include <sys/stat.h>

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
  // Told before anything is imported: another tool's capture is refused
  // at once. A path that cannot be told goes to the bundle reader, whose
  // messages say what is wrong with a bundle.
  auto not_ours = [](const std::string& kind) {
    return Status::BadInput("not a gpuforensics bundle: no manifest of ours at its root (it reads as " + kind +
                            ", which analyze imports)");
  };
  std::optional<std::string> known;
  struct stat st {};
  if (stat(path.c_str(), &st) == 0) {
    auto kind = DetectInputKind(path);
    if (kind.ok() && *kind != kBundleFormatName && *kind != kRepackedBundleKind) return not_ours(*kind);
    if (kind.ok()) known = *kind;
  }
  GPUF_ASSIGN_OR_RETURN(ResolvedInput input, ResolveInput(path, known));
  // Named like a bundle, but its manifest is not one of ours.
  if (input.kind() != kBundleFormatName && input.kind() != kRepackedBundleKind) return not_ours(input.kind());
  return std::unique_ptr<VerifyInput>(new ResolvedVerifyInput(std::move(input)));
}

}  // namespace gpuf
