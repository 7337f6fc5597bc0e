-- What kubectl said about pods (k8s.pod_text, k8s.pods): the pod's Status, Reason
-- and Message and each container's State and Last State from `kubectl describe
-- pod` or `kubectl get pod -o yaml|json`, and the rows of `kubectl get pods`.
-- Example: SELECT pod, container, reason, message FROM k8s_pod_states WHERE which = 'last_state' AND reason = 'StartError';
CREATE TABLE k8s_pod_states (
  artifact_id     INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  line            INTEGER NOT NULL,  -- 1-based line where the block or row starts (0 when not known)
  pod             TEXT,              -- pod name; NULL when the saved part does not name it
  namespace       TEXT,              -- NULL when not printed
  container       TEXT,              -- NULL for the pod itself or when the part does not name the container
  init_container  INTEGER,           -- 1 init container, 0 container, NULL unknown or the pod itself
  which           TEXT NOT NULL,     -- 'pod' (Status/Reason/Message) | 'state' | 'last_state' | 'get' (a get pods row)
  state           TEXT,              -- 'Waiting' | 'Running' | 'Terminated', the pod's phase, or get's STATUS as printed
  reason          TEXT,              -- 'CrashLoopBackOff', 'StartError', 'UnexpectedAdmissionError', ...
  exit_code       INTEGER,           -- a terminated container's exit code; NULL otherwise
  message         TEXT,              -- lines that continue it (a hook's stderr) are joined with a newline
  restart_count   INTEGER,           -- the container's Restart Count, or get's RESTARTS; NULL unknown
  ready           TEXT               -- get pods READY, e.g. '0/1'; NULL otherwise
);
