#include "collector/redact/bundle_redactor.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "collector/bundle_writer.h"
#include "collector/redact/stream_redactor.h"
#include "common/bundle_layout.h"
#include "common/bundle_reader.h"
#include "common/output_file.h"
#include "common/sha256.h"
#include "common/time_format.h"
#include "common/work_dir.h"

namespace gpuf {

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

// Provenance of one member, for the map file only.
struct Original {
  int64_t size_bytes = 0;
  std::string sha256;
};

// Pass 1: every member verified by the reader, its lines fed to the learner.
class LearningVisitor : public BundleVisitor, public MemberStream {
 public:
  explicit LearningVisitor(RedactionRun* run) : run_(run) {}

  Status OnManifest(const Manifest& manifest) override {
    manifest_ = manifest;
    run_->learner().LearnFromManifest(manifest_);
    return Status::Ok();
  }
  MemberStream* StreamMember(const ManifestArtifact& artifact, const ManifestOutput& output) override {
    run_->learner().BeginMember(artifact.name);
    current_ = &output;
    return this;
  }
  void Chunk(std::string_view bytes) override {
    lines_.Feed(bytes, [&](std::string_view line) { run_->learner().Line(line); });
  }
  void End(bool verified) override {
    lines_.Finish([&](std::string_view line) { run_->learner().Line(line); });
    run_->learner().EndMember();
    if (verified) originals_[current_->member] = {current_->size_bytes, current_->sha256};
  }
  // A member read whole (its header gave no size) goes the same way.
  void OnMember(const ManifestArtifact& artifact, const ManifestOutput& output, std::string bytes,
                bool verified) override {
    StreamMember(artifact, output);
    Chunk(bytes);
    End(verified);
  }

  Manifest manifest_;
  std::map<std::string, Original> originals_;

 private:
  RedactionRun* run_;
  const ManifestOutput* current_ = nullptr;
  LineAssembler lines_;
};

// Pass 2: each member redacted into its own file in the work directory.
class RedactingVisitor : public BundleVisitor, public MemberStream {
 public:
  RedactingVisitor(RedactionRun* run, const WorkDir* staging, Manifest* redacted)
      : run_(run), staging_(staging), redacted_(redacted) {}

  Status OnManifest(const Manifest&) override { return Status::Ok(); }
  MemberStream* StreamMember(const ManifestArtifact& artifact, const ManifestOutput& output) override {
    if (!status_.ok()) return this;
    ManifestArtifact* target = redacted_->FindMutable(artifact.name, artifact.instance);
    const std::string staged = *staging_ / std::to_string(members_.size());
    file_.reset(std::fopen(staged.c_str(), "wbex"));
    if (!file_ || !target) {
      status_ = Status::IoError("creating '" + staged + "'", std::strerror(errno));
      return this;
    }
    stream_.emplace(&run_->text(), file_.get(), &target->redaction_counts);
    for (auto& out : target->outputs) {
      if (out.member == output.member) out_ = &out;
    }
    members_.push_back({output.member, staged});
    return this;
  }
  void Chunk(std::string_view bytes) override {
    if (status_.ok() && stream_) status_ = stream_->Feed(bytes);
  }
  void End(bool) override {
    if (status_.ok() && stream_) status_ = stream_->Finish();
    if (status_.ok() && std::fclose(file_.release()) != 0) {
      status_ = Status::IoError("writing '" + members_.back().source_path + "'", std::strerror(errno));
    }
    if (status_.ok() && out_) {
      out_->size_bytes = stream_->size_bytes();
      out_->sha256 = stream_->sha256();
    }
    stream_.reset();
    out_ = nullptr;
  }
  void OnMember(const ManifestArtifact& artifact, const ManifestOutput& output, std::string bytes,
                bool verified) override {
    StreamMember(artifact, output);
    Chunk(bytes);
    End(verified);
  }

  const Status& status() const { return status_; }
  std::vector<BundleMember>& members() { return members_; }

 private:
  RedactionRun* run_;
  const WorkDir* staging_;
  Manifest* redacted_;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> file_{nullptr, std::fclose};
  std::optional<StreamRedactor> stream_;
  ManifestOutput* out_ = nullptr;
  std::vector<BundleMember> members_;
  Status status_;
};

// OUT must not be IN under any spelling (the file identity, a hard link
// included), nor anything that exists unless --force allows a regular file;
// the map must be a file of its own.
Status CheckPaths(const std::string& input, const std::string& output, const std::string& map_path, Replace replace) {
  if (output.empty()) return Status::InvalidArgument("no output bundle given");
  struct stat in_st;
  if (stat(input.c_str(), &in_st) != 0) return Status::NotFound("reading '" + input + "'", std::strerror(errno));
  GPUF_RETURN_IF_ERROR(CheckOutputPath(output, replace));
  GPUF_RETURN_IF_ERROR(CheckNotInput(output, input));
  std::error_code ec;
  fs::path in_real = fs::weakly_canonical(fs::absolute(input, ec), ec);
  fs::path out_real = fs::weakly_canonical(fs::absolute(output, ec), ec);
  fs::path map_real = fs::weakly_canonical(fs::absolute(map_path, ec), ec);
  if (map_real == in_real || map_real == out_real) {
    return Status::InvalidArgument("--map '" + map_path + "' names a bundle", "the map file must be a file of its own");
  }
  return Status::Ok();
}

// A bundle redacted is one that verifies: a damaged or altered member would
// be laundered by new hashes. Entries the manifest does not name are
// dropped and listed.
Status RequireIntact(const std::vector<IntegrityIssue>& issues, std::vector<std::string>& dropped) {
  for (const auto& issue : issues) {
    const std::string& problem = issue.problem;
    if (problem == "not named in the manifest; ignored" || problem == "not a regular file; ignored" ||
        problem == "unsafe path; ignored" || problem == "duplicate member; ignored") {
      dropped.push_back(issue.member + ": " + problem);
    } else if (problem == "named in the manifest but missing from the archive") {
      return Status::BadInput("member '" + issue.member + "' named by the manifest is missing");
    } else if (problem == "larger than the member limit; ignored") {
      return Status::BadInput("member '" + issue.member + "' is larger than the member limit", "it is not redacted");
    } else {
      return Status::BadInput("member '" + issue.member + "' does not match the manifest",
                              "the bundle is damaged or altered (see gpuforensics verify); it is not redacted");
    }
  }
  return Status::Ok();
}

}  // namespace

Result<BundleRedactionOutcome> RedactBundle(const std::string& input, const std::string& output,
                                            const RedactOptions& options) {
  const std::string map_path = options.map_path.empty() ? DefaultMapPath(output) : options.map_path;
  const Replace replace = options.force ? Replace::kRegularFile : Replace::kNever;
  GPUF_RETURN_IF_ERROR(CheckPaths(input, output, map_path, replace));
  GPUF_RETURN_IF_ERROR(CheckMapWritable(map_path));
  GPUF_ASSIGN_OR_RETURN(std::unique_ptr<RedactionRun> redaction, RedactionRun::Open(options, map_path));
  BundleRedactionOutcome outcome;
  outcome.map_path = map_path;

  // Pass 1: verify every member and learn the names it holds.
  LearningVisitor learning(redaction.get());
  std::vector<IntegrityIssue> issues;
  GPUF_RETURN_IF_ERROR(ReadBundle(input, BundleLimits{}, learning, issues).WithContext("reading '" + input + "'"));
  GPUF_RETURN_IF_ERROR(RequireIntact(issues, outcome.dropped).WithContext("reading '" + input + "'"));
  const Manifest& manifest = learning.manifest_;
  std::map<std::string, Original>& originals = learning.originals_;
  redaction->text().Seal();

  // Pass 2: redact each member into the work directory.
  GPUF_ASSIGN_OR_RETURN(WorkDir staging, WorkDir::Beside(output, ".gpuforensics-redact-"));
  Manifest redacted = manifest;
  RedactingVisitor redacting(redaction.get(), &staging, &redacted);
  issues.clear();
  GPUF_RETURN_IF_ERROR(ReadBundle(input, BundleLimits{}, redacting, issues).WithContext("reading '" + input + "'"));
  GPUF_RETURN_IF_ERROR(redacting.status());
  std::vector<BundleMember>& members = redacting.members();

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
                                   redacted.started_at_unix_ns / 1000000000LL, replace));
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
