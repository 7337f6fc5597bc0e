-- How each nvidia-smi run ended, on the host, inside each device-plugin
-- container, or where a saved output does not say, classified from its output
-- (an NVML failure is not the same as nvidia-smi missing from an image).
-- Example: SELECT view, container_id, outcome, message FROM nvidia_smi_runs WHERE outcome <> 'ok';
CREATE TABLE nvidia_smi_runs (
  artifact_id           INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance: the run
  view                  TEXT NOT NULL,   -- 'host' | 'container' | 'unknown' (an output saved where nothing says
                                         -- where it ran: never to be read as the host's)
  container_id          TEXT,            -- for view = 'container', when known
  command               TEXT NOT NULL,   -- '-L' | '-q -x' | '' (no arguments: the table)
  outcome               TEXT NOT NULL,   -- ok | nvml_unknown_error | driver_not_loaded | no_devices | version_mismatch |
                                         -- insufficient_permissions | device_handle_error | gpu_lost |
                                         -- executable_missing | timed_out (stopped at the collector's deadline:
                                         -- a hang) | other | not_run
  message               TEXT,            -- the line that decided the outcome; NULL when ok, but for the
                                         -- warning of a run that worked with one (exit 14: infoROM corrupted)
  nvml_library_version  TEXT,            -- 'NVML library version: 570.195' on a mismatch, else NULL
  handle_errors         INTEGER NOT NULL -- GPUs NVML could not get a handle for
);
