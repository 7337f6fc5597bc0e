#include "collector/bundle_manifest.h"

#include <algorithm>
#include <filesystem>
#include <tuple>

#include "collector/run_each.h"
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
  std::vector<ManifestOutput*> outputs;  // by member
  int sequence = 0;
  for (auto& r : artifacts) {
    ++sequence;
    for (auto& output : r.artifact.outputs) {
      for (const auto& staged : r.staged) {
        if (staged.stream != output.stream) continue;
        output.member = ArtifactMemberPath(sequence, r.artifact.name, output.stream);
        members.push_back({output.member, staged.staging_path});
        outputs.push_back(&output);
      }
    }
  }
  // Hashing reads every staged byte once more: the files are spread over
  // the cores.
  std::vector<Result<std::string>> hashes(members.size(), Status::Internal("not hashed"));
  RunEach(members.size(), CoreCount(), [&](size_t i) { hashes[i] = Sha256OfFile(members[i].source_path); });
  for (size_t i = 0; i < members.size(); ++i) {
    if (!hashes[i].ok()) return hashes[i].status();
    outputs[i]->sha256 = *hashes[i];
    std::error_code ec;
    outputs[i]->size_bytes = static_cast<int64_t>(std::filesystem::file_size(members[i].source_path, ec));
  }
  for (auto& r : artifacts) manifest.artifacts.push_back(r.artifact);
  return members;
}

}  // namespace gpuf
