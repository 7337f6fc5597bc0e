-- /dev/char/<major>:<minor> symlinks. systemd resolves DeviceAllow= rules
-- through them; NVIDIA devices without one lose access on daemon-reload.
-- Example: SELECT name, target FROM char_links WHERE major = 195;
CREATE TABLE char_links (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- dev.char_links
  line         INTEGER NOT NULL,  -- 1-based line in the artifact
  name         TEXT NOT NULL,     -- '195:0'
  major        INTEGER,           -- parsed from the name, NULL when not 'M:N'
  minor        INTEGER,  -- device minor number
  target       TEXT,              -- link target as written, e.g. '../nvidia0'; NULL if not a link
  mtime_ns     INTEGER NOT NULL  -- modification time, Unix ns UTC
);
