-- The rows that back each finding: the log lines and table rows its rule's
-- selections returned, with their provenance, in the order the rule shows them.
-- Example: SELECT f.rule_id, a.name, e.line, e.text FROM finding_evidence e JOIN findings f USING (finding_id) LEFT JOIN artifacts a USING (artifact_id) ORDER BY f.finding_id, e.ordinal;
CREATE TABLE finding_evidence (
  finding_id   INTEGER NOT NULL REFERENCES findings(finding_id),  -- the finding
  ordinal      INTEGER NOT NULL,  -- 1-based position within the finding
  selection    TEXT NOT NULL,     -- the rule's selection that returned the row
  artifact_id  INTEGER REFERENCES artifacts(artifact_id),  -- provenance; NULL for a derived row or a "more rows" line
  line         INTEGER,           -- 1-based line in the artifact, NULL when not line-based
  time_ns      INTEGER,           -- Unix ns UTC, NULL when the row has no time
  text         TEXT NOT NULL,     -- the line as written, or what the row says
  shows        TEXT NOT NULL      -- what its selection shows: event | precondition | context
);
CREATE INDEX finding_evidence_by_finding ON finding_evidence(finding_id, ordinal);
