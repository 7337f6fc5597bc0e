-- The Node's conditions from its object (k8s.node: kubectl get node -o json,
-- read by the collector on the node or handed to it by the kubectl plugin):
-- what the kubelet last reported and since when. Each lastTransitionTime is
-- on the timeline as a node_condition_changed event (source 'cluster').
-- Example: SELECT type, status, reason, datetime(last_transition_ns / 1e9, 'unixepoch') FROM node_conditions;
CREATE TABLE node_conditions (
  artifact_id         INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  type                TEXT NOT NULL,  -- 'Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure', ...
  status              TEXT NOT NULL,  -- 'True' | 'False' | 'Unknown' as the API gave it
  reason              TEXT,           -- 'KubeletReady', 'KubeletNotReady', 'NodeStatusUnknown', ...
  message             TEXT,           -- 'kubelet is posting ready status', ...
  last_transition_ns  INTEGER         -- Unix ns UTC of lastTransitionTime; NULL when absent or unreadable
);
