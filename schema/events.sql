-- The merged timeline, filled by the timeline stage: one row per timestamped
-- event from any source, with how its time was obtained.
-- Example: SELECT datetime(time_ns / 1e9, 'unixepoch'), timestamp_desc, message FROM events ORDER BY time_ns;
CREATE TABLE events (
  event_id        INTEGER PRIMARY KEY,  -- row id
  artifact_id     INTEGER REFERENCES artifacts(artifact_id),  -- provenance; NULL for derived events
  line            INTEGER,         -- line in the artifact
  time_ns         INTEGER NOT NULL,  -- Unix ns UTC
  precision_ns    INTEGER NOT NULL,  -- how exact the time is (1000 for µs journal stamps)
  timestamp_desc  TEXT NOT NULL,   -- what the time means: 'Unit Started', 'Container Started', 'Log Line', ...
  time_source     TEXT NOT NULL,   -- 'explicit_offset' | 'local_zone_assumed' | 'year_inferred' | 'boot_relative' | 'file_mtime'
  boot_id         TEXT,            -- 32 hex, when known
  boot_offset     INTEGER,         -- 0 = the boot at capture, -1 the one before
  milestone       TEXT,            -- named milestone ('persistenced_started', 'plugin_registered', ...), NULL otherwise
  message         TEXT NOT NULL  -- the text
);
