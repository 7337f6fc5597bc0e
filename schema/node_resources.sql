-- Extended resources from the Node object (kubectl get node -o json).
-- Example: SELECT field, quantity FROM node_resources WHERE resource = 'nvidia.com/gpu';
CREATE TABLE node_resources (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  field        TEXT NOT NULL,     -- 'capacity' | 'allocatable'
  resource     TEXT NOT NULL,     -- e.g. 'nvidia.com/gpu'
  quantity     TEXT NOT NULL      -- as the API printed it, e.g. '8'
);
