-- Paths from the collector's listings (device nodes, /dev/char links, the
-- kubelet device-plugin directory), one row per path.
CREATE TABLE file_entries (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  line         INTEGER NOT NULL,  -- 1-based line in the listing
  path         TEXT NOT NULL,     -- host path, e.g. '/dev/nvidia0'
  type         TEXT NOT NULL,     -- f d l c b s p ?
  mode         INTEGER NOT NULL,  -- permission bits
  uid          INTEGER NOT NULL,
  gid          INTEGER NOT NULL,
  major        INTEGER,           -- NULL unless a device
  minor        INTEGER,           -- NULL unless a device
  size_bytes   INTEGER NOT NULL,
  mtime_ns     INTEGER NOT NULL,  -- Unix ns UTC
  link_target  TEXT               -- NULL unless a symlink
);
