#include "collector/redact/redaction.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "common/bundle_layout.h"
#include "common/byte_pattern.h"
#include "common/file_io.h"
#include "common/text_lines.h"

namespace gpuf {

std::string DefaultMapPath(const std::string& bundle_path) {
  std::string base = bundle_path;
  if (base.size() > kBundleSuffix.size() && base.ends_with(kBundleSuffix)) {
    base.resize(base.size() - kBundleSuffix.size());
  }
  return base + ".map.json";
}

Status CheckMapWritable(const std::string& map_path) {
  std::filesystem::path parent = std::filesystem::path(map_path).parent_path();
  if (parent.empty()) parent = ".";
  if (access(parent.c_str(), W_OK) != 0) {
    return Status::IoError("the map file '" + map_path + "' cannot be written", std::strerror(errno));
  }
  return Status::Ok();
}

Result<std::vector<std::unique_ptr<RE2>>> LoadUserPatterns(const std::string& path) {
  auto text = ReadWholeFile(path);
  if (!text.ok()) return Status::InvalidArgument("--redact-pattern '" + path + "'", text.status().message());
  std::vector<std::unique_ptr<RE2>> patterns;
  Status status;
  ForEachLine(*text, [&](int number, std::string_view line) {
    std::string_view pattern = Trim(line);
    if (!status.ok() || pattern.empty() || pattern[0] == '#') return;
    RE2::Options o = BytePatternOptions();
    auto re = std::make_unique<RE2>(re2::StringPiece(pattern.data(), pattern.size()), o);
    if (!re->ok()) {
      status = Status::InvalidArgument(path + ":" + std::to_string(number) + ": invalid RE2 pattern '" +
                                       std::string(pattern) + "'", re->error());
      return;
    }
    if (RE2::FullMatch("", *re)) {
      status = Status::InvalidArgument(path + ":" + std::to_string(number) + ": pattern '" + std::string(pattern) +
                                       "' matches the empty string");
      return;
    }
    patterns.push_back(std::move(re));
  });
  GPUF_RETURN_IF_ERROR(status);
  return patterns;
}

RedactionRun::RedactionRun(PseudonymMap map, std::string map_path, std::set<std::string> classes)
    : map_(std::move(map)),
      map_path_(std::move(map_path)),
      text_(std::make_unique<TextRedactor>(std::move(classes), &map_)),
      learner_(text_.get()) {}

Result<std::unique_ptr<RedactionRun>> RedactionRun::Open(const RedactOptions& options, const std::string& map_path) {
  GPUF_ASSIGN_OR_RETURN(std::set<std::string> classes, ChooseClasses(options.classes));
  std::vector<std::unique_ptr<RE2>> patterns;
  for (const auto& file : options.pattern_files) {
    GPUF_ASSIGN_OR_RETURN(auto loaded, LoadUserPatterns(file));
    for (auto& re : loaded) patterns.push_back(std::move(re));
  }
  std::optional<MapLock> lock;
  if (!map_path.empty()) {
    GPUF_ASSIGN_OR_RETURN(MapLock acquired, MapLock::Acquire(map_path));
    lock = std::move(acquired);
  }
  GPUF_ASSIGN_OR_RETURN(PseudonymMap map, PseudonymMap::Load(map_path));
  std::unique_ptr<RedactionRun> r(new RedactionRun(std::move(map), map_path, std::move(classes)));
  r->lock_ = std::move(lock);
  r->user_patterns_ = static_cast<int>(patterns.size() + options.keywords.size());
  for (auto& re : patterns) r->text_->AddUserPattern(std::move(re));
  for (const auto& word : options.keywords) r->text_->AddKeyword(word);
  return r;
}

void RedactionRun::RedactHost(Manifest& m) {
  RedactionCounts ignored;
  const std::vector<std::string> hosts = {m.hostname, m.node_name};
  for (std::string* field :
       {&m.hostname, &m.node_name, &m.machine_id, &m.root, &m.tz_env, &m.kubeconfig, &m.origin.source}) {
    text_->RedactText(*field, ignored);
  }
  for (auto& step : m.node_name_steps) {
    text_->RedactText(step.from, ignored);
    text_->RedactText(step.value, ignored);
  }
  // An imported bundle's source is named after its host, glued to other
  // words ("sosreport-node-1-2026-..."): the host's name goes wherever it is.
  if (!text_->Enabled("hostname")) return;
  for (const auto& host : hosts) {
    if (host.size() < 3 || map_.IsPseudonym(host)) continue;
    const std::string pseudonym = map_.PseudonymFor(Family::kHostname, host);
    for (size_t at = m.origin.source.find(host); at != std::string::npos;
         at = m.origin.source.find(host, at + pseudonym.size())) {
      m.origin.source.replace(at, host.size(), pseudonym);
    }
  }
}

void RedactionRun::RedactArtifactFields(ManifestArtifact& a) {
  text_->RedactText(a.instance, a.redaction_counts);
  text_->RedactText(a.executable, a.redaction_counts);
  text_->RedactText(a.path, a.redaction_counts);
  text_->RedactText(a.error, a.redaction_counts);
  text_->RedactText(a.source_file, a.redaction_counts);
  for (auto& arg : a.argv) text_->RedactText(arg, a.redaction_counts);
}

ManifestRedaction RedactionRun::Summary(const std::string& by) const {
  ManifestRedaction s;
  s.redacted = true;
  s.by = by;
  s.classes.assign(text_->classes().begin(), text_->classes().end());
  s.user_patterns = user_patterns_;
  return s;
}

}  // namespace gpuf
