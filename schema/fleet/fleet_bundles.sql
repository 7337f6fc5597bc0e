-- One row per bundle given to `gpuforensics analyze --db FLEET B1 B2 ...`,
-- loaded or not. Every other fleet_* table points here. A node collected
-- twice has two rows; summaries count distinct node_name.
-- Example: SELECT node_name, datetime(collected_at_ns / 1e9, 'unixepoch') FROM fleet_bundles WHERE load_error IS NULL;
CREATE TABLE fleet_bundles (
  fleet_bundle_id  INTEGER PRIMARY KEY,  -- position on the command line, from 1
  path             TEXT NOT NULL,        -- bundle file as given to analyze
  load_error       TEXT,                 -- why it could not be analyzed; NULL when it was
  node_name        TEXT,                 -- node it was collected on; NULL when unknown or not loaded
  boot_id          TEXT,                 -- boot id at capture; NULL when unknown or not loaded
  collected_at_ns  INTEGER,              -- collection start, Unix ns UTC; NULL when not loaded
  complete         INTEGER,              -- 1 when every planned probe ran; NULL when not loaded
  tool_version     TEXT,                 -- gpuforensics version that collected it; NULL when not loaded
  integrity_issues INTEGER               -- members missing or not matching the manifest; NULL when not loaded
);
