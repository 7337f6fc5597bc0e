#include "analyzer/rules/rule_sql.h"

#include <algorithm>
#include <nlohmann/json.hpp>

#include "analyzer/load/member_loaders.h"
#include "common/json_bytes.h"
#include "common/time_format.h"

namespace gpuf {

namespace {

// Temp objects live in the connection, outside the documented schema.
constexpr const char* kTempObjects =
    "CREATE TEMP TABLE IF NOT EXISTS rule_context (rule_id TEXT);"
    "CREATE TEMP TABLE IF NOT EXISTS rule_matches (rule_id TEXT NOT NULL, selection TEXT NOT NULL, "
    "  artifact_id INTEGER, line INTEGER, time_ns INTEGER, text TEXT, captures TEXT NOT NULL);"
    "CREATE INDEX IF NOT EXISTS temp.rule_matches_by_selection ON rule_matches (rule_id, selection, artifact_id, line);"
    "CREATE TEMP VIEW IF NOT EXISTS matches AS SELECT selection, artifact_id, line, time_ns, text, captures "
    "  FROM rule_matches WHERE rule_id = (SELECT rule_id FROM rule_context);"
    // The bundle's GPUs as the engine joined them (gpu_presence.h).
    "CREATE TEMP TABLE IF NOT EXISTS gpu_subjects (gpu TEXT NOT NULL, bus TEXT, uuid TEXT, on_pci INTEGER, "
    "  listed INTEGER, pci_artifact_id INTEGER, nvml_artifact_id INTEGER);"
    // One row when the bundle shows a node without an NVIDIA GPU (node_kind.h).
    "CREATE TEMP TABLE IF NOT EXISTS not_a_gpu_node (reason TEXT NOT NULL);";

std::string CapturesJson(const SelectionRow& row) {
  nlohmann::json object = nlohmann::json::object();
  for (const auto& [name, value] : row.fields) {
    object[name] = value ? nlohmann::json(*value) : nlohmann::json(nullptr);
  }
  return DumpJson(object, -1, NonUtf8::kEscaped);
}

// Reads the rows of a prepared statement; the columns artifact_id, line,
// time_ns and text are provenance, the others fields; precision_ns, a
// field too, says how exact time_ns is.
Status ReadRows(Statement& s, std::vector<SelectionRow>& rows) {
  int columns = s.ColumnCount();
  std::vector<std::string> names;
  for (int i = 0; i < columns; ++i) names.push_back(s.ColumnName(i));
  while (rows.size() < kMaxSqlRows && s.Step()) {
    SelectionRow row;
    for (int i = 0; i < columns; ++i) {
      bool null = s.ColumnIsNull(i);
      const std::string& name = names[i];
      if (name == "artifact_id") {
        if (!null) row.artifact_id = s.ColumnInt(i);
      } else if (name == "line") {
        if (!null) row.line = s.ColumnInt(i);
      } else if (name == "time_ns") {
        if (!null) row.time_ns = s.ColumnInt(i);
      } else if (name == "text") {
        row.text = s.ColumnText(i);
      } else {
        if (name == "precision_ns" && !null) row.precision_ns = s.ColumnInt(i);
        row.fields.emplace_back(name, null ? std::nullopt : std::optional<std::string>(s.ColumnText(i)));
      }
    }
    rows.push_back(std::move(row));
  }
  return s.status();
}

}  // namespace

Status PrepareRuleSql(Database& db) {
  GPUF_RETURN_IF_ERROR(db.Exec(kTempObjects));
  return db.Exec("DELETE FROM temp.rule_matches; DELETE FROM temp.rule_context;");
}

Status BeginRuleSql(Database& db, const std::string& rule_id) {
  // Only the current rule's rows are ever read; keep the table small.
  GPUF_RETURN_IF_ERROR(db.Exec("DELETE FROM temp.rule_matches; DELETE FROM temp.rule_context"));
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare("INSERT INTO temp.rule_context (rule_id) VALUES (?)"));
  s.Bind(1, rule_id);
  return s.Run();
}

Status RecordSelectionRows(Database& db, const std::string& rule_id, const std::string& selection,
                           const std::vector<SelectionRow>& rows) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare("INSERT INTO temp.rule_matches (rule_id, selection, artifact_id, "
                                                "line, time_ns, text, captures) VALUES (?,?,?,?,?,?,?)"));
  for (const auto& row : rows) {
    s.Bind(1, rule_id).Bind(2, selection).Bind(3, row.artifact_id).Bind(4, row.line).Bind(5, row.time_ns);
    s.Bind(6, row.text).Bind(7, CapturesJson(row));
    GPUF_RETURN_IF_ERROR(s.Run());
  }
  return Status::Ok();
}

Result<ArtifactChoice> ArtifactsBehind(Database& db, const Selection& selection) {
  auto tables = db.TablesRead(selection.sql);
  if (!tables.ok()) return Status::InvalidArgument("selection '" + selection.name + "'", tables.status().message());
  ArtifactChoice behind;
  for (const auto& table : *tables) {
    for (const auto& loader : MemberLoaderTable()) {
      if (!LoaderWrites(loader, table)) continue;
      for (auto name : loader.reads) {
        if (std::find(behind.begin(), behind.end(), name) == behind.end()) behind.emplace_back(name);
      }
    }
  }
  return behind;
}

Result<std::vector<SelectionRow>> RunSqlSelection(Database& db, const Selection& selection, int64_t bundle_id) {
  const std::string what = "selection '" + selection.name + "'";
  auto statement = db.PrepareSingle(selection.sql);
  if (!statement.ok()) return Status::InvalidArgument(what, statement.status().message());
  statement->BindNamed(":bundle", bundle_id);
  GPUF_RETURN_IF_ERROR(db.Exec("PRAGMA query_only = ON"));
  std::vector<SelectionRow> rows;
  Status read = ReadRows(*statement, rows);
  GPUF_RETURN_IF_ERROR(db.Exec("PRAGMA query_only = OFF"));
  if (!read.ok() && read.message().ends_with(kInterruptedMessage)) return Status::InvalidArgument(what, kRuleSqlBudgetWords);
  if (!read.ok()) return Status::InvalidArgument(what, read.message());
  return rows;
}

RuleSqlBudget::RuleSqlBudget(Database& db) : db_(db) { db_.SetDeadline(MonotonicNowNs() + kRuleSqlBudgetNs); }

RuleSqlBudget::~RuleSqlBudget() { db_.SetDeadline(std::nullopt); }

}  // namespace gpuf
