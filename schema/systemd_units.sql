-- The host units' states at capture (systemctl show): whether the driver's
-- daemons and the runtime run now, whatever their journals say of the past.
-- Example: SELECT unit, active_state, sub_state FROM systemd_units WHERE load_state <> 'not-found';
CREATE TABLE systemd_units (
  artifact_id   INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- systemd.units
  line          INTEGER NOT NULL,  -- 1-based line of its ActiveState (else its Id) in the artifact
  unit          TEXT NOT NULL,     -- 'nvidia-persistenced.service'
  load_state    TEXT NOT NULL,     -- loaded | not-found (no such unit on the node) | masked | ...; '' when not shown
  active_state  TEXT NOT NULL,     -- active | inactive | failed | activating | deactivating | reloading; '' when not shown
  sub_state     TEXT NOT NULL,     -- running | dead | failed | auto-restart | ...; '' when not shown
  n_restarts    INTEGER,           -- NRestarts: automatic restarts since the unit was last started by hand
  main_pid      INTEGER            -- ExecMainPID; 0 when nothing runs
);
