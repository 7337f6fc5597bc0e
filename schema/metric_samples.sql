-- The series the metrics store answered (k8s.metrics), one row per point:
-- kube-state-metrics' view of the node's GPU resources, the device plugin
-- pod's restarts and the alerts naming the node. The timeline's
-- metric_dropped, alert_firing and alert_resolved come from here.
-- Example: SELECT resource, datetime(time_ns / 1e9, 'unixepoch'), value FROM metric_samples
--          WHERE query = 'allocatable' ORDER BY time_ns;
CREATE TABLE metric_samples (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  query        TEXT NOT NULL,     -- metric_queries.name
  series       INTEGER NOT NULL,  -- the series' number within the artifact, from 1
  metric       TEXT,              -- __name__ ('kube_node_status_allocatable', 'ALERTS'); NULL when not given
  resource     TEXT,              -- 'nvidia_com_gpu', 'nvidia_com_mig_1g_10gb', ...; NULL when none
  alertname    TEXT,              -- ALERTS only
  alertstate   TEXT,              -- ALERTS only: 'pending' | 'firing'
  pod          TEXT,              -- plugin_restarts only
  labels       TEXT NOT NULL,     -- every label of the series, JSON
  time_ns      INTEGER NOT NULL,  -- Unix ns, on the node's clock where measured (metric_queries.clock_offset_ns)
  value        REAL               -- the sample; NULL for NaN
);
CREATE INDEX metric_samples_by_series ON metric_samples(artifact_id, series, time_ns);
