#include "collector/redact/bundle_redactor.h"

#include <archive.h>
#include <archive_entry.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <set>

#include "collector/bundle_writer.h"
#include "collector/redact/stream_redactor.h"
#include "common/bundle_layout.h"
#include "common/sha256.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

constexpr int64_t kMaxManifestBytes = 64LL << 20;

struct ReaderCloser {
  void operator()(archive* a) const { archive_read_free(a); }
};

struct MemberRef {
  size_t artifact;
  size_t output;
};

// Provenance of one member, for the map file only.
struct Original {
  int64_t size_bytes = 0;
  std::string sha256;
};

Status ArchiveError(archive* a, const std::string& what) {
  const char* message = archive_error_string(a);
  return Status::BadInput(what, message ? message : "not a zstd-compressed tar");
}

Status ReadData(archive* a, const std::string& member, const std::function<Status(std::string_view)>& fn) {
  const void* block;
  size_t size;
  la_int64_t offset;
  while (true) {
    int rc = archive_read_data_block(a, &block, &size, &offset);
    if (rc == ARCHIVE_EOF) return Status::Ok();
    if (rc != ARCHIVE_OK) return ArchiveError(a, "reading member '" + member + "'");
    GPUF_RETURN_IF_ERROR(fn(std::string_view(static_cast<const char*>(block), size)));
  }
}

// Streams the bundle: the manifest first (read whole), then each member the
// manifest names, once; other entries are skipped and reported.
class BundleWalk {
 public:
  using MemberFn = std::function<Status(const MemberRef&, const std::string& member, archive* a)>;

  static Status Run(const std::string& path, Manifest& manifest, std::vector<std::string>* dropped,
                    const MemberFn& on_member) {
    std::unique_ptr<archive, ReaderCloser> a(archive_read_new());
    archive_read_support_filter_zstd(a.get());
    archive_read_support_format_tar(a.get());
    if (archive_read_open_filename(a.get(), path.c_str(), 1 << 16) != ARCHIVE_OK) {
      return ArchiveError(a.get(), "opening '" + path + "'");
    }
    archive_entry* entry;
    int rc = archive_read_next_header(a.get(), &entry);
    if (rc != ARCHIVE_OK) return ArchiveError(a.get(), "reading '" + path + "'");
    if (std::string(archive_entry_pathname(entry)) != kManifestMember || archive_entry_filetype(entry) != AE_IFREG ||
        archive_entry_size(entry) > kMaxManifestBytes) {
      return Status::BadInput("'" + path + "' is not a gpuforensics bundle", "the first member is not manifest.json");
    }
    std::string text;
    GPUF_RETURN_IF_ERROR(ReadData(a.get(), std::string(kManifestMember), [&](std::string_view chunk) {
      text.append(chunk);
      return Status::Ok();
    }));
    GPUF_ASSIGN_OR_RETURN(manifest, ParseManifest(text));
    std::map<std::string, MemberRef> named;
    for (size_t i = 0; i < manifest.artifacts.size(); ++i) {
      for (size_t j = 0; j < manifest.artifacts[i].outputs.size(); ++j) {
        const std::string& member = manifest.artifacts[i].outputs[j].member;
        if (!member.starts_with(kArtifactsDir) || member.find("..") != std::string::npos) {
          return Status::BadInput("the manifest names member '" + member + "' outside " + std::string(kArtifactsDir));
        }
        named[member] = {i, j};
      }
    }
    std::set<std::string> seen;
    while ((rc = archive_read_next_header(a.get(), &entry)) == ARCHIVE_OK) {
      std::string name = archive_entry_pathname(entry) ? archive_entry_pathname(entry) : "";
      auto it = named.find(name);
      if (archive_entry_filetype(entry) != AE_IFREG || it == named.end() || !seen.insert(name).second) {
        if (dropped) dropped->push_back(name);
        archive_read_data_skip(a.get());
        continue;
      }
      GPUF_RETURN_IF_ERROR(on_member(it->second, name, a.get()));
    }
    if (rc != ARCHIVE_EOF) return ArchiveError(a.get(), "reading '" + path + "'");
    for (const auto& [name, ref] : named) {
      if (!seen.count(name)) return Status::BadInput("member '" + name + "' named by the manifest is missing");
    }
    return Status::Ok();
  }
};

// OUT must not be IN under any spelling: compare the resolved paths and, when
// OUT exists, the file identity.
Status CheckPaths(const std::string& input, const std::string& output, const std::string& map_path) {
  if (output.empty()) return Status::InvalidArgument("no output bundle given");
  struct stat in_st;
  if (stat(input.c_str(), &in_st) != 0) return Status::NotFound("reading '" + input + "'", std::strerror(errno));
  std::error_code ec;
  fs::path in_real = fs::canonical(input, ec);
  fs::path out_parent = fs::path(output).parent_path();
  if (out_parent.empty()) out_parent = ".";
  fs::path out_real = fs::weakly_canonical(fs::absolute(out_parent, ec) / fs::path(output).filename(), ec);
  struct stat out_st;
  bool same_file = stat(output.c_str(), &out_st) == 0 && out_st.st_dev == in_st.st_dev && out_st.st_ino == in_st.st_ino;
  if (same_file || out_real == in_real) {
    return Status::InvalidArgument("the output is the input bundle '" + input + "'",
                                   "redact never overwrites its input; name another output");
  }
  fs::path map_real = fs::weakly_canonical(fs::absolute(map_path, ec), ec);
  if (map_real == in_real || map_real == out_real) {
    return Status::InvalidArgument("--map '" + map_path + "' names a bundle", "the map file must be a file of its own");
  }
  return Status::Ok();
}

struct StagingDir {
  std::string path;
  ~StagingDir() {
    if (!path.empty()) {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  }
};

Result<std::string> MakeStaging(const std::string& output) {
  fs::path parent = fs::path(output).parent_path();
  if (parent.empty()) parent = ".";
  std::string templ = (parent / ".gpuforensics-redact-XXXXXX").string();
  if (!mkdtemp(templ.data())) {
    return Status::IoError("creating a staging directory in '" + parent.string() + "'", std::strerror(errno));
  }
  return templ;
}

}  // namespace

Result<BundleRedactionOutcome> RedactBundle(const std::string& input, const std::string& output,
                                            const RedactOptions& options) {
  const std::string map_path = options.map_path.empty() ? DefaultMapPath(output) : options.map_path;
  GPUF_RETURN_IF_ERROR(CheckPaths(input, output, map_path));
  GPUF_RETURN_IF_ERROR(CheckMapWritable(map_path));
  GPUF_ASSIGN_OR_RETURN(std::unique_ptr<RedactionRun> redaction, RedactionRun::Open(options, map_path));
  BundleRedactionOutcome outcome;
  outcome.map_path = map_path;

  // Pass 1: verify every member and learn the names it holds.
  Manifest manifest;
  std::map<std::string, Original> originals;
  bool manifest_learned = false;
  Status walked = BundleWalk::Run(input, manifest, &outcome.dropped, [&](const MemberRef& ref, const std::string& member,
                                                                           archive* a) -> Status {
    if (!manifest_learned) {
      redaction->learner().LearnFromManifest(manifest);
      manifest_learned = true;
    }
    const ManifestArtifact& artifact = manifest.artifacts[ref.artifact];
    const ManifestOutput& expected = artifact.outputs[ref.output];
    Sha256 hash;
    int64_t size = 0;
    LineAssembler lines;
    LiteralLearner& learner = redaction->learner();
    learner.BeginMember(artifact.name);
    GPUF_RETURN_IF_ERROR(ReadData(a, member, [&](std::string_view chunk) {
      hash.Update(chunk);
      size += static_cast<int64_t>(chunk.size());
      lines.Feed(chunk, [&](std::string_view line) { learner.Line(line); });
      return Status::Ok();
    }));
    lines.Finish([&](std::string_view line) { learner.Line(line); });
    learner.EndMember();
    std::string sha = hash.HexDigest();
    if (size != expected.size_bytes || sha != expected.sha256) {
      return Status::BadInput("member '" + member + "' does not match the manifest",
                              "the bundle is damaged or altered (see gpuforensics verify); it is not redacted");
    }
    originals[member] = {size, sha};
    return Status::Ok();
  });
  GPUF_RETURN_IF_ERROR(walked.WithContext("reading '" + input + "'"));
  if (!manifest_learned) redaction->learner().LearnFromManifest(manifest);
  redaction->text().Seal();

  // Pass 2: redact each member into the staging directory.
  StagingDir staging;
  GPUF_ASSIGN_OR_RETURN(staging.path, MakeStaging(output));
  std::vector<BundleMember> members;
  Manifest redacted = manifest;
  walked = BundleWalk::Run(input, manifest, nullptr, [&](const MemberRef& ref, const std::string& member,
                                                          archive* a) -> Status {
    ManifestArtifact& artifact = redacted.artifacts[ref.artifact];
    const std::string staged = staging.path + "/" + std::to_string(members.size());
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(staged.c_str(), "wbe"), std::fclose);
    if (!file) return Status::IoError("creating '" + staged + "'", std::strerror(errno));
    StreamRedactor stream(&redaction->text(), file.get(), &artifact.redaction_counts);
    GPUF_RETURN_IF_ERROR(ReadData(a, member, [&](std::string_view chunk) { return stream.Feed(chunk); }));
    GPUF_RETURN_IF_ERROR(stream.Finish());
    if (std::fclose(file.release()) != 0) return Status::IoError("writing '" + staged + "'", std::strerror(errno));
    ManifestOutput& out = artifact.outputs[ref.output];
    out.size_bytes = stream.size_bytes();
    out.sha256 = stream.sha256();
    members.push_back({member, staged});
    return Status::Ok();
  });
  GPUF_RETURN_IF_ERROR(walked.WithContext("reading '" + input + "'"));

  json provenance_members = json::array();
  for (auto& artifact : redacted.artifacts) {
    const ManifestArtifact* original = manifest.Find(artifact.name, artifact.instance);
    for (const auto& out : artifact.outputs) {
      const Original& o = originals[out.member];
      provenance_members.push_back({{"member", out.member},
                                    {"artifact", artifact.name},
                                    {"instance", original ? original->instance : artifact.instance},
                                    {"original_size_bytes", o.size_bytes},
                                    {"original_sha256", o.sha256},
                                    {"size_bytes", out.size_bytes},
                                    {"sha256", out.sha256}});
    }
    redaction->RedactArtifactFields(artifact);
    // This run's replacements: a bundle redacted before already had counts.
    for (const auto& [name, count] : artifact.redaction_counts) outcome.totals[name] += count;
    if (original) {
      for (const auto& [name, count] : original->redaction_counts) outcome.totals[name] -= count;
    }
  }
  std::erase_if(outcome.totals, [](const auto& entry) { return entry.second == 0; });
  redaction->RedactHost(redacted);
  redacted.redaction = redaction->Summary("redact");
  if (manifest.redaction.redacted) {  // redacted before: what was applied then still holds
    std::set<std::string> classes(redacted.redaction.classes.begin(), redacted.redaction.classes.end());
    classes.insert(manifest.redaction.classes.begin(), manifest.redaction.classes.end());
    redacted.redaction.classes.assign(classes.begin(), classes.end());
    redacted.redaction.user_patterns += manifest.redaction.user_patterns;
  }

  GPUF_RETURN_IF_ERROR(WriteBundle(output, SerializeManifest(redacted), members,
                                   redacted.started_at_unix_ns / 1000000000LL));
  auto input_sha = Sha256OfFile(input);
  auto output_sha = Sha256OfFile(output);
  redaction->map().AddProvenance({{"by", "redact"},
                                  {"redacted_at", FormatRfc3339Utc(WallClockNowNs())},
                                  {"input", fs::absolute(input).string()},
                                  {"input_sha256", input_sha.ok() ? *input_sha : ""},
                                  {"output", fs::absolute(output).string()},
                                  {"output_sha256", output_sha.ok() ? *output_sha : ""},
                                  {"classes", redacted.redaction.classes},
                                  {"members", provenance_members}});
  Status saved = redaction->SaveMap();
  if (!saved.ok()) {
    std::remove(output.c_str());  // a redacted bundle whose map is lost cannot be traced back
    return saved;
  }
  outcome.manifest = std::move(redacted);
  return outcome;
}

}  // namespace gpuf
