-- The timeline's marks, built after loading, with how each time was
-- obtained: the boots, the plugin containers' starts and ends, the
-- device-plugin socket files, the collection, the Node's condition changes
-- and the Kubernetes events with a time (the cluster's record), the drops of
-- the Node's GPU resources and the alerts in the metrics store, and every journal entry or
-- plugin log line that marks a step of the GPU chain (see `milestone`);
-- where a boot shows no start of the plugin's container or unit, also the
-- plugin's first line of that boot, which its intervals start from.
-- The other lines stay in journal_entries and log_lines, not copied:
-- `gpuforensics timeline --all` merges them in, placed and given their boot
-- the same way (analyzer/timeline/timeline_lines.cc).
-- Example: SELECT datetime(time_ns / 1e9, 'unixepoch'), milestone, message FROM events WHERE milestone IS NOT NULL ORDER BY time_ns;
CREATE TABLE events (
  event_id        INTEGER PRIMARY KEY,  -- row id
  bundle_id       INTEGER NOT NULL REFERENCES bundles(bundle_id),  -- the bundle
  artifact_id     INTEGER REFERENCES artifacts(artifact_id),  -- provenance; NULL for the collection itself
  line            INTEGER,         -- line in the artifact, when line-based
  time_ns         INTEGER NOT NULL,  -- Unix ns UTC
  precision_ns    INTEGER NOT NULL,  -- how exact the time is: 1 (ns), 1000 (µs journal), 1000000000 (seconds)
  timestamp_desc  TEXT NOT NULL,   -- what the time means: 'Log Line', 'Unit Started', 'Container Created',
                                   -- 'Container Started', 'Container Finished', 'Socket Modified', 'Boot', 'Collection'
  time_source     TEXT NOT NULL,   -- how it was obtained: 'explicit_utc' | 'explicit_offset' | 'local_zone_assumed' |
                                   -- 'year_inferred' | 'boot_relative' | 'file_mtime'
  source          TEXT NOT NULL,   -- 'kernel' | 'systemd' | 'kubelet' | 'containerd' | 'nvidia-persistenced' |
                                   -- 'nvidia-fabricmanager' | 'plugin' | 'runtime' | 'kubelet-dir' | 'host' | 'collector' |
                                   -- 'cluster' (the API server's record: Node conditions, events) |
                                   -- 'metrics' (the metrics store's record: the GPU count's drops, alerts)
  boot_id         TEXT,            -- 32 hex without dashes, when known
  boot_offset     INTEGER,         -- 0 = the boot at capture, -1 the one before; NULL when unknown
  container_id    TEXT,            -- the container the event is about, when known
  milestone       TEXT CHECK (milestone IN (  -- NULL, or the step of the GPU chain it marks (Milestone);
                                            -- plugin_service_started is the plugin's unit, where it is a host service
                   'driver_loaded', 'persistenced_started', 'fabricmanager_started', 'containerd_started',
                   'kubelet_started', 'kubelet_sock_created', 'plugin_container_created',
                   'plugin_container_started', 'plugin_container_finished', 'plugin_service_started',
                   'plugin_nvml_init_failed', 'plugin_serving', 'plugin_registered',
                   'plugin_kubelet_restart_seen', 'kubelet_registration_received',
                   'kubelet_list_and_watch_ended', 'daemon_reload', 'xid', 'device_unhealthy',
                   'node_condition_changed', 'cluster_event', 'metric_dropped', 'alert_firing',
                   'alert_resolved', 'boot', 'collection')),
  message         TEXT NOT NULL    -- the line or a description of the event
);
CREATE INDEX events_by_time ON events(bundle_id, time_ns);
-- The chain verdict, the intervals and the rules look up the few milestones among every log line.
CREATE INDEX events_by_milestone ON events(bundle_id, milestone, time_ns) WHERE milestone IS NOT NULL;
-- Merging the lines in asks, for each, whether it is stored here already.
CREATE INDEX events_by_line ON events(artifact_id, line) WHERE line IS NOT NULL;
