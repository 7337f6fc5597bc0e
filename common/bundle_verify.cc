#include "common/bundle_verify.h"

namespace gpuf {

namespace {

class CountingVisitor : public BundleVisitor {
 public:
  explicit CountingVisitor(BundleVerification& out) : out_(out) {}
  Status OnManifest(const Manifest& m) override {
    for (const auto& a : m.artifacts) out_.expected += static_cast<int>(a.outputs.size());
    out_.node = m.node_name;
    out_.id = BundleId(m);
    out_.complete = m.complete;
    out_.incomplete_reason = m.incomplete_reason;
    return Status::Ok();
  }
  void OnMember(const ManifestArtifact&, const ManifestOutput&, std::string, bool ok) override {
    if (ok) out_.verified += 1;
  }

 private:
  BundleVerification& out_;
};

}  // namespace

Result<BundleVerification> VerifyBundle(const std::string& path) {
  BundleVerification result;
  CountingVisitor visitor(result);
  GPUF_RETURN_IF_ERROR(ReadBundle(path, BundleLimits{}, visitor, result.issues));
  return result;
}

}  // namespace gpuf
