-- One row per artifact in the manifest: what ran or was read, and how it ended.
-- Example: SELECT name, instance, status, skip_reason FROM artifacts WHERE status <> 'ok';
CREATE TABLE artifacts (
  artifact_id     INTEGER PRIMARY KEY,  -- row id
  bundle_id       INTEGER NOT NULL REFERENCES bundles(bundle_id),  -- the bundle
  name            TEXT NOT NULL,        -- logical name, e.g. 'host.nvidia_smi_list'
  instance        TEXT NOT NULL,        -- '' or what tells several of one name apart
  kind            TEXT NOT NULL CHECK (kind IN ('command', 'file', 'listing', 'table')),  -- how it is stored
  argv_json       TEXT,                 -- command argv as a JSON array, NULL otherwise
  path            TEXT,                 -- host path(s) read, NULL for commands
  context         TEXT NOT NULL,        -- 'host' | 'container' | 'cluster' (--node-object) | 'unknown' (imported)
  container_id    TEXT,                 -- container the probe ran in or about
  phase           INTEGER,              -- 1 passive .. 4 driver-touching
  started_at_ns   INTEGER NOT NULL,     -- Unix ns UTC
  duration_ns     INTEGER NOT NULL,     -- wall time the probe took
  status          TEXT NOT NULL CHECK (status IN (  -- how the probe ended (common/vocabulary.h ProbeStatus)
                    'ok', 'nonzero_exit', 'signaled', 'timed_out', 'interrupted', 'skipped', 'error')),
  exit_code       INTEGER,              -- NULL unless the command exited
  signal          INTEGER,              -- NULL unless a signal ended it
  timed_out       INTEGER NOT NULL,     -- 1 when the probe hit its deadline
  abandoned       INTEGER NOT NULL,     -- 1 when the process outlived SIGKILL
  truncated       INTEGER NOT NULL,     -- 1 when a cap cut any stream
  skip_reason     TEXT CHECK (skip_reason IN (  -- why, when skipped (SkipReason); NULL otherwise
                    'tool_missing', 'not_found', 'not_regular_file', 'permission_denied', 'not_applicable',
                    'denied_by_policy', 'disabled', 'deadline', 'interrupted')),
  error           TEXT,                 -- detail for skipped or error
  redactions      INTEGER NOT NULL      -- secret values the collector replaced
);
CREATE INDEX artifacts_by_name ON artifacts(name, instance);
