#include "analyzer/timeline.h"

#include <map>
#include <optional>
#include <string>
#include <vector>

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

constexpr char kBootEvents[] = R"sql(
INSERT INTO events (bundle_id, time_ns, precision_ns, timestamp_desc, time_source, source, boot_id, boot_offset,
                    milestone, message)
SELECT :bundle, start_ns, 1000000, 'Boot', CASE WHEN boot_id IS NULL THEN 'explicit_utc' ELSE 'boot_relative' END,
       'host', boot_id, boot_offset, $milestone(boot), 'boot ' || coalesce(boot_id, 'at capture (/proc/stat btime)')
FROM temp.boots;
)sql";

// Journal entries, once each: PID 1's lines about a unit are in both the
// systemd slice and the unit's own slice. Of the copies of one entry (same
// boot, time and text) the one first in the bundle is kept; finding the
// others through journal_by_time costs an index probe a row, where grouping
// every row by its text sorted the whole journal.
constexpr char kJournalEvents[] = R"sql(
INSERT INTO events (bundle_id, artifact_id, line, time_ns, precision_ns, timestamp_desc, time_source, source, boot_id,
                    boot_offset, milestone, message)
SELECT :bundle, artifact_id, line,
       CASE WHEN source_monotonic_us IS NOT NULL AND boot_start IS NOT NULL
            THEN boot_start + source_monotonic_us * 1000 ELSE realtime_us * 1000 END,
       1000,
       CASE event WHEN 'unit_started' THEN 'Unit Started' WHEN 'unit_stopped' THEN 'Unit Stopped'
                  WHEN 'unit_failed' THEN 'Unit Failed' ELSE 'Log Line' END,
       CASE WHEN source_monotonic_us IS NOT NULL AND boot_start IS NOT NULL THEN 'boot_relative' ELSE 'explicit_utc' END,
       CASE WHEN pid = 1 THEN 'systemd' WHEN transport = 'kernel' THEN 'kernel'
            WHEN name = $artifact(host.kubelet_log) THEN 'kubelet'
            ELSE replace(substr(name, 9), '_', '-') END,
       boot_id, boot_offset,
       CASE
         WHEN transport = 'kernel' AND message LIKE 'NVRM: loading NVIDIA UNIX%' THEN $milestone(driver_loaded)
         WHEN transport = 'kernel' AND message LIKE '%NVRM: Xid%' THEN $milestone(xid)
         WHEN event = 'unit_started' AND event_subject LIKE 'nvidia-persistenced%'
              THEN $milestone(persistenced_started)
         WHEN event = 'unit_started' AND event_subject LIKE 'nvidia-fabricmanager%'
              THEN $milestone(fabricmanager_started)
         WHEN event = 'unit_started' AND event_subject LIKE 'containerd%' THEN $milestone(containerd_started)
         WHEN event = 'unit_started' AND event_subject LIKE 'kubelet%' THEN $milestone(kubelet_started)
         -- A kubelet no unit starts (RKE2's, logging to its own file): its first line is its start.
         WHEN event = 'kubelet_starting' AND NOT EXISTS (
                SELECT 1 FROM journal_entries u JOIN artifacts ua USING (artifact_id)
                WHERE ua.bundle_id = :bundle AND u.event = 'unit_started' AND u.event_subject LIKE 'kubelet%')
              THEN $milestone(kubelet_started)
         WHEN event = 'unit_started' AND event_subject = 'nvidia-k8s-device-plugin.service'
              THEN $milestone(plugin_service_started)
         WHEN event IN ('daemon_reload', 'daemon_reloading') THEN $milestone(daemon_reload)
         WHEN event = 'registration_request' THEN $milestone(kubelet_registration_received)
         WHEN event = 'list_and_watch_ended' THEN $milestone(kubelet_list_and_watch_ended)
       END,
       message
FROM (SELECT j.artifact_id, j.line, j.realtime_us, j.source_monotonic_us, j.pid, j.transport, j.boot_id,
             j.boot_offset, j.event, j.event_subject, j.message, a.name,
             (SELECT b.start_ns FROM temp.boots b WHERE b.boot_id = j.boot_id) AS boot_start
      FROM journal_entries j JOIN artifacts a USING (artifact_id)
      WHERE a.bundle_id = :bundle AND j.realtime_us IS NOT NULL
        -- The plugin's own lines in its unit's journal are placed from log_lines, while
        -- PID 1's lines about the unit stay journal lines.
        AND NOT (a.name = $artifact(journal.nvidia_device_plugin) AND j.pid IS NOT 1 AND j.identifier IS NOT 'systemd')
        AND NOT EXISTS (SELECT 1 FROM journal_entries d
                        WHERE d.realtime_us = j.realtime_us AND d.boot_id IS j.boot_id AND d.message = j.message
                          AND (d.artifact_id, d.line) < (j.artifact_id, j.line)
                          AND d.artifact_id IN (SELECT artifact_id FROM artifacts WHERE bundle_id = :bundle)));
)sql";

// Plugin lines know no boot: each gets the one it falls in as it is written
// (an UPDATE afterwards would rewrite every row).
constexpr char kPluginLogEvents[] = R"sql(
INSERT INTO events (bundle_id, artifact_id, line, time_ns, precision_ns, timestamp_desc, time_source, source,
                    container_id, boot_offset, boot_id, milestone, message)
SELECT :bundle, l.artifact_id, l.line, l.time_ns, 1, 'Log Line', 'explicit_offset', 'plugin', l.container_id,
       (SELECT b.boot_offset FROM temp.boots b WHERE b.start_ns <= l.time_ns ORDER BY b.start_ns DESC LIMIT 1),
       (SELECT b.boot_id FROM temp.boots b WHERE b.start_ns <= l.time_ns ORDER BY b.start_ns DESC LIMIT 1),
       CASE l.event WHEN 'nvml_init_failed' THEN $milestone(plugin_nvml_init_failed)
                    WHEN 'serving' THEN $milestone(plugin_serving)
                    WHEN 'registered' THEN $milestone(plugin_registered)
                    WHEN 'kubelet_socket_created' THEN $milestone(plugin_kubelet_restart_seen)
                    WHEN 'xid_critical' THEN $milestone(xid)
                    WHEN 'device_unhealthy' THEN $milestone(device_unhealthy)
                    WHEN 'all_devices_unhealthy' THEN $milestone(device_unhealthy) END,
       l.message
FROM log_lines l JOIN artifacts a USING (artifact_id)
WHERE a.bundle_id = :bundle AND l.time_ns IS NOT NULL;
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

// Events whose source knows no boot get the boot they fall in.
constexpr char kAssignBoots[] = R"sql(
UPDATE events SET
  boot_offset = (SELECT b.boot_offset FROM temp.boots b WHERE b.start_ns <= events.time_ns
                 ORDER BY b.start_ns DESC LIMIT 1),
  boot_id = coalesce(boot_id, (SELECT b.boot_id FROM temp.boots b WHERE b.start_ns <= events.time_ns
                               ORDER BY b.start_ns DESC LIMIT 1))
WHERE bundle_id = :bundle AND boot_offset IS NULL;
)sql";

constexpr char kWarnings[] = R"sql(
INSERT INTO timeline_warnings (bundle_id, event_id, artifact_id, line, message)
SELECT :bundle, event_id, artifact_id, line,
       'kernel line placed at boot start + its boot-relative stamp (the journal stored it later)'
FROM events WHERE bundle_id = :bundle AND time_source = 'boot_relative' AND milestone IS NOT $milestone(boot);
INSERT INTO timeline_warnings (bundle_id, message)
SELECT :bundle, 'no boot start known: events are not assigned to boots'
WHERE NOT EXISTS (SELECT 1 FROM temp.boots);
)sql";

// Runs a script with :bundle bound in every statement.
Status RunScript(Database& db, const char* script, int64_t bundle_id) {
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
  std::string_view from;  // milestone, or kPluginStart
  bool from_last;         // use the last occurrence instead of the first
  std::string_view to;
  bool to_last;
};

// Not a milestone of its own: the plugin container's or unit's start, or
// its first line.
constexpr std::string_view kPluginStart = "plugin_start";

constexpr std::string_view M(Milestone m) { return Name(m); }

// The plugin's start is its container's start; failing that, its first log line.
constexpr IntervalSpec kIntervals[] = {
    {"plugin_start_after_persistenced", M(Milestone::kPersistencedStarted), false, kPluginStart, false},
    {"plugin_start_after_driver_loaded", M(Milestone::kDriverLoaded), false, kPluginStart, false},
    {"plugin_start_after_fabricmanager", M(Milestone::kFabricmanagerStarted), false, kPluginStart, false},
    {"plugin_start_after_kubelet", M(Milestone::kKubeletStarted), false, kPluginStart, false},
    {"plugin_start_after_boot", M(Milestone::kBoot), false, kPluginStart, false},
    {"registration_after_plugin_start", kPluginStart, false, M(Milestone::kPluginRegistered), true},
    {"last_daemon_reload_after_plugin_start", kPluginStart, true, M(Milestone::kDaemonReload), true},
    {"last_kubelet_start_after_plugin_registered", M(Milestone::kPluginRegistered), true, M(Milestone::kKubeletStarted),
     true},
};

std::optional<Occurrence> Pick(const BootMilestones& b, std::string_view name, bool last) {
  const auto& table = last ? b.last : b.first;
  auto it = table.find(name);
  if (it != table.end()) return it->second;
  return std::nullopt;
}

Status BuildIntervals(Database& db, int64_t bundle_id) {
  GPUF_ASSIGN_OR_RETURN(auto boots, ReadMilestones(db, bundle_id));
  GPUF_ASSIGN_OR_RETURN(Statement first_plugin_line, db.Prepare(
      "SELECT event_id, time_ns FROM events WHERE bundle_id = ? AND boot_offset = ? AND source = 'plugin' "
      "ORDER BY time_ns LIMIT 1"));
  GPUF_ASSIGN_OR_RETURN(Statement insert, db.Prepare(
      "INSERT INTO intervals (bundle_id, boot_offset, name, from_event_id, to_event_id, seconds) VALUES (?,?,?,?,?,?)"));
  for (auto& [boot, b] : boots) {
    for (bool last : {false, true}) {
      auto& table = last ? b.last : b.first;
      // The plugin's start: its container's, or its unit's where it is a host service.
      auto started = Pick(b, M(Milestone::kPluginContainerStarted), last);
      if (!started) started = Pick(b, M(Milestone::kPluginServiceStarted), last);
      if (started) {
        table.emplace(kPluginStart, *started);
        continue;
      }
      first_plugin_line.Bind(1, bundle_id).Bind(2, boot);
      if (first_plugin_line.Step()) {
        table.emplace(kPluginStart, Occurrence{first_plugin_line.ColumnInt(0), first_plugin_line.ColumnInt(1)});
      }
      GPUF_RETURN_IF_ERROR(first_plugin_line.status());
      first_plugin_line.Reset();
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

Status BuildTimeline(Database& db, int64_t bundle_id) {
  for (const char* script : {kBoots, kBootFromProcStat, kBootEvents, kJournalEvents, kPluginLogEvents,
                             kContainerEvents, kSocketEvents, kCollectionEvent, kAssignBoots, kWarnings}) {
    GPUF_RETURN_IF_ERROR(RunScript(db, script, bundle_id).WithContext("building the timeline"));
  }
  return BuildIntervals(db, bundle_id).WithContext("computing intervals");
}

}  // namespace gpuf
