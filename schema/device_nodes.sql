-- NVIDIA device nodes under /dev (listed with lstat, never opened).
-- Example: SELECT path, major, minor, printf('%o', mode) FROM device_nodes ORDER BY path;
CREATE TABLE device_nodes (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- dev.nvidia_nodes
  line         INTEGER NOT NULL,  -- 1-based line in the artifact
  path         TEXT NOT NULL,     -- '/dev/nvidia0', '/dev/nvidia-caps/nvidia-cap1'
  type         TEXT NOT NULL,     -- 'c' for a character device; other letters as in listings
  major        INTEGER,           -- NULL unless a device
  minor        INTEGER,  -- device minor number
  mode         INTEGER NOT NULL,  -- permission bits
  uid          INTEGER NOT NULL,  -- owner uid
  gid          INTEGER NOT NULL,  -- owner gid
  mtime_ns     INTEGER NOT NULL   -- Unix ns UTC (device nodes are made at module load)
);
