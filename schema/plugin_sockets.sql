-- Entries of /var/lib/kubelet/device-plugins: kubelet.sock is recreated at
-- each kubelet start, a plugin's socket when it starts serving.
-- Example: SELECT name, type, mtime_ns FROM plugin_sockets ORDER BY mtime_ns;
CREATE TABLE plugin_sockets (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- kubelet.device_plugins
  line         INTEGER NOT NULL,  -- 1-based line in the artifact
  name         TEXT NOT NULL,     -- 'kubelet.sock', 'nvidia-gpu.sock', 'kubelet_internal_checkpoint'
  type         TEXT NOT NULL,     -- 's' socket, 'f' file, 'd' directory, ...
  size_bytes   INTEGER NOT NULL,  -- size in bytes
  mtime_ns     INTEGER NOT NULL   -- Unix ns UTC
);
