// What a member loader needs: the database, cached inserts, the bundle's
// manifest, and a place to put warnings. Loaders are plain functions of
// (context, artifact, bytes); the table in loader.cc says which runs on what.
#ifndef GPUF_ANALYZER_LOAD_LOAD_CONTEXT_H_
#define GPUF_ANALYZER_LOAD_LOAD_CONTEXT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "analyzer/database.h"
#include "analyzer/journal/journal_boot_ends.h"
#include "common/manifest.h"
#include "common/parse_warning.h"

namespace re2 {
class RE2;
}

namespace gpuf {

struct JournalEntry;
struct JournalEvent;

// Which journal entries a load stores: nullptr for every one. A command that
// reads only some (the milestones timeline) saves storing and indexing the
// rest; every entry is still read, hashed and counted towards its boot.
using JournalEntryFilter = bool (*)(const JournalEntry& entry, const JournalEvent& event);

class LoadContext {
 public:
  LoadContext(Database& db, int64_t bundle_id, const Manifest& manifest);
  ~LoadContext();

  int64_t bundle_id() const { return bundle_id_; }
  const Manifest& manifest() const { return manifest_; }
  Database& db() { return db_; }

  // Runs a cached INSERT/UPDATE with the values bound in order; `sql` must be
  // a string literal (its address is the cache key). Accepts
  // integers, strings, std::optional of either (nullopt binds NULL) and nullptr.
  template <typename... Values>
  void Run(const char* sql, const Values&... values) {
    Statement* s = Cached(sql);
    if (!s) return;
    int index = 0;
    (BindOne(*s, ++index, values), ...);
    Record(s->Run());
  }

  // True when a container, pod or log name matches the bundle's device-plugin
  // pattern (the collector's --plugin-pattern, case-insensitive).
  bool IsPluginName(std::string_view name);

  void set_journal_filter(JournalEntryFilter keep) { journal_filter_ = keep; }
  bool StoresJournalEntry(const JournalEntry& entry, const JournalEvent& event) const {
    return !journal_filter_ || journal_filter_(entry, event);
  }

  // The journal's boots, noted entry by entry; written by WriteJournalBoots.
  JournalBootEnds& journal_boot_ends() { return journal_boot_ends_; }
  void WriteJournalBoots();

  // Rows changed by the last statement (to insert after an UPDATE found none).
  int64_t Changes() { return db_.Changes(); }

  void Warn(int64_t artifact_id, const std::string& member, int line, const std::string& message);

  // A line longer than kMaxLineBytes is cut there, with a warning: one
  // runaway line must not blow up the database or a report.
  static constexpr size_t kMaxLineBytes = 1 << 20;
  std::string_view CapLine(int64_t artifact_id, const std::string& member, int line, std::string_view text);
  void WarnAll(int64_t artifact_id, const std::string& member, const std::vector<ParseWarning>& warnings);

  // The first database error, if any; loading goes on after it.
  const Status& status() const { return status_; }
  void Record(const Status& s) {
    if (!s.ok() && status_.ok()) status_ = s;
  }

 private:
  Statement* Cached(const char* sql);

  static void BindOne(Statement& s, int i, std::nullptr_t) { s.BindNull(i); }
  static void BindOne(Statement& s, int i, int64_t v) { s.Bind(i, v); }
  static void BindOne(Statement& s, int i, int v) { s.Bind(i, static_cast<int64_t>(v)); }
  static void BindOne(Statement& s, int i, bool v) { s.Bind(i, static_cast<int64_t>(v)); }
  static void BindOne(Statement& s, int i, double v) { s.BindDouble(i, v); }
  // The values outlive the statement's Run: they are the arguments of the
  // call that runs it (each row's text was copied once per column before).
  static void BindOne(Statement& s, int i, std::string_view v) { s.BindUncopied(i, v); }
  static void BindOne(Statement& s, int i, const std::string& v) { s.BindUncopied(i, v); }
  static void BindOne(Statement& s, int i, const char* v) { s.BindUncopied(i, v); }
  template <typename T>
  static void BindOne(Statement& s, int i, const std::optional<T>& v) {
    if (v) BindOne(s, i, *v); else s.BindNull(i);
  }

  Database& db_;
  int64_t bundle_id_;
  const Manifest& manifest_;
  // Keyed by the SQL literal's address: a lookup per row must not build a string.
  std::unordered_map<const char*, std::unique_ptr<Statement>> statements_;
  std::unique_ptr<re2::RE2> plugin_pattern_;
  JournalBootEnds journal_boot_ends_;
  JournalEntryFilter journal_filter_ = nullptr;
  Status status_;
};

// "" -> std::nullopt, for columns where an empty string means unknown.
inline std::optional<std::string> NullIfEmpty(const std::string& s) {
  return s.empty() ? std::nullopt : std::optional<std::string>(s);
}

// One member of the bundle as a loader gets it: its artifact and output
// in the manifest, and its bytes.
struct MemberInput {
  int64_t artifact_id;
  const ManifestArtifact& artifact;
  const ManifestOutput& output;
  std::string_view bytes;
  std::string_view stderr_bytes = {};  // for loaders that read both streams (MemberLoaderRow::with_stderr)
};

}  // namespace gpuf

#endif  // GPUF_ANALYZER_LOAD_LOAD_CONTEXT_H_
