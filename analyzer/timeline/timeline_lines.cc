#include "analyzer/timeline/timeline_lines.h"

#include <algorithm>

#include "formats/journal_event.h"
#include "formats/journal_json.h"

namespace gpuf {

namespace {

// What the kernel lines that mark a milestone have in common (the driver's
// banner and its Xid reports), matched as SQL's LIKE matches: ASCII case
// ignored.
constexpr std::string_view kDriverPrefix = "NVRM: ";

bool ContainsIgnoringCase(std::string_view text, std::string_view part) {
  auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; };
  return std::search(text.begin(), text.end(), part.begin(), part.end(),
                     [&](char a, char b) { return lower(a) == lower(b); }) != text.end();
}

}  // namespace

const std::string_view kMilestoneJournalEvents[] = {"unit_started",         "kubelet_starting",
                                                    "daemon_reload",        "daemon_reloading",
                                                    "registration_request", "list_and_watch_ended"};

std::string MayMarkMilestoneSql() {
  std::string events;
  for (std::string_view kind : kMilestoneJournalEvents) events += (events.empty() ? "'" : ", '") + std::string(kind) + "'";
  return "(j.event IN (" + events + ") OR (j.transport = 'kernel' AND j.message LIKE '%" + std::string(kDriverPrefix) +
         "%'))";
}

bool MayMarkMilestone(const JournalEntry& entry, const JournalEvent& event) {
  if (entry.transport == "kernel" && ContainsIgnoringCase(entry.message, kDriverPrefix)) return true;
  return std::find(std::begin(kMilestoneJournalEvents), std::end(kMilestoneJournalEvents), event.kind) !=
         std::end(kMilestoneJournalEvents);
}

const std::string_view kTimelineLineColumns =
    "bundle_id, artifact_id, line, time_ns, precision_ns, timestamp_desc, time_source, source, boot_id, boot_offset, "
    "container_id, milestone, message";

// A kernel line is placed at its boot's start plus its boot-relative stamp
// (journald may have stored it much later). An entry of no known boot (a
// kubelet log file read as entries) gets the boot it falls in. Of the copies
// of one entry (same boot, time and text) the one first in the bundle is
// kept: the others are in journal_copies.
std::string JournalTimelineLines(std::string_view entries) {
  return R"sql(
SELECT bundle_id, artifact_id, line, time_ns, 1000 AS precision_ns, timestamp_desc, time_source, source,
       CASE WHEN boot_offset IS NOT NULL THEN boot_id
            ELSE coalesce(boot_id, (SELECT b.boot_id FROM events b WHERE b.bundle_id = :bundle
                                      AND b.milestone = $milestone(boot) AND b.time_ns <= t.time_ns
                                    ORDER BY b.time_ns DESC LIMIT 1)) END AS boot_id,
       coalesce(boot_offset, (SELECT b.boot_offset FROM events b WHERE b.bundle_id = :bundle
                                AND b.milestone = $milestone(boot) AND b.time_ns <= t.time_ns
                              ORDER BY b.time_ns DESC LIMIT 1)) AS boot_offset,
       NULL AS container_id, milestone, message
FROM (SELECT :bundle AS bundle_id, j.artifact_id, j.line,
             CASE WHEN j.source_monotonic_us IS NOT NULL AND boot_start IS NOT NULL
                  THEN boot_start + j.source_monotonic_us * 1000 ELSE j.realtime_us * 1000 END AS time_ns,
             CASE j.event WHEN 'unit_started' THEN 'Unit Started' WHEN 'unit_stopped' THEN 'Unit Stopped'
                          WHEN 'unit_failed' THEN 'Unit Failed' ELSE 'Log Line' END AS timestamp_desc,
             CASE WHEN j.source_monotonic_us IS NOT NULL AND boot_start IS NOT NULL
                  THEN 'boot_relative' ELSE 'explicit_utc' END AS time_source,
             CASE WHEN j.pid = 1 THEN 'systemd' WHEN j.transport = 'kernel' THEN 'kernel'
                  WHEN a.name = $artifact(host.kubelet_log) THEN 'kubelet'
                  ELSE replace(substr(a.name, 9), '_', '-') END AS source,
             j.boot_id, j.boot_offset,
             -- Each event named here is one of kMilestoneJournalEvents, and each kernel line has kDriverPrefix.
             CASE
               WHEN j.transport = 'kernel' AND j.message LIKE 'NVRM: loading NVIDIA UNIX%' THEN $milestone(driver_loaded)
               WHEN j.transport = 'kernel' AND j.message LIKE '%NVRM: Xid%' THEN $milestone(xid)
               WHEN j.event = 'unit_started' AND j.event_subject LIKE 'nvidia-persistenced%'
                    THEN $milestone(persistenced_started)
               WHEN j.event = 'unit_started' AND j.event_subject LIKE 'nvidia-fabricmanager%'
                    THEN $milestone(fabricmanager_started)
               WHEN j.event = 'unit_started' AND j.event_subject LIKE 'containerd%' THEN $milestone(containerd_started)
               WHEN j.event = 'unit_started' AND j.event_subject LIKE 'kubelet%' THEN $milestone(kubelet_started)
               -- A kubelet no unit starts (RKE2's, logging to its own file): its first line is its start.
               WHEN j.event = 'kubelet_starting' AND NOT EXISTS (
                      SELECT 1 FROM journal_entries u JOIN artifacts ua USING (artifact_id)
                      WHERE ua.bundle_id = :bundle AND u.event = 'unit_started' AND u.event_subject LIKE 'kubelet%')
                    THEN $milestone(kubelet_started)
               WHEN j.event = 'unit_started' AND j.event_subject = 'nvidia-k8s-device-plugin.service'
                    THEN $milestone(plugin_service_started)
               WHEN j.event IN ('daemon_reload', 'daemon_reloading') THEN $milestone(daemon_reload)
               WHEN j.event = 'registration_request' THEN $milestone(kubelet_registration_received)
               WHEN j.event = 'list_and_watch_ended' THEN $milestone(kubelet_list_and_watch_ended)
             END AS milestone,
             j.message
      FROM (SELECT j.*, (SELECT b.time_ns FROM events b WHERE b.bundle_id = :bundle AND b.milestone = $milestone(boot)
                                                          AND b.boot_id = j.boot_id) AS boot_start
            FROM journal_entries j WHERE )sql" + std::string(entries) + R"sql() j
      JOIN artifacts a USING (artifact_id)
      WHERE a.bundle_id = :bundle AND j.realtime_us IS NOT NULL
        -- The plugin's own lines in its unit's journal are placed from log_lines, while
        -- PID 1's lines about the unit stay journal lines.
        AND NOT (a.name = $artifact(journal.nvidia_device_plugin) AND j.pid IS NOT 1 AND j.identifier IS NOT 'systemd')
        AND NOT EXISTS (SELECT 1 FROM journal_copies c WHERE c.artifact_id = j.artifact_id AND c.line = j.line)) t
)sql";
}

// Plugin lines know no boot: each gets the one it falls in.
const std::string_view kPluginTimelineLines = R"sql(
SELECT :bundle AS bundle_id, l.artifact_id, l.line, l.time_ns, 1 AS precision_ns, 'Log Line' AS timestamp_desc,
       'explicit_offset' AS time_source, 'plugin' AS source,
       (SELECT b.boot_id FROM events b WHERE b.bundle_id = :bundle AND b.milestone = $milestone(boot)
          AND b.time_ns <= l.time_ns ORDER BY b.time_ns DESC LIMIT 1) AS boot_id,
       (SELECT b.boot_offset FROM events b WHERE b.bundle_id = :bundle AND b.milestone = $milestone(boot)
          AND b.time_ns <= l.time_ns ORDER BY b.time_ns DESC LIMIT 1) AS boot_offset,
       l.container_id,
       CASE l.event WHEN 'nvml_init_failed' THEN $milestone(plugin_nvml_init_failed)
                    WHEN 'serving' THEN $milestone(plugin_serving)
                    WHEN 'registered' THEN $milestone(plugin_registered)
                    WHEN 'kubelet_socket_created' THEN $milestone(plugin_kubelet_restart_seen)
                    WHEN 'xid_critical' THEN $milestone(xid)
                    WHEN 'device_unhealthy' THEN $milestone(device_unhealthy)
                    WHEN 'all_devices_unhealthy' THEN $milestone(device_unhealthy) END AS milestone,
       l.message
FROM log_lines l JOIN artifacts a USING (artifact_id)
WHERE a.bundle_id = :bundle AND l.time_ns IS NOT NULL
)sql";

}  // namespace gpuf
