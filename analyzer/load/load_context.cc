#include "analyzer/load/load_context.h"

#include <re2/re2.h>

#include "common/bundle_layout.h"
#include "common/byte_pattern.h"

namespace gpuf {

LoadContext::LoadContext(Database& db, int64_t bundle_id, const Manifest& manifest)
    : db_(db), bundle_id_(bundle_id), manifest_(manifest) {
  re2::RE2::Options options = BytePatternOptions();
  options.set_case_sensitive(false);
  const std::string fallback(kDefaultPluginPattern);
  plugin_pattern_ = std::make_unique<re2::RE2>(manifest.plugin_pattern.empty() ? fallback : manifest.plugin_pattern,
                                               options);
  if (!plugin_pattern_->ok()) plugin_pattern_ = std::make_unique<re2::RE2>(fallback, options);
}

LoadContext::~LoadContext() = default;

bool LoadContext::IsPluginName(std::string_view name) {
  return !name.empty() && re2::RE2::PartialMatch(re2::StringPiece(name.data(), name.size()), *plugin_pattern_);
}

Statement* LoadContext::Cached(const char* sql) {
  auto it = statements_.find(sql);
  if (it != statements_.end()) return it->second.get();
  auto prepared = db_.Prepare(sql);
  if (!prepared.ok()) {
    Record(prepared.status());
    return nullptr;
  }
  auto inserted = statements_.emplace(sql, std::make_unique<Statement>(std::move(prepared).value()));
  return inserted.first->second.get();
}

void LoadContext::Warn(int64_t artifact_id, const std::string& member, int line, const std::string& message) {
  Run("INSERT INTO parse_warnings (artifact_id, member, line, message) VALUES (?,?,?,?)", artifact_id, member,
      line > 0 ? std::optional<int64_t>(line) : std::nullopt, message);
}

std::string_view LoadContext::CapLine(int64_t artifact_id, const std::string& member, int line, std::string_view text) {
  if (text.size() <= kMaxLineBytes) return text;
  Warn(artifact_id, member, line, "line of " + std::to_string(text.size()) + " bytes cut to " +
                                      std::to_string(kMaxLineBytes));
  return text.substr(0, kMaxLineBytes);
}

void LoadContext::WarnAll(int64_t artifact_id, const std::string& member, const std::vector<ParseWarning>& warnings) {
  for (const auto& w : warnings) Warn(artifact_id, member, w.line, w.message);
}

void LoadContext::WriteJournalBoots() {
  for (const auto& [boot_id, end] : journal_boot_ends_.ends()) {
    if (!end.boot_offset) continue;  // a slice that does not say which boot it holds
    Run("INSERT INTO journal_boots (bundle_id, boot_id, boot_offset, realtime_us, monotonic_us) VALUES (?,?,?,?,?)",
        bundle_id_, boot_id, end.boot_offset, end.realtime_us, end.monotonic_us);
  }
}

}  // namespace gpuf
