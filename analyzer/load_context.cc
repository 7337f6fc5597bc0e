#include "analyzer/load_context.h"

namespace gpuf {

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

void LoadContext::WarnAll(int64_t artifact_id, const std::string& member, const std::vector<ParseWarning>& warnings) {
  for (const auto& w : warnings) Warn(artifact_id, member, w.line, w.message);
}

}  // namespace gpuf
