#include <cstdio>
#include <iostream>

#include "cli/commands.h"
#include "cli/options.h"
#include "cli/verify_input.h"
#include "common/bundle_reader.h"
#include "common/bundle_verify.h"
#include "common/exit_codes.h"

namespace gpuf {

int RunVerify(const std::vector<std::string>& args) {
  po::options_description options("gpuforensics verify BUNDLE\n\n"
      "Checks every member's size and sha256 against the manifest.\n\noptions");
  options.add_options()("bundle", po::value<std::string>()->value_name("BUNDLE"),
                        "bundle to verify (tar.zst, or the same re-compressed or unpacked)");
  po::positional_options_description positional;
  positional.add("bundle", 1);
  auto parsed = ParseOptions("verify", args, options, positional);
  if (!parsed.ok()) return ReportFailure("verify", parsed.status());
  if (parsed->help) return PrintHelp("verify", options, positional);
  if (!parsed->values.count("bundle")) {
    return ReportFailure("verify", Status::InvalidArgument("no bundle given", "usage: gpuforensics verify BUNDLE"));
  }
  const std::string bundle = parsed->values["bundle"].as<std::string>();
  // A bundle re-compressed or unpacked is checked as the tar.zst it was.
  auto input = OpenVerifyInput(bundle);
  if (!input.ok()) return ReportFailure("verify", input.status().WithContext("reading '" + bundle + "'"));
  auto checked = VerifyBundle((*input)->bundle_path());
  if (!checked.ok()) return ReportFailure("verify", checked.status().WithContext("reading '" + bundle + "'"));
  for (const auto& issue : checked->issues) std::printf("FAIL %s: %s\n", issue.member.c_str(), issue.problem.c_str());
  const std::string id = checked->id.empty() ? "" : "bundle " + checked->id + ", ";
  std::printf("%s: %s%d of %d members verified, %zu problems%s\n", bundle.c_str(), id.c_str(), checked->verified,
              checked->expected, checked->issues.size(),
              (*input)->repacked() ? " (re-packed: each member read from it)" : "");
  return checked->issues.empty() ? kExitOk : kExitFindings;
}

}  // namespace gpuf
