-- Device access rules of each device-plugin container, from wherever they
-- were captured: cgroup v1 devices.list, the OCI spec, or systemd's DeviceAllow.
-- Example: SELECT * FROM device_cgroup_rules WHERE major = 195 AND access LIKE '%r%';
CREATE TABLE device_cgroup_rules (
  artifact_id   INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance: the artifact this row came from
  container_id  TEXT NOT NULL,  -- full container id
  source        TEXT NOT NULL,    -- 'devices.list' | 'oci_spec' | 'systemd_device_allow'
  line          INTEGER,          -- line in the source artifact when line-based
  allow         INTEGER NOT NULL, -- 1 allow, 0 deny
  type          TEXT,             -- 'a' | 'c' | 'b'; NULL = any
  major         INTEGER,          -- NULL = any ('*')
  minor         INTEGER,          -- NULL = any ('*')
  access        TEXT              -- subset of 'rwm'
);
