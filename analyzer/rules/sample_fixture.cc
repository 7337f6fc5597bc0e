#include "analyzer/rules/sample_fixture.h"

#include <algorithm>
#include <cstdlib>
#include <map>

#include "analyzer/parsers/journal_event.h"
#include "analyzer/parsers/plugin_log.h"
#include "analyzer/rules/sample_parser.h"
#include "common/journal_slices.h"

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

bool IsJournal(const std::string& name) { return name.rfind("journal.", 0) == 0; }
bool IsContainerLog(const std::string& name) {
  return name.rfind("plugin.log", 0) == 0 || name.rfind("plugin.crictl_logs", 0) == 0;
}

class FixtureBuilder {
 public:
  FixtureBuilder(Database& db, const RuleSample& sample) : db_(db), sample_(sample) {}

  Result<int64_t> Build(RuleMark* where) {
    GPUF_RETURN_IF_ERROR(InsertBundle());
    GPUF_RETURN_IF_ERROR(InsertArtifacts());
    std::map<int64_t, int> next_line;
    for (const auto& line : sample_.lines) {
      int64_t id = artifact_ids_.at(Key(line.artifact));
      GPUF_RETURN_IF_ERROR(InsertLine(id, ++next_line[id], line));
    }
    for (const auto& row : sample_.rows) {
      Status s = InsertRow(row);
      if (!s.ok()) {
        *where = row.mark;
        return s;
      }
    }
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
    GPUF_ASSIGN_OR_RETURN(Statement s, db_.Prepare(
        "INSERT INTO bundles (path, format_version, tool_version, node_name, collected_at_ns, collection_ended_ns, "
        "complete, utc_offset_seconds) VALUES ('sample', 1, 'sample', 'sample-node', ?, ?, 1, 0)"));
    s.Bind(1, last + 60'000'000'000).Bind(2, last + 61'000'000'000);
    GPUF_RETURN_IF_ERROR(s.Run());
    bundle_id_ = db_.LastInsertId();
    return Status::Ok();
  }

  Status InsertArtifacts() {
    std::vector<std::pair<std::string, std::string>> wanted = sample_.artifacts;
    for (const auto& line : sample_.lines) wanted.emplace_back(line.artifact, "ok");
    for (const auto& row : sample_.rows) {
      for (const auto& [column, value] : row.columns) {
        if (column == "artifact" && value) wanted.emplace_back(*value, "ok");
      }
    }
    GPUF_ASSIGN_OR_RETURN(Statement s, db_.Prepare(
        "INSERT INTO artifacts (bundle_id, name, instance, kind, context, started_at_ns, duration_ns, status, "
        "timed_out, abandoned, truncated, skip_reason, redactions) VALUES (?,?,?,'file','host',?,0,?,?,0,0,?,0)"));
    for (const auto& [text, status] : wanted) {
      std::string key = Key(text);
      if (artifact_ids_.count(key)) continue;
      ArtifactName n = SplitName(key);
      s.Bind(1, bundle_id_).Bind(2, n.name).Bind(3, n.instance).Bind(4, kSampleEpochNs).Bind(5, status);
      s.Bind(6, int64_t{status == "timed_out"});
      if (status == "skipped") s.Bind(7, "not_found");
      GPUF_RETURN_IF_ERROR(s.Run());
      artifact_ids_[key] = db_.LastInsertId();
    }
    return Status::Ok();
  }

  Status InsertLine(int64_t artifact_id, int number, const SampleLine& line) {
    ArtifactName n = SplitName(Key(line.artifact));
    if (IsJournal(n.name)) {
      GPUF_RETURN_IF_ERROR(InsertJournalEntry(artifact_id, number, n, line));
      // The plugin's own lines in its unit's journal are log_lines too, as the loader writes them.
      if (n.name != kPluginJournalSlice || line.identifier == "systemd") return Status::Ok();
      return InsertPluginLogLine(artifact_id, number, line);
    }
    if (IsContainerLog(n.name)) GPUF_RETURN_IF_ERROR(InsertPluginLogLine(artifact_id, number, line));
    GPUF_ASSIGN_OR_RETURN(Statement s, db_.Prepare("INSERT INTO artifact_lines (artifact_id, stream, line, text) "
                                                   "VALUES (?, 'content', ?, ?)"));
    s.Bind(1, artifact_id).Bind(2, int64_t{number}).Bind(3, line.text);
    return s.Run();
  }

  Status InsertPluginLogLine(int64_t artifact_id, int number, const SampleLine& line) {
    PluginLine read = ReadPluginLine(line.text);
    GPUF_ASSIGN_OR_RETURN(Statement s, db_.Prepare("INSERT INTO log_lines (artifact_id, line, time_ns, stream, "
                                                   "event, message) VALUES (?,?,?,'stderr',?,?)"));
    s.Bind(1, artifact_id).Bind(2, int64_t{number}).Bind(3, line.time_ns).Bind(5, read.message);
    if (read.event) s.Bind(4, *read.event);
    return s.Run();
  }

  Status InsertJournalEntry(int64_t artifact_id, int number, const ArtifactName& n, const SampleLine& line) {
    std::string identifier = line.identifier;
    std::string unit = line.unit;
    if (const JournalSliceRow* slice = FindJournalSlice(n.name)) {
      if (identifier.empty()) identifier = slice->identifier;
      if (unit.empty()) unit = slice->unit;
    }
    if (identifier.empty()) identifier = n.name.substr(8);
    JournalEntry entry;
    entry.identifier = identifier;
    entry.unit = unit;
    if (identifier == "systemd") entry.pid = 1;
    entry.message = line.text;
    const JournalEvent classified = ClassifyJournalEntry(entry);
    const std::string& event = classified.kind;
    const std::string& subject = classified.subject;
    std::optional<int64_t> boot;
    if (n.instance.rfind("boot:", 0) == 0) boot = std::strtoll(n.instance.c_str() + 5, nullptr, 10);
    GPUF_ASSIGN_OR_RETURN(Statement s, db_.Prepare(
        "INSERT INTO journal_entries (artifact_id, line, boot_offset, realtime_us, identifier, unit, pid, event, "
        "event_subject, message) VALUES (?,?,?,?,?,?,?,?,?,?)"));
    s.Bind(1, artifact_id).Bind(2, int64_t{number}).Bind(3, boot);
    s.Bind(4, line.time_ns ? std::optional<int64_t>(*line.time_ns / 1000) : std::nullopt).Bind(5, identifier);
    if (!unit.empty()) s.Bind(6, unit);
    if (identifier == "systemd") s.Bind(7, int64_t{1});
    if (!event.empty()) s.Bind(8, event);
    if (!subject.empty()) s.Bind(9, subject);
    s.Bind(10, line.text);
    return s.Run();
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
        values.push_back(value ? std::optional<std::string>(std::to_string(artifact_ids_.at(Key(*value)))) : value);
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
  int64_t bundle_id_ = 0;
  std::map<std::string, int64_t> artifact_ids_;
};

}  // namespace

Result<int64_t> BuildSampleBundle(Database& db, const RuleSample& sample, RuleMark* where) {
  *where = sample.mark;
  return FixtureBuilder(db, sample).Build(where);
}

}  // namespace gpuf
