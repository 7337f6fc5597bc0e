-- Evidence that would confirm a finding but is absent from the bundle, so that
-- a "likely" reads as "likely, because X was not captured".
-- Example: SELECT f.rule_id, m.text FROM finding_missing m JOIN findings f USING (finding_id) ORDER BY f.finding_id, m.ordinal;
CREATE TABLE finding_missing (
  finding_id  INTEGER NOT NULL REFERENCES findings(finding_id),  -- the finding
  ordinal     INTEGER NOT NULL,  -- 1-based position within the finding
  text        TEXT NOT NULL      -- e.g. 'device cgroup of the plugin container not captured'
);
CREATE INDEX finding_missing_by_finding ON finding_missing(finding_id, ordinal);
