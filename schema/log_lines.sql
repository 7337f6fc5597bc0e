-- Lines of the device plugin's own logs (pod log files, crictl logs, and the
-- journal of the plugin run as a host service) with the CRI wrapper and the
-- klog or Go-log header taken apart. Times are UTC ns.
-- Example: SELECT time_ns, severity, message FROM log_lines WHERE message LIKE 'Failed to initialize NVML%';
CREATE TABLE log_lines (
  artifact_id   INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- plugin.log, plugin.crictl_logs or journal.nvidia_device_plugin
  container_id  TEXT,            -- when known
  line          INTEGER NOT NULL,  -- first line of the record in the artifact
  time_ns       INTEGER,         -- best time: the CRI timestamp, else the inner header's
  stream        TEXT,            -- 'stdout' | 'stderr'
  severity      TEXT,            -- klog letter I W E F; NULL for Go-log and plain lines
  source_file   TEXT,            -- klog 'main.go:256'
  event         TEXT,            -- device-plugin event kind (plugin_log.h), NULL when unclassified
  message       TEXT NOT NULL    -- the message without headers
);
CREATE INDEX log_lines_by_time ON log_lines(time_ns);
-- Rules select the few classified records (an NVML failure, a registration) out of every line.
CREATE INDEX log_lines_by_event ON log_lines(event) WHERE event IS NOT NULL;
