-- What `nvidia-smi -L` saw inside each device-plugin container: one row per
-- GPU listed, or one row with gpu_index NULL carrying the error outcome.
-- Example: SELECT container_id, outcome, count(uuid) FROM container_gpu_views GROUP BY container_id;
CREATE TABLE container_gpu_views (
  artifact_id   INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- plugin.nvidia_smi_list
  container_id  TEXT NOT NULL,  -- full container id
  outcome       TEXT NOT NULL,  -- ok | nvml_unknown_error | driver_not_loaded | no_devices | version_mismatch |
                                -- insufficient_permissions | device_handle_error | gpu_lost | executable_missing | other | not_run
  detail        TEXT,           -- the first meaningful line of the error, NULL when ok
  line          INTEGER,        -- line of the GPU in stdout, NULL for outcome rows
  gpu_index     INTEGER,        -- index inside the container (renumbered from 0)
  name          TEXT,  -- as printed
  uuid          TEXT  -- 'GPU-...'
);
