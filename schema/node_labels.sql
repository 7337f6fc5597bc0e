-- The Node's labels as kubectl printed them (k8s.node_text): `kubectl describe node`'s
-- Labels, `kubectl get node -o yaml|json` metadata.labels, or a jq part of it.
-- Example: SELECT key, value FROM node_labels WHERE key LIKE 'nvidia.com/%';
CREATE TABLE node_labels (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  line         INTEGER NOT NULL,  -- 1-based line in the artifact
  key          TEXT NOT NULL,     -- e.g. 'nvidia.com/gpu.product'
  value        TEXT NOT NULL      -- as printed, '' for a label without value
);
