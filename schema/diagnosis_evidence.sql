-- Rows behind the diagnosis that finding_evidence does not hold: the rows
-- that showed each held check of evidence against, and the evidence for a
-- candidate that was ruled out (it has no finding).
-- Example: SELECT d.rule_id, e.against_ordinal, e.text FROM diagnosis_evidence e JOIN diagnoses d USING (diagnosis_id) ORDER BY d.diagnosis_id, e.against_ordinal, e.ordinal;
CREATE TABLE diagnosis_evidence (
  diagnosis_id     INTEGER NOT NULL REFERENCES diagnoses(diagnosis_id),  -- the candidate
  against_ordinal  INTEGER,           -- the check of diagnosis_against it shows; NULL: evidence for a ruled-out one
  ordinal          INTEGER NOT NULL,  -- 1-based position within that check (or within the evidence for)
  selection        TEXT NOT NULL,     -- the rule's selection that returned the row
  artifact_id      INTEGER REFERENCES artifacts(artifact_id),  -- provenance; NULL for a derived row
  line             INTEGER,           -- 1-based line in the artifact, NULL when not line-based
  time_ns          INTEGER,           -- Unix ns UTC, NULL when the row has no time
  text             TEXT NOT NULL,     -- the line as written, or what the row says
  shows            TEXT NOT NULL      -- what its selection shows: event | precondition | context
);
CREATE INDEX diagnosis_evidence_by_diagnosis ON diagnosis_evidence(diagnosis_id, against_ordinal, ordinal);
