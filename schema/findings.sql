-- Known issues the rules recognized, filled by the rule engine.
-- Example: SELECT rule_id, severity, confidence FROM findings ORDER BY severity;
CREATE TABLE findings (
  finding_id   INTEGER PRIMARY KEY,  -- row id
  bundle_id    INTEGER NOT NULL REFERENCES bundles(bundle_id),  -- the bundle
  rule_id      TEXT NOT NULL,    -- rule file stem, e.g. 'dp-null-manager-after-nvml-failure'
  severity     TEXT NOT NULL CHECK (severity IN ('critical', 'high', 'medium', 'low', 'info')),  -- most severe first
  confidence   TEXT NOT NULL CHECK (confidence IN ('confirmed', 'likely', 'possible')),  -- surest first
  summary      TEXT NOT NULL     -- one line saying what was found
);
