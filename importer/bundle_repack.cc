#include "importer/bundle_repack.h"

#include <algorithm>
#include <filesystem>

#include "collector/bundle_writer.h"
#include "common/bundle_layout.h"
#include "common/file_io.h"
#include "common/manifest.h"
#include "common/work_dir.h"

namespace gpuf {

bool IsBundleTree(const std::vector<std::string>& paths) {
  bool manifest = std::find(paths.begin(), paths.end(), kManifestMember) != paths.end();
  bool artifacts =
      std::any_of(paths.begin(), paths.end(), [](const std::string& p) { return p.rfind(kArtifactsDir, 0) == 0; });
  return manifest && artifacts;
}

Status RepackBundle(const SourceTree& tree, const std::string& output_path, Replace replace) {
  auto manifest = tree.Find(std::string(kManifestMember));
  if (!manifest.ok()) return Status::BadInput("no manifest.json at the root of the re-packed bundle");
  if (!ParseManifest(**manifest).ok()) return Status::BadInput("its manifest.json is not a gpuforensics manifest");
  // The members as files, to write them as the collector does.
  GPUF_ASSIGN_OR_RETURN(WorkDir staging, WorkDir::Beside(output_path, ".gpuforensics-repack-"));
  std::vector<BundleMember> members;
  int staged = 0;
  for (const auto& path : tree.Paths()) {
    if (path == kManifestMember || !tree.LinkTarget(path).empty()) continue;
    GPUF_ASSIGN_OR_RETURN(const std::string* bytes, tree.Find(path));
    const std::string file = staging / std::to_string(staged++);
    GPUF_RETURN_IF_ERROR(WriteWholeFile(file, *bytes));
    members.push_back({path, file});
  }
  return WriteBundle(output_path, **manifest, std::move(members),
                     tree.mtime_ns(std::string(kManifestMember)) / 1000000000, replace);
}

}  // namespace gpuf
