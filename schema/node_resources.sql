-- Extended resources from the Node object (k8s.node: kubectl get node -o json), or
-- from kubectl's text of it (k8s.node_text: describe node, -o yaml, a jq part).
-- Example: SELECT field, quantity FROM node_resources WHERE resource = 'nvidia.com/gpu';
CREATE TABLE node_resources (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  field        TEXT NOT NULL,     -- 'capacity' | 'allocatable'
  resource     TEXT NOT NULL,     -- e.g. 'nvidia.com/gpu'
  quantity     TEXT NOT NULL      -- as the API printed it, e.g. '8'
);
