-- Device access rules of each device-plugin container, from wherever they
-- were captured: cgroup v1 devices.list, the OCI spec, systemd's DeviceAllow,
-- or a cgroup v2 device program run for every NVIDIA minor (c 195:*): a row
-- per minor it lets through, one row (minor NULL) when it treats all alike,
-- allow 0 when it lets none through. A container's programs must all allow.
-- Example: SELECT * FROM device_cgroup_rules WHERE major = 195 AND access LIKE '%r%';
CREATE TABLE device_cgroup_rules (
  artifact_id   INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance: the artifact this row came from
  container_id  TEXT NOT NULL,  -- full container id
  source        TEXT NOT NULL,    -- 'devices.list' | 'oci_spec' | 'systemd_device_allow' | 'bpf_program'
  line          INTEGER,          -- line in the source artifact when line-based
  allow         INTEGER NOT NULL, -- 1 allow, 0 deny
  type          TEXT,             -- 'a' | 'c' | 'b'; NULL = any
  major         INTEGER,          -- NULL = any ('*')
  minor         INTEGER,          -- NULL = any ('*')
  access        TEXT              -- subset of 'rwm'
);
