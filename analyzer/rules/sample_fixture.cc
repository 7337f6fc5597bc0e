#include "analyzer/rules/sample_fixture.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "analyzer/load/load_context.h"
#include "analyzer/load/member_loaders.h"
#include "analyzer/rules/sample_parser.h"
#include "analyzer/timeline/timeline.h"
#include "common/artifacts.h"
#include "common/bundle_layout.h"
#include "common/journal_slices.h"
#include "common/vocabulary.h"
#include "formats/plugin_log.h"

namespace gpuf {

namespace {

struct ArtifactName {
  std::string name;
  std::string instance;
};

// "plugin.log[0.log]" -> {plugin.log, 0.log}.
ArtifactName SplitName(const std::string& text) {
  size_t open = text.find('[');
  if (open == std::string::npos || text.back() != ']') return {text, ""};
  return {text.substr(0, open), text.substr(open + 1, text.size() - open - 2)};
}

// What the loader makes of the artifact's lines (the loaders that read it).
bool IsJournal(const std::string& name) { return FindJournalSlice(name) != nullptr; }
bool IsPluginLog(const std::string& name) { return InArtifactGroup(kPluginLogsGroup, name) && !IsJournal(name); }

// The bundle is written by the loader's own writers, as if it had been
// read: the manifest's rows, journal entries through JournalLineLoader,
// plugin lines and artifact lines as their loaders store them. Only the
// sample's `rows` are inserted as written.
class FixtureBuilder {
 public:
  FixtureBuilder(Database& db, const RuleSample& sample) : db_(db), sample_(sample) {}

  Result<int64_t> Build(YamlMark* where) {
    GPUF_RETURN_IF_ERROR(InsertBundle());
    ctx_ = std::make_unique<LoadContext>(db_, bundle_id_, manifest_);
    InsertArtifacts();
    std::map<std::string, int> next_line;
    std::map<std::string, std::string> texts;  // by key: lines as artifact_lines keeps them
    std::map<std::string, std::vector<std::string>> messages;  // by key: a plugin log's messages
    for (const auto& line : sample_.lines) {
      const std::string key = Key(line.artifact);
      int number = ++next_line[key];
      StoreLine(key, number, line);
      if (!IsJournal(SplitName(key).name)) texts[key] += line.text + "\n";
      if (IsPluginLog(SplitName(key).name)) messages[key].push_back(ReadPluginLine(line.text).message);
    }
    for (const auto& [key, text] : texts) LoadArtifactLines(*ctx_, Input(key, text));
    for (const auto& [key, lines] : messages) {
      std::vector<LogMessage> numbered;
      for (size_t i = 0; i < lines.size(); ++i) numbered.push_back({static_cast<int>(i + 1), lines[i]});
      StorePluginConfigs(*ctx_, Input(key, ""), std::nullopt, numbered);
    }
    GPUF_RETURN_IF_ERROR(ctx_->status());
    for (const auto& row : sample_.rows) {
      Status s = InsertRow(row);
      if (!s.ok()) {
        *where = row.mark;
        return s;
      }
    }
    // The timeline, as analyze builds it: rules read its events.
    GPUF_RETURN_IF_ERROR(BuildTimeline(db_, bundle_id_));
    return bundle_id_;
  }

 private:
  // The artifact a name stands for, journals on boot 0 unless told otherwise.
  static std::string Key(const std::string& text) {
    ArtifactName n = SplitName(text);
    if (n.instance.empty() && IsJournal(n.name)) n.instance = "boot:0";
    return n.name + "[" + n.instance + "]";
  }

  Status InsertBundle() {
    int64_t last = kSampleEpochNs;
    for (const auto& line : sample_.lines) last = std::max(last, line.time_ns.value_or(last));
    manifest_.format_version = 1;
    manifest_.tool_version = "sample";
    manifest_.node_name = "sample-node";
    manifest_.started_at_unix_ns = last + 60'000'000'000;
    manifest_.ended_at_unix_ns = last + 61'000'000'000;
    manifest_.complete = true;
    GPUF_ASSIGN_OR_RETURN(bundle_id_, InsertBundleRow(db_, "sample", manifest_));
    return Status::Ok();
  }

  void InsertArtifacts() {
    std::vector<std::pair<std::string, std::string>> wanted = sample_.artifacts;
    for (const auto& line : sample_.lines) wanted.emplace_back(line.artifact, "ok");
    for (const auto& row : sample_.rows) {
      for (const auto& [column, value] : row.columns) {
        if (column == "artifact" && value) wanted.emplace_back(*value, "ok");
      }
    }
    for (const auto& [text, status] : wanted) {
      std::string key = Key(text);
      if (artifacts_.count(key)) continue;
      ArtifactName n = SplitName(key);
      auto a = std::make_unique<ManifestArtifact>();
      a->name = n.name;
      a->instance = n.instance;
      const ArtifactRow* row = FindArtifact(n.name);
      a->kind = std::string(ArtifactKindName(row ? row->kind : ArtifactKind::kFile));
      // A saved output that does not say where it ran, as the importer files it.
      a->context = n.name.rfind("saved.", 0) == 0 ? "unknown" : "host";
      a->started_at_unix_ns = a->ended_at_unix_ns = kSampleEpochNs;
      a->status = Parse<ProbeStatus>(status).value_or(ProbeStatus::kError);  // the sample parser checked the word
      a->timed_out = a->status == ProbeStatus::kTimedOut;
      if (a->status == ProbeStatus::kSkipped) a->skip_reason = SkipReason::kNotFound;
      ids_[key] = InsertArtifactRow(*ctx_, *a);
      artifacts_[key] = std::move(a);
    }
  }

  MemberInput Input(const std::string& key, std::string_view bytes) {
    return MemberInput{ids_.at(key), *artifacts_.at(key), Output(key), bytes};
  }

  const ManifestOutput& Output(const std::string& key) {
    ManifestOutput& o = outputs_[key];
    const ArtifactRow* row = FindArtifact(SplitName(key).name);
    o.stream = std::string(row ? row->stream() : kStreamContent);
    o.member = "sample";
    return o;
  }

  void StoreLine(const std::string& key, int number, const SampleLine& line) {
    ArtifactName n = SplitName(key);
    MemberInput in = Input(key, "");
    if (IsJournal(n.name)) {
      JournalEntry entry;
      entry.identifier = line.identifier;
      entry.unit = line.unit;
      if (const JournalSliceRow* slice = FindJournalSlice(n.name)) {
        if (entry.identifier.empty()) entry.identifier = std::string(slice->identifier);
        if (entry.unit.empty()) entry.unit = std::string(slice->unit);
      }
      if (entry.identifier == "systemd") entry.pid = 1;
      entry.message = line.text;
      if (line.time_ns) entry.realtime_us = *line.time_ns / 1000;
      JournalLineLoader(*ctx_, in).Store(number, entry);
      return;
    }
    if (IsPluginLog(n.name)) {
      StorePluginLogLine(*ctx_, in, std::nullopt, number, line.time_ns, kStreamStderr, ReadPluginLine(line.text));
    }
  }

  Status InsertRow(const SampleRow& row) {
    GPUF_ASSIGN_OR_RETURN(Statement info, db_.Prepare("SELECT name FROM pragma_table_info(?)"));
    info.Bind(1, row.table);
    std::vector<std::string> columns_of_table;
    while (info.Step()) columns_of_table.push_back(info.ColumnText(0));
    if (columns_of_table.empty()) return Status::BadInput("no table '" + row.table + "' in the schema");
    std::vector<std::string> names;
    std::vector<std::optional<std::string>> values;
    bool has_bundle = false;
    for (const auto& [column, value] : row.columns) {
      has_bundle = has_bundle || column == "bundle_id";
      if (column == "artifact") {
        names.push_back("artifact_id");
        values.push_back(value ? std::optional<std::string>(std::to_string(ids_.at(Key(*value)))) : value);
      } else if (value && value->size() > 1 && value->front() == '@' && IsTimeColumn(column)) {
        auto ns = SampleTimeNs(value->substr(1));
        if (!ns) return Status::BadInput("column " + column + ": '" + *value + "' is not a sample time");
        names.push_back(column);
        values.push_back(std::to_string(column.size() > 3 && column.substr(column.size() - 3) == "_us" ? *ns / 1000 : *ns));
      } else {
        names.push_back(column);
        values.push_back(value);
      }
    }
    if (!has_bundle && std::count(columns_of_table.begin(), columns_of_table.end(), "bundle_id")) {
      names.push_back("bundle_id");
      values.push_back(std::to_string(bundle_id_));
    }
    std::string sql = "INSERT INTO " + row.table + " (";
    for (size_t i = 0; i < names.size(); ++i) sql += (i ? ", " : "") + names[i];
    sql += ") VALUES (";
    for (size_t i = 0; i < names.size(); ++i) sql += i ? ", ?" : "?";
    auto s = db_.Prepare(sql + ")");
    if (!s.ok()) return Status::BadInput("row of '" + row.table + "'", s.status().message());
    for (size_t i = 0; i < values.size(); ++i) {
      if (values[i]) s->Bind(static_cast<int>(i + 1), *values[i]);
    }
    Status run = s->Run();
    return run.ok() ? run : Status::BadInput("row of '" + row.table + "'", run.message());
  }

  static bool IsTimeColumn(const std::string& column) {
    return column.size() > 3 && (column.substr(column.size() - 3) == "_ns" || column.substr(column.size() - 3) == "_us");
  }

  Database& db_;
  const RuleSample& sample_;
  Manifest manifest_;
  int64_t bundle_id_ = 0;
  std::unique_ptr<LoadContext> ctx_;
  std::map<std::string, std::unique_ptr<ManifestArtifact>> artifacts_;
  std::map<std::string, ManifestOutput> outputs_;
  std::map<std::string, int64_t> ids_;
};

}  // namespace

Result<int64_t> BuildSampleBundle(Database& db, const RuleSample& sample, YamlMark* where) {
  *where = sample.mark;
  return FixtureBuilder(db, sample).Build(where);
}

}  // namespace gpuf
