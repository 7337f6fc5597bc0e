-- Known issues the rules recognized, filled by the rule engine.
-- Example: SELECT rule_id, severity, confidence FROM findings ORDER BY severity;
CREATE TABLE findings (
  finding_id   INTEGER PRIMARY KEY,  -- row id
  bundle_id    INTEGER NOT NULL REFERENCES bundles(bundle_id),  -- the bundle
  rule_id      TEXT NOT NULL,    -- rule file stem, e.g. 'dp-null-manager-after-nvml-failure'
  severity     TEXT NOT NULL,    -- critical | high | medium | low | info
  confidence   TEXT NOT NULL,    -- confirmed | likely | possible
  summary      TEXT NOT NULL     -- one line saying what was found
);
