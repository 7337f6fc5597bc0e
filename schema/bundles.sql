-- One row per bundle loaded into this database.
-- Example: SELECT node_name, datetime(collected_at_ns / 1e9, 'unixepoch') FROM bundles;
CREATE TABLE bundles (
  bundle_id            INTEGER PRIMARY KEY,  -- row id
  path                 TEXT NOT NULL,        -- bundle file as given to analyze
  format_version       INTEGER NOT NULL,     -- manifest format_version
  tool_version         TEXT NOT NULL,        -- gpuforensics version that collected it
  node_name            TEXT,                 -- node the bundle was collected on
  machine_id           TEXT,                 -- /etc/machine-id, NULL when unknown
  boot_id              TEXT,                 -- boot id at capture, dashed as in /proc
  collected_at_ns      INTEGER NOT NULL,     -- collection start, Unix ns UTC
  collection_ended_ns  INTEGER NOT NULL,     -- collection end, Unix ns UTC
  complete             INTEGER NOT NULL,     -- 1 when every planned probe ran
  incomplete_reason    TEXT,                 -- 'interrupted' | 'deadline' when complete = 0
  utc_offset_seconds   INTEGER,              -- collector's local UTC offset at start
  host_root            TEXT,                 -- --root the collector read the host under
  origin_kind          TEXT,                 -- made by import from: 'sosreport' | 'nvidia-bug-report' |
                                             -- 'must-gather' | 'evidence-dir'; NULL when collected
  redacted_by          TEXT                  -- 'collect' (--redact) | 'redact'; NULL when not redacted
);
