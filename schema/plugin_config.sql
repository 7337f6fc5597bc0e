-- Device-plugin settings that decide how failures show: from the plugin's
-- "Running with config:" dump (in its pod log, or in its journal where it runs
-- as a host service), its container environment or its arguments.
-- Example: SELECT container_id, key, value, source FROM plugin_config WHERE key = 'failOnInitError';
CREATE TABLE plugin_config (
  artifact_id   INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance: the artifact this row came from
  container_id  TEXT,            -- NULL when the source is not tied to one container (a static pod manifest, a unit)
  key           TEXT NOT NULL,   -- 'failOnInitError' | 'migStrategy' | 'deviceListStrategy' | 'deviceIDStrategy' |
                                 -- 'passDeviceSpecs' | 'nvidiaDriverRoot' | 'resource' | 'migMonitorDevices'
  value         TEXT NOT NULL,   -- as written ('false', 'mixed', '["envvar"]')
  source        TEXT NOT NULL,   -- 'config_dump' | 'env' | 'args'
  line          INTEGER          -- line of the dump or entry, when line-based
);
