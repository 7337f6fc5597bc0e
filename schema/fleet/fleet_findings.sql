-- The findings of each bundle (the per-bundle findings table, copied).
-- Example: SELECT rule_id, count(*) FROM fleet_findings GROUP BY rule_id;
CREATE TABLE fleet_findings (
  fleet_bundle_id  INTEGER NOT NULL REFERENCES fleet_bundles(fleet_bundle_id),  -- the bundle
  rule_id          TEXT NOT NULL,   -- rule file stem, as in findings.rule_id
  severity         TEXT NOT NULL,   -- critical | high | medium | low | info
  confidence       TEXT NOT NULL,   -- confirmed | likely | possible
  summary          TEXT NOT NULL    -- one line saying what was found on that node
);
