#include "collector/bundle_manifest.h"

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "common/bundle_layout.h"
#include "common/sha256.h"

namespace gpuf {

Manifest NewBundleManifest(const std::string& tool_version) {
  Manifest m;
  m.format = std::string(kBundleFormatName);
  m.format_version = kBundleFormatVersion;
  m.tool_name = "gpuforensics";
  m.tool_version = tool_version;
  return m;
}

Result<std::vector<BundleMember>> AddStagedArtifacts(std::vector<ProbeResult>& artifacts, Manifest& manifest) {
  std::stable_sort(artifacts.begin(), artifacts.end(), [](const auto& a, const auto& b) {
    return std::tie(a.artifact.name, a.artifact.instance) < std::tie(b.artifact.name, b.artifact.instance);
  });
  std::vector<BundleMember> members;
  int sequence = 0;
  for (auto& r : artifacts) {
    ++sequence;
    for (auto& output : r.artifact.outputs) {
      for (const auto& staged : r.staged) {
        if (staged.stream != output.stream) continue;
        output.member = ArtifactMemberPath(sequence, r.artifact.name, output.stream);
        GPUF_ASSIGN_OR_RETURN(output.sha256, Sha256OfFile(staged.staging_path));
        std::error_code ec;
        output.size_bytes = static_cast<int64_t>(std::filesystem::file_size(staged.staging_path, ec));
        members.push_back({output.member, staged.staging_path});
      }
    }
    manifest.artifacts.push_back(r.artifact);
  }
  return members;
}

}  // namespace gpuf
