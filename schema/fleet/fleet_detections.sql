-- How each node's outage was noticed, where its bundle holds the metrics
-- store's record of a drop (kubectl gpuforensics collect --metrics): the
-- report's `detection`, with the cluster it belongs to. Fleet summaries
-- give the delays by cluster and by cause.
-- Example: SELECT cause_rule, (dropped_at_ns - cause_at_ns) / 1e9 FROM fleet_detections;
CREATE TABLE fleet_detections (
  fleet_bundle_id  INTEGER NOT NULL REFERENCES fleet_bundles(fleet_bundle_id),  -- the bundle
  cluster_uid      TEXT,              -- the kube-system Namespace's UID; NULL when not read
  cause_rule       TEXT,              -- the leading finding; NULL when none
  cause_at_ns      INTEGER,           -- its earliest timed event evidence, Unix ns; NULL when not timed
  dropped          TEXT NOT NULL,     -- the first drop in the window: 'nvidia_com_gpu allocatable 8 -> 0 (...)'
  dropped_at_ns    INTEGER NOT NULL,  -- on the node's clock
  alert            TEXT,              -- the first alert naming the node at or after the drop; NULL when none fired
  alert_at_ns      INTEGER            -- when it fired; NULL when none did
);
