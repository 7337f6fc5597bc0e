#include "analyzer/analysis.h"

#include <optional>
#include <span>
#include <system_error>
#include <thread>
#include <utility>

#include "analyzer/rules/rule_loader.h"
#include "analyzer/timeline/timeline.h"
#include "analyzer/timeline/timeline_lines.h"

namespace gpuf {

namespace {

void Phase(const LoadProgressFn& progress, const char* phase) {
  if (!progress) return;
  LoadProgress p;
  p.phase = phase;
  progress(p);
}

// The time indexes of the tables that take a row per log line are built
// once, after every row is written: kept up row by row they cost random
// B-tree writes (schema/*.sql still declares them). The timeline reads the
// journal's index to drop duplicate entries, so it is built before.
constexpr std::string_view kLoadIndexes[] = {"journal_by_time", "log_lines_by_time"};
// The milestones timeline reads the pod logs' time index for one lookup a
// boot at most (the plugin's first line, where no container start was
// captured): a scan then costs less than building the index.
constexpr std::string_view kMilestoneLoadIndexes[] = {"journal_by_time"};
constexpr std::string_view kNotBuiltForMilestones[] = {"log_lines_by_time"};

Status BuildIndexesAndTimeline(Database& db, int64_t bundle_id, const std::vector<std::string>& after_load,
                               TimelineWarnings warnings = TimelineWarnings::kBuild) {
  GPUF_RETURN_IF_ERROR(db.Exec("BEGIN"));
  for (const auto& create : after_load) GPUF_RETURN_IF_ERROR(db.Exec(create));
  GPUF_RETURN_IF_ERROR(BuildTimeline(db, bundle_id, warnings));
  return db.Exec("COMMIT");
}

// The rules, read from their folders, and their pass over every log line.
struct ReadyRules {
  RuleSet rules;
  ScannedLogs scanned;  // points into `rules`: moved with it, never copied
};

// Reads the rules and makes their pass over every log line on the
// database's reader, in a thread of its own, while the caller builds the
// indexes and the timeline: on the bench bundle the two take about the same
// time, and each had one core. Without a reader or a thread, Wait() does
// both on the caller's connection.
class BackgroundRules {
 public:
  BackgroundRules(Database& db, int64_t bundle_id, std::vector<std::string> dirs)
      : db_(db), bundle_id_(bundle_id), dirs_(std::move(dirs)) {
    auto reader = db.OpenReader();
    if (!reader.ok()) return;
    reader_.emplace(std::move(*reader));
    try {
      thread_ = std::thread([this] { result_.emplace(ReadAndScanInOneRead(*reader_)); });
    } catch (const std::system_error&) {
      // No thread to be had: Wait() reads and scans.
    }
  }
  BackgroundRules(const BackgroundRules&) = delete;
  BackgroundRules& operator=(const BackgroundRules&) = delete;
  ~BackgroundRules() {
    if (thread_.joinable()) thread_.join();
  }

  Result<ReadyRules> Wait() {
    if (thread_.joinable()) thread_.join();
    if (result_) return std::move(*result_);
    return ReadAndScan(db_);
  }

 private:
  Result<ReadyRules> ReadAndScan(Database& db) {
    ReadyRules ready;
    GPUF_ASSIGN_OR_RETURN(ready.rules, LoadRules(dirs_));
    GPUF_ASSIGN_OR_RETURN(ready.scanned, ScanRuleLogs(db, bundle_id_, ready.rules));
    return ready;
  }

  // One read transaction: the tables it reads are seen as the load left
  // them, and the timeline's commit waits for it instead of interleaving.
  Result<ReadyRules> ReadAndScanInOneRead(Database& reader) {
    GPUF_RETURN_IF_ERROR(reader.Exec("BEGIN"));
    auto ready = ReadAndScan(reader);
    Status ended = reader.Exec("COMMIT");
    if (ready.ok() && !ended.ok()) return ended;
    return ready;
  }

  Database& db_;
  const int64_t bundle_id_;
  const std::vector<std::string> dirs_;
  std::optional<Database> reader_;
  std::optional<Result<ReadyRules>> result_;
  std::thread thread_;  // last: joined before the members it uses go
};

}  // namespace

Result<LoadResult> PrepareBundle(const std::string& bundle_path, Database& db, const LoadProgressFn& progress,
                                 Preparation what) {
  const bool milestones = what == Preparation::kMilestones;
  GPUF_ASSIGN_OR_RETURN(std::vector<std::string> after_load,
                        db.DropIndexes(milestones ? std::span<const std::string_view>(kMilestoneLoadIndexes)
                                                   : std::span<const std::string_view>(kLoadIndexes)));
  if (milestones) GPUF_RETURN_IF_ERROR(db.DropIndexes(kNotBuiltForMilestones).status());
  GPUF_ASSIGN_OR_RETURN(LoadResult loaded,
                        LoadBundle(bundle_path, db, progress, milestones ? MayMarkMilestone : nullptr));
  Phase(progress, "timeline");
  GPUF_RETURN_IF_ERROR(BuildIndexesAndTimeline(db, loaded.bundle_id, after_load,
                                               milestones ? TimelineWarnings::kSkip : TimelineWarnings::kBuild));
  return loaded;
}

Result<Analysis> AnalyzeBundle(const std::string& bundle_path, Database& db,
                               const std::vector<std::string>& extra_rule_dirs, const LoadProgressFn& progress) {
  std::vector<std::string> dirs = {BuiltinRulesDir()};
  dirs.insert(dirs.end(), extra_rule_dirs.begin(), extra_rule_dirs.end());
  Analysis analysis;
  GPUF_ASSIGN_OR_RETURN(std::vector<std::string> after_load, db.DropIndexes(kLoadIndexes));
  GPUF_ASSIGN_OR_RETURN(analysis.loaded, LoadBundle(bundle_path, db, progress));
  const int64_t bundle_id = analysis.loaded.bundle_id;
  BackgroundRules background(db, bundle_id, std::move(dirs));
  Phase(progress, "timeline");
  GPUF_RETURN_IF_ERROR(BuildIndexesAndTimeline(db, bundle_id, after_load));
  Phase(progress, "rules");
  GPUF_ASSIGN_OR_RETURN(ReadyRules ready, background.Wait());
  GPUF_ASSIGN_OR_RETURN(analysis.rules, RunRuleSet(db, bundle_id, ready.rules, std::move(ready.scanned)));
  return analysis;
}

}  // namespace gpuf
