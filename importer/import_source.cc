#include "importer/import_source.h"

#include <stdlib.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "common/bundle_layout.h"
#include "importer/adapters.h"
#include "importer/artifact_map.h"
#include "importer/bundle_repack.h"
#include "importer/source_tree.h"

namespace gpuf {

namespace {

constexpr unsigned char kZstdMagic[] = {0x28, 0xb5, 0x2f, 0xfd};
constexpr unsigned char kGzipMagic[] = {0x1f, 0x8b};
constexpr unsigned char kXzMagic[] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
constexpr unsigned char kBzip2Magic[] = {'B', 'Z', 'h'};

bool StartsWith(const std::string& head, const unsigned char* magic, size_t n) {
  return head.size() >= n && std::memcmp(head.data(), magic, n) == 0;
}

std::string BaseName(const std::string& path) {
  std::string p = path;
  while (p.size() > 1 && p.back() == '/') p.pop_back();
  size_t slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

bool IsBugReportText(std::string_view head) {
  return head.find("nvidia-bug-report.sh") != std::string_view::npos ||
         head.rfind("____________________________________________", 0) == 0;
}

// What a tree holds: our bundle re-packed, sos, must-gather, else a folder
// of saved outputs.
std::string TreeKind(const std::vector<std::string>& paths) {
  if (IsBundleTree(paths)) return std::string(kRepackedBundleKind);
  bool must_gather = false;
  for (const auto& p : paths) {
    if (p.rfind("sos_commands/", 0) == 0 || p.rfind("sos_reports/", 0) == 0) return "sosreport";
    std::string name = BaseName(p);
    if (name == "must-gather.log" || name.rfind("gpu_operand_pod", 0) == 0 || name.rfind("gpu_operator_pod", 0) == 0) {
      must_gather = true;
    }
  }
  return must_gather ? "must-gather" : "evidence-dir";
}

// Names only: a pass that keeps no bytes.
Result<std::vector<std::string>> ListTree(const std::string& path, bool archive, const SourceLimits& limits) {
  auto keep_nothing = [](std::string_view) { return false; };
  GPUF_ASSIGN_OR_RETURN(SourceTree tree, archive ? ReadArchiveTree(path, limits, keep_nothing)
                                                 : ReadDirectoryTree(path, limits, keep_nothing));
  tree.StripCommonTopDirectory();
  return tree.seen_files();
}

Result<std::string> ReadHead(const std::string& path) {
  FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return Status::BadInput("cannot read '" + path + "'", std::strerror(errno));
  std::string head(4096, '\0');
  head.resize(std::fread(head.data(), 1, head.size(), f));
  std::fclose(f);
  return head;
}

int64_t MtimeNs(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return 0;
  return st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
}

// A zstd tar whose first member is not the manifest, holding a bundle's
// files: ours re-made by tar --zstd (collect writes the manifest first).
bool ReTarredBundle(const std::string& path, const std::string& head) {
  if (!StartsWith(head, kZstdMagic, sizeof kZstdMagic)) return false;
  auto start = ReadCompressedHead(path, 512);
  if (!start.ok() || start->size() < 262 || start->compare(257, 5, "ustar") != 0) return false;
  if (std::string(start->c_str()) == kManifestMember) return false;
  auto paths = ListTree(path, /*archive=*/true, SourceLimits());
  return paths.ok() && IsBundleTree(*paths);
}

}  // namespace

Result<std::string> DetectInputKind(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) return Status::BadInput("cannot read '" + path + "'", std::strerror(errno));
  SourceLimits limits;
  if (S_ISDIR(st.st_mode)) {
    GPUF_ASSIGN_OR_RETURN(auto paths, ListTree(path, /*archive=*/false, limits));
    return TreeKind(paths);
  }
  if (!S_ISREG(st.st_mode)) {
    return Status::BadInput("'" + path + "' is " + FileTypeName(st.st_mode) + ", not a regular file or a directory");
  }
  GPUF_ASSIGN_OR_RETURN(std::string head, ReadHead(path));
  if (ReTarredBundle(path, head)) return std::string(kRepackedBundleKind);
  if (StartsWith(head, kZstdMagic, sizeof kZstdMagic)) return std::string(kBundleFormatName);
  bool compressed = StartsWith(head, kGzipMagic, sizeof kGzipMagic) || StartsWith(head, kXzMagic, sizeof kXzMagic) ||
                    StartsWith(head, kBzip2Magic, sizeof kBzip2Magic);
  bool tar = head.size() > 262 && head.compare(257, 5, "ustar") == 0;
  if (compressed || tar) {
    // A compressed text is a bug report; a compressed tar is a tree.
    GPUF_ASSIGN_OR_RETURN(std::string start, ReadCompressedHead(path, 4096));
    if (IsBugReportText(start)) return std::string("nvidia-bug-report");
    GPUF_ASSIGN_OR_RETURN(auto paths, ListTree(path, /*archive=*/true, limits));
    return TreeKind(paths);
  }
  if (IsBugReportText(head)) return std::string("nvidia-bug-report");
  return Status::BadInput("'" + path + "' is not a gpuforensics bundle, sos report, nvidia-bug-report log, "
                          "must-gather or evidence directory");
}

namespace {

// ImportSource for a source whose kind DetectInputKind told (not our
// bundle): a tar is read once more, not twice. Returns the kind it was read
// as.
Result<std::string> ImportOfKind(const std::string& path, std::string kind, const std::string& output_path,
                                 Replace replace) {
  SourceLimits limits;
  struct stat st {};
  bool directory = stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
  std::string name = BaseName(path);
  if (kind == kRepackedBundleKind) {
    GPUF_ASSIGN_OR_RETURN(SourceTree tree, directory
                                               ? ReadDirectoryTree(path, limits, [](std::string_view) { return true; })
                                               : ReadArchiveTree(path, limits, [](std::string_view) { return true; }));
    tree.StripCommonTopDirectory();
    Status repacked = RepackBundle(tree, output_path, replace);
    if (repacked.code() != Status::Code::kBadInput) {
      GPUF_RETURN_IF_ERROR(repacked);
      return kind;
    }
    kind = "evidence-dir";  // names like a bundle's, but no manifest of ours: read as saved files
  }
  ImportPlan plan;
  if (kind == "nvidia-bug-report") {
    GPUF_ASSIGN_OR_RETURN(std::string log, ReadMaybeCompressedFile(path, limits));
    plan = ImportBugReport(log, name, MtimeNs(path));
  } else {
    WantPath want = [](std::string_view) { return true; };
    if (kind == "sosreport") want = SosWants;
    if (kind == "must-gather") want = MustGatherWants;
    GPUF_ASSIGN_OR_RETURN(SourceTree tree,
                          directory ? ReadDirectoryTree(path, limits, want) : ReadArchiveTree(path, limits, want));
    if (directory) tree.StripCommonTopDirectory();
    if (kind == "sosreport") plan = ImportSosReport(tree, name);
    if (kind == "evidence-dir") plan = ImportEvidenceDir(tree, name);
    if (kind == "must-gather") {
      GPUF_ASSIGN_OR_RETURN(plan, ImportMustGather(tree, name, limits));
    }
  }
  // A folder whose files were all unrecognised still gets a report: its
  // coverage says why each file was not read.
  if (plan.artifacts.empty() && (kind != "evidence-dir" || plan.inputs.empty())) {
    return Status::BadInput("'" + path + "' (" + kind + ") holds nothing gpuforensics can read");
  }
  GPUF_RETURN_IF_ERROR(WriteImportedBundle(plan, CannotShow(kind), output_path, replace));
  return kind;
}

}  // namespace

Result<std::string> ImportSource(const std::string& path, const std::string& output_path, Replace replace) {
  GPUF_RETURN_IF_ERROR(CheckOutputPath(output_path, replace));
  GPUF_RETURN_IF_ERROR(CheckNotInput(output_path, path));
  GPUF_ASSIGN_OR_RETURN(std::string kind, DetectInputKind(path));
  if (kind == kBundleFormatName) return Status::BadInput("'" + path + "' is already a gpuforensics bundle");
  return ImportOfKind(path, kind, output_path, replace);
}

Result<ResolvedInput> ResolveInput(const std::string& path, std::optional<std::string> known_kind) {
  ResolvedInput input;
  // A missing path or one named like a bundle goes to the bundle reader,
  // whose messages say what is wrong with a bundle.
  struct stat st {};
  bool bundle_name = path.size() > kBundleSuffix.size() &&
                     path.compare(path.size() - kBundleSuffix.size(), kBundleSuffix.size(), kBundleSuffix) == 0;
  bool readable = stat(path.c_str(), &st) == 0;
  if (!known_kind && readable && bundle_name && S_ISREG(st.st_mode)) {
    auto head = ReadHead(path);
    known_kind = std::string(head.ok() && ReTarredBundle(path, *head) ? kRepackedBundleKind : kBundleFormatName);
  }
  if (!readable) known_kind = std::string(kBundleFormatName);
  if (!known_kind) {
    GPUF_ASSIGN_OR_RETURN(known_kind, DetectInputKind(path));
  }
  const std::string kind = *known_kind;
  input.kind_ = kind;
  if (kind == kBundleFormatName) {
    input.bundle_path_ = path;
    return input;
  }
  GPUF_ASSIGN_OR_RETURN(input.temp_dir_, WorkDir::Create("", "gpuforensics-input-"));
  input.bundle_path_ = input.temp_dir_ / ("imported" + std::string(kBundleSuffix));
  // What it was read as: a tree named like a bundle whose manifest is not
  // ours is read as saved files.
  GPUF_ASSIGN_OR_RETURN(input.kind_, ImportOfKind(path, kind, input.bundle_path_, Replace::kNever));
  return input;
}

}  // namespace gpuf
