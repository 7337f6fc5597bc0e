#include <cstdio>
#include <iostream>

#include "common/bundle_reader.h"
#include "cli/commands.h"
#include "cli/options.h"
#include "common/exit_codes.h"

namespace gpuf {

namespace {

class CountingVisitor : public BundleVisitor {
 public:
  Status OnManifest(const Manifest& m) override {
    for (const auto& a : m.artifacts) expected += static_cast<int>(a.outputs.size());
    return Status::Ok();
  }
  void OnMember(const ManifestArtifact&, const ManifestOutput&, std::string, bool ok) override {
    (ok ? verified : mismatched) += 1;
  }
  int expected = 0, verified = 0, mismatched = 0;
};

}  // namespace

int RunVerify(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics verify BUNDLE\n\n"
      "Checks every member's size and sha256 against the manifest.\n\noptions");
  options.add_options()("bundle", po::value<std::string>(), "bundle to verify (tar.zst)");
  po::positional_options_description positional;
  positional.add("bundle", 1);
  auto parsed = ParseOptions("verify", args, options, positional);
  if (!parsed.ok()) return ReportFailure("verify", parsed.status());
  if (parsed->help) return PrintHelp("verify", options);
  if (!parsed->values.count("bundle")) {
    return ReportFailure("verify", Status::InvalidArgument("no bundle given", "usage: gpuforensics verify BUNDLE"));
  }
  const std::string bundle = parsed->values["bundle"].as<std::string>();
  CountingVisitor visitor;
  std::vector<IntegrityIssue> issues;
  Status status = ReadBundle(bundle, BundleLimits{}, visitor, issues);
  if (!status.ok()) return ReportFailure("verify", status.WithContext("reading '" + bundle + "'"));
  for (const auto& issue : issues) std::printf("FAIL %s: %s\n", issue.member.c_str(), issue.problem.c_str());
  std::printf("%s: %d of %d members verified, %zu problems\n", bundle.c_str(), visitor.verified, visitor.expected,
              issues.size());
  return issues.empty() ? kExitOk : kExitFindings;
}

}  // namespace gpuf
