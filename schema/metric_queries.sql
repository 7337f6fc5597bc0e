-- What `kubectl gpuforensics collect --metrics` asked the metrics store
-- (k8s.metrics, one row per query) and whether it answered: a query that
-- failed leaves its part of steps 10 to 12 of the chain unknown, never
-- failed. Times are on the node's clock where the store's could be
-- measured against it (clock_offset_ns).
-- Example: SELECT name, coalesce(error, series || ' series') FROM metric_queries;
CREATE TABLE metric_queries (
  artifact_id      INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  name             TEXT NOT NULL,     -- 'allocatable' | 'capacity' | 'plugin_restarts' | 'alerts'
  query            TEXT NOT NULL,     -- the PromQL asked, e.g. kube_node_status_allocatable{node="gpu-7",...}
  source           TEXT NOT NULL,     -- where: 'https://prom:9090', 'service monitoring/prom:9090 through the API server'
  node             TEXT NOT NULL,     -- the node as the queries name it
  node_label       TEXT NOT NULL,     -- the label that names it there ('node')
  start_ns         INTEGER,           -- the range asked, Unix ns
  end_ns           INTEGER,           -- the capture, on the same clock
  step_s           INTEGER NOT NULL,  -- seconds between two points
  clock_offset_ns  INTEGER,           -- the node's clock minus the store's; NULL when not measured
  error            TEXT,              -- why there is no answer; NULL when there is one
  series           INTEGER NOT NULL   -- series in the answer; 0 when none (or no answer)
);
