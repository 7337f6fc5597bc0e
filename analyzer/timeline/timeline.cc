#include "analyzer/timeline/timeline.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "analyzer/timeline/metric_points.h"
#include "analyzer/timeline/timeline_lines.h"
#include "common/vocabulary.h"

namespace gpuf {

namespace {

// Boots seen in the journal: the wall-clock start is realtime minus
// monotonic of the boot's latest entry (after any clock step at boot), as
// the loader found it (schema/journal_boots.sql).
constexpr char kBoots[] = R"sql(
CREATE TEMP TABLE IF NOT EXISTS boots (boot_offset INTEGER, boot_id TEXT, start_ns INTEGER);
DELETE FROM temp.boots;
INSERT INTO temp.boots (boot_offset, boot_id, start_ns)
SELECT boot_offset, boot_id, (realtime_us - monotonic_us) * 1000 FROM journal_boots WHERE bundle_id = :bundle;
)sql";

// /proc/stat btime: the boot at capture, when the journal has none of it.
constexpr char kBootFromProcStat[] = R"sql(
INSERT INTO temp.boots (boot_offset, boot_id, start_ns)
SELECT 0, NULL, CAST(substr(l.text, 7) AS INTEGER) * 1000000000
FROM artifact_lines l JOIN artifacts a USING (artifact_id)
WHERE a.bundle_id = :bundle AND a.name = $artifact(boot.proc_stat) AND l.text LIKE 'btime %'
  AND NOT EXISTS (SELECT 1 FROM temp.boots WHERE boot_offset = 0)
LIMIT 1;
)sql";

// The entries the timeline leaves out, as repeats of one before them
// (schema/journal_copies.sql). Only a time two entries share can hide a
// copy: finding those times reads journal_by_time once in order, where
// probing the index for every entry cost a seek a line.
constexpr char kJournalCopies[] = R"sql(
INSERT INTO journal_copies (artifact_id, line)
SELECT j.artifact_id, j.line
FROM journal_entries j JOIN artifacts a USING (artifact_id)
WHERE a.bundle_id = :bundle
  AND j.realtime_us IN (SELECT realtime_us FROM journal_entries GROUP BY realtime_us HAVING count(*) > 1)
  AND EXISTS (SELECT 1 FROM journal_entries d
              WHERE d.realtime_us = j.realtime_us AND d.boot_id IS j.boot_id AND d.message = j.message
                AND (d.artifact_id, d.line) < (j.artifact_id, j.line)
                AND d.artifact_id IN (SELECT artifact_id FROM artifacts WHERE bundle_id = :bundle));
)sql";

constexpr char kBootEvents[] = R"sql(
INSERT INTO events (bundle_id, time_ns, precision_ns, timestamp_desc, time_source, source, boot_id, boot_offset,
                    milestone, message)
SELECT :bundle, start_ns, 1000000, 'Boot', CASE WHEN boot_id IS NULL THEN 'explicit_utc' ELSE 'boot_relative' END,
       'host', boot_id, boot_offset, $milestone(boot), 'boot ' || coalesce(boot_id, 'at capture (/proc/stat btime)')
FROM temp.boots;
)sql";

// crictl reports container times with an explicit offset (or as Unix ns).
constexpr char kContainerEvents[] = R"sql(
INSERT INTO events (bundle_id, artifact_id, time_ns, precision_ns, timestamp_desc, time_source, source, container_id,
                    milestone, message)
SELECT :bundle, artifact_id, t, 1, d, 'explicit_utc', 'runtime', id, m,
       'device-plugin container ' || coalesce(name, '?') || ' attempt ' || coalesce(attempt, '?') || ' ' || verb ||
       ' (' || substr(id, 1, 13) || ')'
FROM (SELECT artifact_id, id, name, attempt, created_at_ns AS t, 'Container Created' AS d,
             $milestone(plugin_container_created) AS m, 'created' AS verb
      FROM containers WHERE bundle_id = :bundle AND is_plugin
      UNION ALL
      SELECT artifact_id, id, name, attempt, started_at_ns, 'Container Started', $milestone(plugin_container_started),
             'started'
      FROM containers WHERE bundle_id = :bundle AND is_plugin
      UNION ALL
      SELECT artifact_id, id, name, attempt, finished_at_ns, 'Container Finished', $milestone(plugin_container_finished),
             'finished, exit code ' || coalesce(exit_code, '?')
      FROM containers WHERE bundle_id = :bundle AND is_plugin)
WHERE t IS NOT NULL;
)sql";

constexpr char kSocketEvents[] = R"sql(
INSERT INTO events (bundle_id, artifact_id, line, time_ns, precision_ns, timestamp_desc, time_source, source,
                    milestone, message)
SELECT :bundle, s.artifact_id, s.line, s.mtime_ns, 1, 'File Modified', 'file_mtime', 'kubelet-dir',
       CASE WHEN s.name = 'kubelet.sock' THEN $milestone(kubelet_sock_created) END,
       '/var/lib/kubelet/device-plugins/' || s.name || ' last modified'
FROM plugin_sockets s JOIN artifacts a USING (artifact_id)
WHERE a.bundle_id = :bundle;
)sql";

constexpr char kCollectionEvent[] = R"sql(
INSERT INTO events (bundle_id, time_ns, precision_ns, timestamp_desc, time_source, source, milestone, message)
SELECT bundle_id, collected_at_ns, 1, 'Collection', 'explicit_utc', 'collector', $milestone(collection),
       CASE WHEN origin_kind IS NULL THEN 'gpuforensics collect started on ' || coalesce(node_name, '?')
            ELSE origin_kind || ' captured on ' || coalesce(node_name, '?') || ' (imported)' END
FROM bundles WHERE bundle_id = :bundle;
)sql";

// The API server's record, in its own clock (seconds, UTC): when Ready last
// changed, when any other condition became what it is unless that is its
// quiet False (MemoryPressure=False since the node was made says nothing),
// and each Kubernetes event with a time (JSON and YAML give one; kubectl's
// text gives only ages).
constexpr char kClusterEvents[] = R"sql(
INSERT INTO events (bundle_id, artifact_id, time_ns, precision_ns, timestamp_desc, time_source, source, milestone,
                    message)
SELECT :bundle, c.artifact_id, c.last_transition_ns, 1000000000, 'Condition Changed', 'explicit_utc', 'cluster',
       $milestone(node_condition_changed),
       'Node ' || c.type || '=' || c.status || coalesce(' ' || c.reason, '') || coalesce(': ' || c.message, '')
FROM node_conditions c JOIN artifacts a USING (artifact_id)
WHERE a.bundle_id = :bundle AND c.last_transition_ns IS NOT NULL AND (c.type = 'Ready' OR c.status != 'False');
INSERT INTO events (bundle_id, artifact_id, line, time_ns, precision_ns, timestamp_desc, time_source, source,
                    milestone, message)
SELECT :bundle, e.artifact_id, e.line, e.last_seen_ns, 1000000000, 'Event Last Seen', 'explicit_utc', 'cluster',
       $milestone(cluster_event),
       coalesce(e.type || ' ', '') || coalesce(e.reason || ' ', '') || coalesce(e.object, 'event') || ': ' ||
       e.message || CASE WHEN e.count > 1 THEN ' (x' || e.count || ')' ELSE '' END
FROM k8s_events e JOIN artifacts a USING (artifact_id)
WHERE a.bundle_id = :bundle AND e.last_seen_ns IS NOT NULL;
)sql";

// The metrics store's record (k8s.metrics), on the node's clock where it
// was measured: each drop of a GPU resource's allocatable from one sample
// to the next (it happened within the step before), and each run of an
// alert naming the node in the firing state, from its first sample; it
// resolved a step after its last, unless that is the end of the window.
std::string MetricsEvents() {
  return std::string("WITH ") + kAllocatablePoints + ", " + kFiringPoints + R"sql(
INSERT INTO events (bundle_id, artifact_id, time_ns, precision_ns, timestamp_desc, time_source, source, milestone,
                    message)
SELECT :bundle, artifact_id, time_ns, step_s * 1000000000, 'Metric Sample', 'explicit_utc', 'metrics',
       $milestone(metric_dropped),
       coalesce(resource, '?') || ' allocatable ' || printf('%g', value_before) || ' -> ' || printf('%g', value) ||
       ' (' || coalesce(metric, 'kube_node_status_allocatable') || ', as the metrics store recorded it)'
FROM allocatable_points WHERE value < value_before
UNION ALL
SELECT :bundle, artifact_id, time_ns, step_ns, 'Alert Firing', 'explicit_utc', 'metrics',
       $milestone(alert_firing), 'alert ' || coalesce(alertname, '?') || ' firing (ALERTS in the metrics store)'
FROM firing_points WHERE run_start
UNION ALL
SELECT :bundle, artifact_id, time_ns + step_ns, step_ns, 'Alert Resolved', 'explicit_utc',
       'metrics', $milestone(alert_resolved), 'alert ' || coalesce(alertname, '?') || ' no longer firing'
FROM firing_points WHERE run_end;
)sql";
}

// Events whose source knows no boot get the boot they fall in.
constexpr char kAssignBoots[] = R"sql(
UPDATE events SET
  boot_offset = (SELECT b.boot_offset FROM temp.boots b WHERE b.start_ns <= events.time_ns
                 ORDER BY b.start_ns DESC LIMIT 1),
  boot_id = coalesce(boot_id, (SELECT b.boot_id FROM temp.boots b WHERE b.start_ns <= events.time_ns
                               ORDER BY b.start_ns DESC LIMIT 1))
WHERE bundle_id = :bundle AND boot_offset IS NULL;
)sql";

// What an entry placed through its boot-relative stamp has.
constexpr std::string_view kHasBootRelativeStamp = "j.source_monotonic_us IS NOT NULL";

// A kernel line placed through its boot-relative stamp is a guess, whether
// or not it marks a milestone (event_id is set where it does).
std::string KernelPlacementWarnings() {
  return "INSERT INTO timeline_warnings (bundle_id, event_id, artifact_id, line, message) "
         "SELECT :bundle, (SELECT e.event_id FROM events e WHERE e.artifact_id = j.artifact_id AND e.line = j.line), "
         "j.artifact_id, j.line, "
         "'kernel line placed at boot start + its boot-relative stamp (the journal stored it later)' "
         "FROM (" + JournalTimelineLines(kHasBootRelativeStamp) + ") j WHERE j.time_source = 'boot_relative';\n";
}

constexpr char kNoBootWarning[] = R"sql(
INSERT INTO timeline_warnings (bundle_id, message)
SELECT :bundle, 'no boot start known: events are not assigned to boots'
WHERE NOT EXISTS (SELECT 1 FROM temp.boots);
)sql";

// The lines that mark a milestone are stored as events of their own.
constexpr std::string_view kHasMilestone = "milestone IS NOT NULL";

// Stores the lines of `lines` that pass `condition` as events of their own.
std::string StoreLines(std::string_view lines, std::string_view condition) {
  return "INSERT INTO events (" + std::string(kTimelineLineColumns) + ") SELECT " + std::string(kTimelineLineColumns) +
         " FROM (" + std::string(lines) + ") WHERE " + std::string(condition) + ";\n";
}

// Runs a script with :bundle bound in every statement.
Status RunScript(Database& db, std::string_view script, int64_t bundle_id) {
  std::string_view rest = script;
  while (true) {
    size_t start = rest.find_first_not_of(" \t\r\n");
    if (start == std::string_view::npos) return Status::Ok();
    rest.remove_prefix(start);
    size_t end = rest.find(";\n");
    std::string_view one = rest.substr(0, end == std::string_view::npos ? rest.size() : end + 1);
    GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(one));
    s.BindNamed(":bundle", bundle_id);
    GPUF_RETURN_IF_ERROR(s.Run());
    if (end == std::string_view::npos) return Status::Ok();
    rest.remove_prefix(end + 2);
  }
}

struct Occurrence {
  int64_t event_id;
  int64_t time_ns;
};

// First and last occurrence of each milestone in one boot.
struct BootMilestones {
  std::map<std::string, Occurrence, std::less<>> first, last;
};

Result<std::map<int64_t, BootMilestones>> ReadMilestones(Database& db, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(Statement s, db.Prepare(
      "SELECT boot_offset, milestone, event_id, time_ns FROM events "
      "WHERE bundle_id = ? AND milestone IS NOT NULL AND boot_offset IS NOT NULL ORDER BY time_ns, event_id"));
  s.Bind(1, bundle_id);
  std::map<int64_t, BootMilestones> boots;
  while (s.Step()) {
    BootMilestones& b = boots[s.ColumnInt(0)];
    Occurrence m{s.ColumnInt(2), s.ColumnInt(3)};
    b.first.emplace(s.ColumnText(1), m);
    b.last[s.ColumnText(1)] = m;
  }
  GPUF_RETURN_IF_ERROR(s.status());
  return boots;
}

struct IntervalSpec {
  std::string_view name;
  std::string_view from;   // milestone, or kPluginStart
  bool from_last = false;  // use the last occurrence instead of the first
  std::string_view to = {};
  bool to_last = false;
};

// Not a milestone of its own: the plugin container's or unit's start, or
// its first line.
constexpr std::string_view kPluginStart = "plugin_start";

constexpr std::string_view M(Milestone m) { return Name(m); }

// The plugin's start is its container's start; failing that, its first log line.
constexpr IntervalSpec kIntervals[] = {
    {.name = "plugin_start_after_persistenced", .from = M(Milestone::kPersistencedStarted), .to = kPluginStart},
    {.name = "plugin_start_after_driver_loaded", .from = M(Milestone::kDriverLoaded), .to = kPluginStart},
    {.name = "plugin_start_after_fabricmanager", .from = M(Milestone::kFabricmanagerStarted), .to = kPluginStart},
    {.name = "plugin_start_after_kubelet", .from = M(Milestone::kKubeletStarted), .to = kPluginStart},
    {.name = "plugin_start_after_boot", .from = M(Milestone::kBoot), .to = kPluginStart},
    {.name = "registration_after_plugin_start", .from = kPluginStart, .to = M(Milestone::kPluginRegistered),
     .to_last = true},
    {.name = "last_daemon_reload_after_plugin_start", .from = kPluginStart, .from_last = true,
     .to = M(Milestone::kDaemonReload), .to_last = true},
    {.name = "last_kubelet_start_after_plugin_registered", .from = M(Milestone::kPluginRegistered), .from_last = true,
     .to = M(Milestone::kKubeletStarted), .to_last = true},
};

std::optional<Occurrence> Pick(const BootMilestones& b, std::string_view name, bool last) {
  const auto& table = last ? b.last : b.first;
  auto it = table.find(name);
  if (it != table.end()) return it->second;
  return std::nullopt;
}

// The plugin's first line in a boot (the first whose boot it is: at or after
// the boot's start, before the next boot's), as an event: the one stored
// for its milestone, or one stored now for the interval to refer to.
class FirstPluginLine {
 public:
  static Result<FirstPluginLine> Prepare(Database& db, int64_t bundle_id) {
    GPUF_ASSIGN_OR_RETURN(Statement find, db.Prepare(
        "SELECT l.artifact_id, l.line, l.time_ns, (SELECT e.event_id FROM events e "
        "WHERE e.artifact_id = l.artifact_id AND e.line = l.line) FROM log_lines l JOIN artifacts a USING (artifact_id) "
        "WHERE a.bundle_id = :bundle AND l.time_ns >= (SELECT start_ns FROM temp.boots WHERE boot_offset = :boot) "
        "AND l.time_ns < coalesce((SELECT min(b.start_ns) FROM temp.boots b WHERE b.start_ns > "
        "(SELECT start_ns FROM temp.boots WHERE boot_offset = :boot)), 9223372036854775807) "
        "ORDER BY l.time_ns, l.rowid LIMIT 1"));
    GPUF_ASSIGN_OR_RETURN(Statement store, db.Prepare(
        StoreLines(kPluginTimelineLines, "artifact_id = :artifact AND line = :line")));
    return FirstPluginLine(db, std::move(find), std::move(store), bundle_id);
  }

  Result<std::optional<Occurrence>> Of(int64_t boot) {
    find_.BindNamed(":bundle", bundle_id_).BindNamed(":boot", boot);
    bool found = find_.Step();
    int64_t artifact = found ? find_.ColumnInt(0) : 0, line = found ? find_.ColumnInt(1) : 0;
    int64_t time_ns = found ? find_.ColumnInt(2) : 0;
    std::optional<int64_t> stored;
    if (found && !find_.ColumnIsNull(3)) stored = find_.ColumnInt(3);
    GPUF_RETURN_IF_ERROR(find_.status());
    find_.Reset();
    if (!found) return std::optional<Occurrence>();
    if (stored) return std::optional<Occurrence>(Occurrence{*stored, time_ns});
    store_.BindNamed(":bundle", bundle_id_).BindNamed(":artifact", artifact).BindNamed(":line", line);
    GPUF_RETURN_IF_ERROR(store_.Run());
    return std::optional<Occurrence>(Occurrence{db_.LastInsertId(), time_ns});
  }

 private:
  FirstPluginLine(Database& db, Statement find, Statement store, int64_t bundle_id)
      : db_(db), find_(std::move(find)), store_(std::move(store)), bundle_id_(bundle_id) {}

  Database& db_;
  Statement find_, store_;
  int64_t bundle_id_;
};

Status BuildIntervals(Database& db, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(auto boots, ReadMilestones(db, bundle_id));
  GPUF_ASSIGN_OR_RETURN(FirstPluginLine first_plugin_line, FirstPluginLine::Prepare(db, bundle_id));
  GPUF_ASSIGN_OR_RETURN(Statement insert, db.Prepare(
      "INSERT INTO intervals (bundle_id, boot_offset, name, from_event_id, to_event_id, seconds) VALUES (?,?,?,?,?,?)"));
  for (auto& [boot, b] : boots) {
    for (bool last : {false, true}) {
      auto& table = last ? b.last : b.first;
      // The plugin's start: its container's, or its unit's where it is a host service.
      auto started = Pick(b, M(Milestone::kPluginContainerStarted), last);
      if (!started) started = Pick(b, M(Milestone::kPluginServiceStarted), last);
      if (!started) {
        GPUF_ASSIGN_OR_RETURN(started, first_plugin_line.Of(boot));
      }
      if (started) table.emplace(kPluginStart, *started);
    }
    for (const auto& spec : kIntervals) {
      auto from = Pick(b, spec.from, spec.from_last);
      auto to = Pick(b, spec.to, spec.to_last);
      if (!from || !to) continue;
      insert.Bind(1, bundle_id).Bind(2, boot).Bind(3, spec.name).Bind(4, from->event_id);
      insert.Bind(5, to->event_id).BindDouble(6, static_cast<double>(to->time_ns - from->time_ns) / 1e9);
      GPUF_RETURN_IF_ERROR(insert.Run());
    }
  }
  return Status::Ok();
}

}  // namespace

Status BuildTimeline(Database& db, int64_t bundle_id, TimelineWarnings warnings) {
  // Boots first: every line is placed through them.
  std::vector<std::string> scripts = {kBoots, kBootFromProcStat, kJournalCopies, kBootEvents,
                                      StoreLines(JournalTimelineLines(MayMarkMilestoneSql()), kHasMilestone),
                                      StoreLines(kPluginTimelineLines, kHasMilestone), kContainerEvents, kSocketEvents,
                                      kClusterEvents, MetricsEvents(), kCollectionEvent, kAssignBoots};
  if (warnings == TimelineWarnings::kBuild) scripts.insert(scripts.end(), {KernelPlacementWarnings(), kNoBootWarning});
  for (const std::string& script : scripts) {
    GPUF_RETURN_IF_ERROR(RunScript(db, script, bundle_id).WithContext("building the timeline"));
  }
  return BuildIntervals(db, bundle_id).WithContext("computing intervals");
}

}  // namespace gpuf
