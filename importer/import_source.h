// What `analyze` and `import` accept: our bundle, or another tool's capture
// turned into one (docs/inputs.md).
//
//   auto input = ResolveInput("sosreport-node-1.tar.xz");  // imports to a private temp file
//   AnalyzeBundle(input->bundle_path(), ...);              // removed when `input` goes
#ifndef GPUF_IMPORTER_IMPORT_SOURCE_H_
#define GPUF_IMPORTER_IMPORT_SOURCE_H_

#include <optional>
#include <string>

#include "common/output_file.h"
#include "common/status.h"
#include "common/work_dir.h"

namespace gpuf {

// "gpuforensics-bundle", "repacked-bundle" (ours in another compression or
// unpacked, bundle_repack.h), "sosreport", "nvidia-bug-report",
// "must-gather", "evidence-dir", told from the path's type and first bytes. BadInput when
// the path is missing, unreadable, or a file of none of these kinds.
Result<std::string> DetectInputKind(const std::string& path);

// Converts a source that is not already a bundle into one at `output_path`.
// Exists (before the source is read) when the output exists and `replace`
// does not allow it, InvalidArgument when it is the source itself, BadInput
// for hostile or unusable input (source_tree.h), IoError when the output
// cannot be written. Returns the kind it found.
Result<std::string> ImportSource(const std::string& path, const std::string& output_path,
                                 Replace replace = Replace::kNever);

// A bundle to read: the input itself, or a private import of it removed on
// destruction.
class ResolvedInput {
 public:
  ResolvedInput() = default;
  ResolvedInput(ResolvedInput&& other) noexcept = default;
  ResolvedInput& operator=(ResolvedInput&&) = delete;

  const std::string& bundle_path() const { return bundle_path_; }
  const std::string& kind() const { return kind_; }
  bool imported() const { return !temp_dir_.path().empty(); }

 private:
  friend Result<ResolvedInput> ResolveInput(const std::string& path, std::optional<std::string> known_kind);
  std::string bundle_path_;
  std::string kind_;
  WorkDir temp_dir_;
};

// `known_kind`: what DetectInputKind already told of `path`, so that it is
// not read again to tell it.
Result<ResolvedInput> ResolveInput(const std::string& path, std::optional<std::string> known_kind = std::nullopt);

}  // namespace gpuf

#endif  // GPUF_IMPORTER_IMPORT_SOURCE_H_
