-- Facts about cgroups: one row with container_id NULL for the host (mode),
-- and rows per device-plugin container (path, systemd device policy).
-- Example: SELECT key, value FROM cgroup_facts WHERE container_id IS NULL;
CREATE TABLE cgroup_facts (
  artifact_id   INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance: the artifact this row came from
  container_id  TEXT,            -- NULL for host-wide facts
  key           TEXT NOT NULL,   -- host: 'mode' (v1 | hybrid | v2), 'statfs', 'v1_devices_controller';
                                 -- container: 'cgroup_path_v2', 'cgroup_path_devices', 'DevicePolicy',
                                 -- 'DeviceAllow' (one row each), 'NeedDaemonReload', 'bpf_device_programs'
  value         TEXT             -- as read
);
