-- Containers the runtime reported (crictl ps -a, crictl inspect, ctr info),
-- one row per container; the device-plugin ones carry is_plugin = 1.
-- Example: SELECT id, name, state, started_at_ns FROM containers WHERE is_plugin ORDER BY created_at_ns;
CREATE TABLE containers (
  bundle_id        INTEGER NOT NULL REFERENCES bundles(bundle_id),  -- the bundle; (bundle_id, id) is unique
  artifact_id      INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- the artifact that first named it
  id               TEXT NOT NULL,     -- full 64-hex id (ctr: the container id)
  name             TEXT,              -- container name
  pod_name         TEXT,  -- Kubernetes pod name (label io.kubernetes.pod.name)
  pod_namespace    TEXT,  -- pod namespace
  pod_uid          TEXT,  -- pod UID (dashed)
  image            TEXT,              -- image reference as the runtime reports it
  state            TEXT,              -- CONTAINER_RUNNING | CONTAINER_EXITED | CONTAINER_CREATED | CONTAINER_UNKNOWN
  attempt          INTEGER,           -- restart attempt of this container name in its pod
  created_at_ns    INTEGER,           -- Unix ns UTC
  started_at_ns    INTEGER,           -- NULL when never started
  finished_at_ns   INTEGER,           -- NULL while running
  exit_code        INTEGER,           -- NULL unless exited
  privileged       INTEGER,           -- 1 privileged (immune to device-cgroup loss), 0 not, NULL unknown
  pid              INTEGER,           -- host pid of the init process, NULL when not running
  cgroups_path     TEXT,              -- OCI linux.cgroupsPath
  log_path         TEXT,              -- CRI log file, e.g. /var/log/pods/<ns>_<pod>_<uid>/<name>/0.log
  legacy_nvidia_hook INTEGER,         -- 1 when a prestart hook injects GPUs outside the OCI spec (legacy mode)
  spec_nvidia_devices INTEGER,        -- /dev/nvidia* entries in the OCI spec (CDI, PASS_DEVICE_SPECS)
  is_plugin        INTEGER NOT NULL,  -- 1 when it runs the device plugin (its command, image or name; common/plugin_roles.h): 0 for the sidecars, init containers and validators beside it
  UNIQUE (bundle_id, id)
);
