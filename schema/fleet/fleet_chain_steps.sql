-- The GPU chain verdict of each bundle: one row per step, PCI to allocatable.
-- Example: SELECT step_name, count(*) FROM fleet_chain_steps WHERE status = 'failed' GROUP BY step_name;
CREATE TABLE fleet_chain_steps (
  fleet_bundle_id  INTEGER NOT NULL REFERENCES fleet_bundles(fleet_bundle_id),  -- the bundle
  step_number      INTEGER NOT NULL,  -- position in the chain, from 1 (as analyze prints it)
  step_name        TEXT NOT NULL,     -- 'PCI devices', 'kernel driver', ...
  status           TEXT NOT NULL,     -- ok | failed | unknown
  detail           TEXT NOT NULL      -- what was seen, one line
);
