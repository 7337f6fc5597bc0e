-- The timeline intervals of each bundle (names as in intervals.sql).
-- Example: SELECT count(*) FROM fleet_intervals WHERE name = 'plugin_start_after_driver_loaded' AND boot_offset = 0 AND seconds < 2;
CREATE TABLE fleet_intervals (
  fleet_bundle_id  INTEGER NOT NULL REFERENCES fleet_bundles(fleet_bundle_id),  -- the bundle
  boot_offset      INTEGER,         -- 0 = the boot at capture, -1 the one before; NULL when unknown
  name             TEXT NOT NULL,   -- e.g. 'plugin_start_after_persistenced'
  seconds          REAL NOT NULL    -- later minus earlier milestone; negative when reversed
);
