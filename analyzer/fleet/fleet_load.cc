#include "analyzer/fleet/fleet_load.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <variant>

#include "analyzer/analysis.h"
#include "analyzer/database.h"
#include "analyzer/fleet/fleet_schema_sql.h"
#include "analyzer/rules/rule_engine.h"
#include "analyzer/rules/rule_loader.h"
#include "analyzer/timeline/chain_verdict.h"

namespace gpuf {

namespace {

using Cell = std::optional<std::variant<int64_t, double, std::string>>;  // nullopt: NULL
using Row = std::vector<Cell>;

// What one bundle contributes to the fleet: rows ready for the fleet tables
// (without their leading fleet_bundle_id), one vector per TableCopy.
struct BundleRows {
  size_t index = 0;
  std::string load_error;  // empty when analyzed
  std::vector<std::vector<Row>> tables;
  bool broken = false;             // chain BROKEN or a finding at medium or above
  int64_t integrity_issues = 0;
  std::string gap;                 // why the analysis cannot vouch for the bundle, "" when it can
};

bool Serious(const Finding& f) { return Serious(f.severity); }

// One per-bundle query and the fleet statement its rows go to. `types` has a
// letter per selected column (T text, I integer, R real); ?1 of `insert` is
// the fleet_bundle_id, ?2... the selected columns in order.
struct TableCopy {
  const char* types;
  const char* select;
  const char* insert;
};

constexpr TableCopy kCopies[] = {
    {"TTIIT",
     "SELECT node_name, boot_id, collected_at_ns, complete, tool_version FROM bundles WHERE bundle_id = :bundle",
     "UPDATE fleet_bundles SET node_name = ?2, boot_id = ?3, collected_at_ns = ?4, complete = ?5, tool_version = ?6"
     " WHERE fleet_bundle_id = ?1"},
    {"TTTT",
     "SELECT rule_id, severity, confidence, summary FROM findings WHERE bundle_id = :bundle ORDER BY finding_id",
     "INSERT INTO fleet_findings VALUES (?1, ?2, ?3, ?4, ?5)"},
    {"TT", "SELECT DISTINCT component, version FROM versions ORDER BY component, version",
     "INSERT INTO fleet_versions VALUES (?1, ?2, ?3)"},
    {"ITR", "SELECT boot_offset, name, seconds FROM intervals WHERE bundle_id = :bundle ORDER BY rowid",
     "INSERT INTO fleet_intervals VALUES (?1, ?2, ?3, ?4)"},
    // The report's detection (analyzer/report/report.h): the leader's first timed
    // evidence, the first drop, the first alert at or after it.
    {"TTITITI", R"sql(
WITH leader AS (SELECT rule_id, finding_id FROM diagnoses WHERE bundle_id = :bundle AND symptom_group = 1 AND rank = 1),
     dropped AS (SELECT time_ns, message FROM events WHERE bundle_id = :bundle AND milestone = $milestone(metric_dropped)
                 ORDER BY time_ns LIMIT 1),
     alert AS (SELECT e.time_ns, e.message FROM events e, dropped d WHERE e.bundle_id = :bundle
               AND e.milestone = $milestone(alert_firing) AND e.time_ns >= d.time_ns ORDER BY e.time_ns LIMIT 1)
SELECT (SELECT c.kube_system_uid FROM cluster_identity c JOIN artifacts a USING (artifact_id)
        WHERE a.bundle_id = :bundle LIMIT 1),
       (SELECT rule_id FROM leader),
       (SELECT min(v.time_ns) FROM finding_evidence v, leader l WHERE v.finding_id = l.finding_id AND v.shows = 'event'),
       d.message, d.time_ns, (SELECT message FROM alert), (SELECT time_ns FROM alert)
FROM dropped d)sql",
     "INSERT INTO fleet_detections VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"},
};
constexpr const char* kChainStepInsert = "INSERT INTO fleet_chain_steps VALUES (?1, ?2, ?3, ?4, ?5)";

Result<std::vector<Row>> SelectRows(Database& db, const TableCopy& copy, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(Statement select, db.Prepare(copy.select));
  select.BindNamed(":bundle", bundle_id);
  std::string_view types = copy.types;
  std::vector<Row> rows;
  while (select.Step()) {
    Row row;
    for (size_t i = 0; i < types.size(); ++i) {
      int column = static_cast<int>(i);
      if (select.ColumnIsNull(column)) {
        row.emplace_back();
      } else if (types[i] == 'I') {
        row.emplace_back(select.ColumnInt(column));
      } else if (types[i] == 'R') {
        row.emplace_back(select.ColumnDouble(column));
      } else {
        row.emplace_back(select.ColumnText(column));
      }
    }
    rows.push_back(std::move(row));
  }
  GPUF_RETURN_IF_ERROR(select.status());
  return rows;
}

// Exactly what `analyze` does to a bundle, then the rows the fleet keeps.
Status AnalyzeInto(const std::string& path, const RuleSet& rules, BundleRows& out) {
  GPUF_ASSIGN_OR_RETURN(Database db, Database::Create(":memory:"));
  GPUF_ASSIGN_OR_RETURN(LoadResult loaded, PrepareBundle(path, db));
  GPUF_ASSIGN_OR_RETURN(RuleRunSummary summary, RunRuleSet(db, loaded.bundle_id, rules));
  for (const auto& f : summary.findings) out.broken = out.broken || Serious(f);
  out.integrity_issues = static_cast<int64_t>(loaded.integrity_issues.size());
  if (!loaded.manifest.complete) out.gap = "the bundle is incomplete (" + loaded.manifest.incomplete_reason + ")";
  if (out.integrity_issues > 0) {
    out.gap = std::to_string(out.integrity_issues) + " members are missing or do not match the manifest";
  }
  if (summary.runs.empty()) out.gap = "no rule ran";
  for (const auto& copy : kCopies) {
    GPUF_ASSIGN_OR_RETURN(std::vector<Row> rows, SelectRows(db, copy, loaded.bundle_id));
    out.tables.push_back(std::move(rows));
  }
  GPUF_ASSIGN_OR_RETURN(std::vector<ChainStep> steps, ComputeChainVerdict(db, loaded.bundle_id));
  std::vector<Row> step_rows;
  for (size_t i = 0; i < steps.size(); ++i) {
    out.broken = out.broken || steps[i].status == StepStatus::kFailed;
    step_rows.push_back({Cell(static_cast<int64_t>(i + 1)), Cell(steps[i].name),
                         Cell(Word(steps[i].status)), Cell(steps[i].detail)});
  }
  out.tables.push_back(std::move(step_rows));
  return Status::Ok();
}

void BindCell(Statement& statement, int index, const Cell& cell) {
  if (!cell) {
    statement.BindNull(index);
  } else if (const auto* i = std::get_if<int64_t>(&*cell)) {
    statement.Bind(index, *i);
  } else if (const auto* d = std::get_if<double>(&*cell)) {
    statement.BindDouble(index, *d);
  } else {
    statement.Bind(index, std::get<std::string>(*cell));
  }
}

// The one writer: owns the fleet database and its prepared statements.
class FleetWriter {
 public:
  static Result<FleetWriter> Open(const std::string& path) {
    GPUF_ASSIGN_OR_RETURN(Database db, Database::CreateBare(path));
    GPUF_RETURN_IF_ERROR(db.Exec("PRAGMA application_id=" + std::to_string(kFleetApplicationId)));
    for (const auto& file : FleetSchemaFiles()) {
      GPUF_RETURN_IF_ERROR(db.Exec(file.sql).WithContext("schema/fleet/" + std::string(file.name)));
    }
    GPUF_RETURN_IF_ERROR(db.Exec("BEGIN"));
    FleetWriter writer(std::move(db));
    GPUF_ASSIGN_OR_RETURN(Statement bundle, writer.db_.Prepare("INSERT INTO fleet_bundles "
                                                               "(fleet_bundle_id, path, load_error, integrity_issues) "
                                                               "VALUES (?1, ?2, ?3, ?4)"));
    writer.statements_.push_back(std::move(bundle));
    for (const auto& copy : kCopies) {
      GPUF_ASSIGN_OR_RETURN(Statement insert, writer.db_.Prepare(copy.insert));
      writer.statements_.push_back(std::move(insert));
    }
    GPUF_ASSIGN_OR_RETURN(Statement steps, writer.db_.Prepare(kChainStepInsert));
    writer.statements_.push_back(std::move(steps));
    return writer;
  }

  Status Write(const std::string& path, const BundleRows& rows) {
    const int64_t id = static_cast<int64_t>(rows.index) + 1;
    Statement& bundle = statements_[0];
    bundle.Bind(1, id).Bind(2, path);
    if (rows.load_error.empty()) {
      bundle.BindNull(3).Bind(4, rows.integrity_issues);
    } else {
      bundle.Bind(3, rows.load_error).BindNull(4);
    }
    GPUF_RETURN_IF_ERROR(bundle.Run());
    for (size_t t = 0; t < rows.tables.size(); ++t) {
      Statement& insert = statements_[t + 1];
      for (const Row& row : rows.tables[t]) {
        insert.Bind(1, id);
        for (size_t c = 0; c < row.size(); ++c) BindCell(insert, static_cast<int>(c) + 2, row[c]);
        GPUF_RETURN_IF_ERROR(insert.Run());
      }
    }
    return Status::Ok();
  }

  Status Commit() {
    statements_.clear();
    return db_.Exec("COMMIT");
  }

 private:
  explicit FleetWriter(Database db) : db_(std::move(db)) {}
  Database db_;
  std::vector<Statement> statements_;  // fleet_bundles, one per kCopies entry, chain steps
};

// Finished bundles, handed from the workers to the writer.
class Handoff {
 public:
  void Put(BundleRows rows) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.push_back(std::move(rows));
    }
    ready_.notify_one();
  }
  BundleRows Take() {
    std::unique_lock<std::mutex> lock(mutex_);
    ready_.wait(lock, [&] { return !done_.empty(); });
    BundleRows rows = std::move(done_.front());
    done_.pop_front();
    return rows;
  }

 private:
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<BundleRows> done_;
};

Result<FleetLoadResult> WriteFleet(FleetWriter& writer, const FleetLoadOptions& options, const RuleSet& rules) {
  const size_t count = options.bundles.size();
  unsigned workers = options.workers ? options.workers : std::max(1u, std::thread::hardware_concurrency());
  workers = static_cast<unsigned>(std::min<size_t>(workers, std::max<size_t>(count, 1)));

  std::atomic<size_t> next{0};
  Handoff handoff;
  std::vector<std::jthread> threads;
  for (unsigned w = 0; w < workers; ++w) {
    threads.emplace_back([&] {
      for (size_t i = next++; i < count; i = next++) {
        BundleRows rows;
        rows.index = i;
        Status analyzed = AnalyzeInto(options.bundles[i], rules, rows);
        if (!analyzed.ok()) {
          rows.tables.clear();
          rows.load_error = analyzed.message();
        }
        handoff.Put(std::move(rows));
      }
    });
  }

  FleetLoadResult result;
  std::vector<std::optional<FleetBundleError>> errors(count), gaps(count);
  Status written = Status::Ok();
  for (size_t received = 0; received < count; ++received) {
    BundleRows rows = handoff.Take();  // every bundle is taken, even after a failed write, so workers end
    if (!written.ok()) continue;
    const std::string& path = options.bundles[rows.index];
    if (rows.load_error.empty()) {
      ++result.loaded;
      if (rows.broken) ++result.broken;
      if (!rows.gap.empty()) gaps[rows.index] = FleetBundleError{path, rows.gap};
    } else {
      errors[rows.index] = FleetBundleError{path, rows.load_error};
    }
    written = writer.Write(path, rows);
  }
  GPUF_RETURN_IF_ERROR(written);
  for (auto& error : errors) {
    if (error) result.not_loaded.push_back(std::move(*error));
  }
  for (auto& gap : gaps) {
    if (gap) result.gaps.push_back(std::move(*gap));
  }
  return result;
}

}  // namespace

Result<FleetLoadResult> LoadFleet(const std::string& db_path, const FleetLoadOptions& options) {
  // Written beside its path and published whole; a failure leaves nothing.
  GPUF_ASSIGN_OR_RETURN(DatabaseOutput output, DatabaseOutput::Begin(db_path, DatabaseKind::kFleet));
  std::vector<std::string> dirs = {BuiltinRulesDir()};
  dirs.insert(dirs.end(), options.extra_rule_dirs.begin(), options.extra_rule_dirs.end());
  GPUF_ASSIGN_OR_RETURN(RuleSet rules, LoadRules(dirs));
  GPUF_ASSIGN_OR_RETURN(FleetWriter writer, FleetWriter::Open(output.write_path()));
  GPUF_ASSIGN_OR_RETURN(FleetLoadResult loaded, WriteFleet(writer, options, rules));
  GPUF_RETURN_IF_ERROR(writer.Commit());
  GPUF_RETURN_IF_ERROR(output.Publish());
  return loaded;
}

}  // namespace gpuf
