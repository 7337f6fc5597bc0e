-- Kubernetes events as kubectl printed them (k8s.events, k8s.pod_text): a row of
-- `kubectl get events`, of the Events table of `kubectl describe`, or of
-- `kubectl get events -o json|yaml`. Text rows carry no time: their age is
-- relative to a moment the text does not give.
-- Example: SELECT reason, count, message FROM k8s_events WHERE type = 'Warning' AND message LIKE '%no runtime for%';
CREATE TABLE k8s_events (
  artifact_id   INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  line          INTEGER NOT NULL,  -- 1-based line of the row in the artifact (its first line)
  object        TEXT,              -- 'pod/nvidia-device-plugin-x' as get events prints it; NULL in describe rows
  type          TEXT,              -- 'Normal' | 'Warning'; NULL when not printed
  reason        TEXT,              -- 'FailedCreatePodSandBox', 'UnexpectedAdmissionError', ...
  age           TEXT,              -- as printed, e.g. '12s (x10 over 2m11s)'; NULL for JSON and YAML
  count         INTEGER,           -- occurrences: 10 for '(x10 over ...)', 1 for a row printed once; NULL unknown
  source        TEXT,              -- the From column: 'kubelet', 'default-scheduler'; NULL when not printed
  last_seen_ns  INTEGER,           -- Unix ns UTC from lastTimestamp or eventTime (JSON, YAML); NULL in text
  message       TEXT NOT NULL      -- the message; lines that continue it are joined with a newline
);
