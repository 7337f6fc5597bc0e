-- Component versions of each bundle, one row per distinct (component, version).
-- Example: SELECT component, version, count(*) FROM fleet_versions GROUP BY 1, 2;
CREATE TABLE fleet_versions (
  fleet_bundle_id  INTEGER NOT NULL REFERENCES fleet_bundles(fleet_bundle_id),  -- the bundle
  component        TEXT NOT NULL,   -- as in versions.component: 'nvidia-driver', 'containerd', ...
  version          TEXT NOT NULL    -- as printed, e.g. '550.54.15'
);
