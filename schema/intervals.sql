-- Time between two milestones of the same boot, computed once so that rules
-- and reports can use them ("the plugin started 1.0 s after
-- nvidia-persistenced"). Names are a contract:
--   plugin_start_after_persistenced, plugin_start_after_driver_loaded,
--   plugin_start_after_fabricmanager, plugin_start_after_kubelet,
--   registration_after_plugin_start, plugin_start_after_boot,
--   last_daemon_reload_after_plugin_start, last_kubelet_start_after_plugin_registered
-- Example: SELECT name, seconds FROM intervals WHERE boot_offset = 0;
CREATE TABLE intervals (
  bundle_id      INTEGER NOT NULL REFERENCES bundles(bundle_id),  -- the bundle
  boot_offset    INTEGER,          -- the boot both milestones belong to (0 = at capture)
  name           TEXT NOT NULL,    -- see above
  from_event_id  INTEGER NOT NULL REFERENCES events(event_id),  -- the earlier milestone's event
  to_event_id    INTEGER NOT NULL REFERENCES events(event_id),  -- the later milestone's event
  seconds        REAL NOT NULL     -- to minus from; negative when the order was the other way
);
