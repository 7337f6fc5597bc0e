-- Journal entries from the journal.* artifacts (journalctl -o json), one per entry.
-- Example: SELECT realtime_us, unit, message FROM journal_entries WHERE message LIKE 'Reloading%' ORDER BY realtime_us;
CREATE TABLE journal_entries (
  artifact_id     INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  line            INTEGER NOT NULL,  -- 1-based line in the artifact's stdout
  boot_offset     INTEGER,           -- 0 = boot at capture, -1 = the one before; from the instance
  realtime_us     INTEGER,           -- __REALTIME_TIMESTAMP, Unix µs UTC
  monotonic_us    INTEGER,           -- __MONOTONIC_TIMESTAMP, µs since that boot (when journald stored it)
  source_monotonic_us INTEGER,       -- _SOURCE_MONOTONIC_TIMESTAMP, µs since boot when the kernel logged it
  boot_id         TEXT,              -- _BOOT_ID, 32 hex without dashes
  unit            TEXT,              -- _SYSTEMD_UNIT, or UNIT for PID 1 messages about a unit
  identifier      TEXT,              -- SYSLOG_IDENTIFIER
  pid             INTEGER,           -- _PID
  priority        INTEGER,           -- PRIORITY 0..7 (not klog severity)
  transport       TEXT,              -- _TRANSPORT
  event           TEXT,              -- recognised kubelet or systemd event ('registration_request',
                                     -- 'list_and_watch_ended', 'unit_started', 'daemon_reload', ...), or journald's
                                     -- 'messages_suppressed' (rate limit) and 'kernel_messages_missed'; else NULL
  event_subject   TEXT,              -- what the event is about: the resource or the unit ('kernel' for missed
                                     -- kernel messages), else NULL;
                                     -- a unit that runs the kubelet inside it (k3s) is 'kubelet.service'
  message         TEXT               -- MESSAGE as stored (byte arrays as their bytes), capped at 1 MiB
);
CREATE INDEX journal_by_time ON journal_entries(realtime_us);
-- Rules and the chain verdict select the few recognised events out of millions of lines.
CREATE INDEX journal_by_event ON journal_entries(event, event_subject) WHERE event IS NOT NULL;
