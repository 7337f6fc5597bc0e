#include "collector/redact/collect_redaction.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "collector/redact/stream_redactor.h"
#include "common/file_io.h"
#include "common/sha256.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

Status Learn(LiteralLearner& learner, const ProbeResult& result) {
  for (const auto& staged : result.staged) {
    learner.BeginMember(result.artifact.name);
    LineAssembler lines;
    GPUF_RETURN_IF_ERROR(ForEachChunk(staged.staging_path, [&](std::string_view chunk) {
      lines.Feed(chunk, [&](std::string_view line) { learner.Line(line); });
    }));
    lines.Finish([&](std::string_view line) { learner.Line(line); });
    learner.EndMember();
  }
  return Status::Ok();
}

}  // namespace

Result<CollectedRedaction> RedactCollected(const RedactOptions& options, Manifest& manifest,
                                           std::vector<ProbeResult>& results) {
  CollectedRedaction out;
  GPUF_ASSIGN_OR_RETURN(out.run, RedactionRun::Open(options, options.map_path));
  RedactionRun& redaction = *out.run;
  redaction.learner().LearnFromManifest(manifest);
  for (const auto& r : results) {
    redaction.learner().BeginMember("manifest");
    redaction.learner().Line(r.artifact.instance);
    for (const auto& arg : r.artifact.argv) redaction.learner().Line(arg);
    redaction.learner().EndMember();
    GPUF_RETURN_IF_ERROR(Learn(redaction.learner(), r));
  }
  redaction.text().Seal();

  out.streams = nlohmann::json::array();
  for (auto& r : results) {
    const std::string original_instance = r.artifact.instance;
    nlohmann::json streams = nlohmann::json::array();
    Status failed = Status::Ok();
    for (const auto& staged : r.staged) {
      auto original_sha = Sha256OfFile(staged.staging_path);
      if (!original_sha.ok()) {
        failed = original_sha.status();
        break;
      }
      std::error_code ec;
      auto original_size = static_cast<int64_t>(std::filesystem::file_size(staged.staging_path, ec));
      const std::string redacted_path = staged.staging_path + ".redacted";
      auto redacted = RedactFile(&redaction.text(), staged.staging_path, redacted_path, &r.artifact.redaction_counts);
      if (redacted.ok() && std::rename(redacted_path.c_str(), staged.staging_path.c_str()) != 0) {
        redacted = Status::IoError("replacing '" + staged.staging_path + "'", std::strerror(errno));
      }
      if (!redacted.ok()) {
        std::remove(redacted_path.c_str());
        failed = redacted.status();
        break;
      }
      streams.push_back({{"artifact", r.artifact.name},
                         {"instance", original_instance},
                         {"stream", staged.stream},
                         {"original_size_bytes", original_size},
                         {"original_sha256", *original_sha},
                         {"size_bytes", redacted->size_bytes},
                         {"sha256", redacted->sha256}});
    }
    if (!failed.ok()) {
      // Unredacted bytes never reach the bundle: the artifact keeps no output, and says why.
      for (const auto& staged : r.staged) std::remove(staged.staging_path.c_str());
      r.staged.clear();
      r.artifact.outputs.clear();
      r.artifact.status = ProbeStatus::kError;
      r.artifact.error = "output dropped: redaction failed: " + failed.message();
      r.not_stored = true;
    }
    for (auto& stream : streams) out.streams.push_back(std::move(stream));
    redaction.RedactArtifactFields(r.artifact);
  }
  redaction.RedactHost(manifest);
  manifest.redaction = redaction.Summary("collect");
  return out;
}

Status SaveCollectedRedaction(CollectedRedaction& redaction, const RedactOptions& options,
                              const std::string& bundle_path) {
  const std::string map_path = options.map_path.empty() ? DefaultMapPath(bundle_path) : options.map_path;
  redaction.run->map().AddProvenance({{"by", "collect"},
                                      {"redacted_at", FormatRfc3339Utc(WallClockNowNs())},
                                      {"output", std::filesystem::absolute(bundle_path).string()},
                                      {"classes", redaction.run->Summary("collect").classes},
                                      {"members", redaction.streams}});
  return redaction.run->map().Save(map_path);
}

}  // namespace gpuf
