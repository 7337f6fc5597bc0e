-- Character-device majors from /proc/devices. nvidia-uvm and nvidia-caps
-- majors are dynamic: device-cgroup rules must be read against these.
-- Example: SELECT name, major FROM char_device_majors WHERE name LIKE 'nvidia%';
CREATE TABLE char_device_majors (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance: kernel.devices
  name         TEXT NOT NULL,     -- 'nvidia-frontend', 'nvidia-uvm', 'nvidia-caps'
  major        INTEGER NOT NULL   -- e.g. 195, 508
);
