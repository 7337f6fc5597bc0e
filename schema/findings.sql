-- Known issues the rules recognized, filled by the rule engine: the fault at
-- capture, and history (earlier boots, faults that healed). Candidates that
-- evidence against ruled out are not here but in diagnoses.
-- Example: SELECT rule_id, severity, confidence, tense FROM findings ORDER BY finding_id;
CREATE TABLE findings (
  finding_id   INTEGER PRIMARY KEY,  -- row id
  bundle_id    INTEGER NOT NULL REFERENCES bundles(bundle_id),  -- the bundle
  rule_id      TEXT NOT NULL,    -- rule file stem, e.g. 'dp-null-manager-after-nvml-failure'
  severity     TEXT NOT NULL CHECK (severity IN ('critical', 'high', 'medium', 'low', 'info')),  -- most severe first
  confidence   TEXT NOT NULL CHECK (confidence IN ('confirmed', 'likely', 'possible')),  -- surest first, after evidence against
  summary      TEXT NOT NULL,    -- one line saying what was found
  tense        TEXT NOT NULL CHECK (tense IN ('current', 'history'))  -- current (the fault at capture) | history (earlier boot or healed; severity at most low)
);
