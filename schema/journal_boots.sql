-- The boots the journal slices show: for each boot id, the latest entry that
-- carries both clocks. Its realtime minus its monotonic stamp is when the
-- boot began by the wall clock, which is how the timeline places a boot
-- (schema/events.sql, milestone 'boot'). Written by the loader as it stores
-- the entries.
-- Example: SELECT boot_offset, boot_id, datetime((realtime_us - monotonic_us) / 1e6, 'unixepoch') FROM journal_boots;
CREATE TABLE journal_boots (
  bundle_id     INTEGER NOT NULL REFERENCES bundles(bundle_id),  -- the bundle
  boot_id       TEXT NOT NULL,     -- _BOOT_ID, 32 hex without dashes
  boot_offset   INTEGER NOT NULL,  -- 0 = the boot at capture, -1 = the one before; from the slice
  realtime_us   INTEGER NOT NULL,  -- that entry's __REALTIME_TIMESTAMP, Unix µs UTC
  monotonic_us  INTEGER NOT NULL   -- that entry's __MONOTONIC_TIMESTAMP, µs since the boot
);
