// A gpuforensics bundle in another container: re-compressed (.tar.gz,
// .tar.xz, plain .tar) or unpacked into a directory, as support desks and
// ticket systems hand attachments on. Its manifest and members are the
// evidence whatever holds them: they are written back as the canonical
// tar.zst (manifest first), which verify and analyze then check member by
// member against the manifest, as for the bundle collect wrote.
#ifndef GPUF_IMPORTER_BUNDLE_REPACK_H_
#define GPUF_IMPORTER_BUNDLE_REPACK_H_

#include <string>
#include <string_view>
#include <vector>

#include "common/output_file.h"
#include "common/status.h"
#include "importer/source_tree.h"

namespace gpuf {

inline constexpr std::string_view kRepackedBundleKind = "repacked-bundle";

// A tree whose root holds manifest.json and an artifacts/ folder.
bool IsBundleTree(const std::vector<std::string>& paths);

// The tar.zst of `tree` at `output_path`: manifest.json first, then every
// other file under its own name (one the manifest does not list stays, for
// verify to report). BadInput when the tree has no manifest of ours (then it
// is a folder of saved files that happens to use these names).
Status RepackBundle(const SourceTree& tree, const std::string& output_path, Replace replace = Replace::kNever);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_BUNDLE_REPACK_H_
