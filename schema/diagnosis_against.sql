-- Evidence against each candidate of the diagnosis: every check its rule
-- declares, with what it found. A held rule-out check excludes the
-- candidate; a held lower check takes its confidence down one step.
-- Example: SELECT d.rule_id, a.effect, a.state, a.text FROM diagnosis_against a JOIN diagnoses d USING (diagnosis_id) ORDER BY d.diagnosis_id, a.ordinal;
CREATE TABLE diagnosis_against (
  diagnosis_id  INTEGER NOT NULL REFERENCES diagnoses(diagnosis_id),  -- the candidate
  ordinal       INTEGER NOT NULL,  -- 1-based position in the rule's `against` list
  effect        TEXT NOT NULL,     -- rule-out | lower
  state         TEXT NOT NULL,     -- held | not_seen | unknown (what it reads was not captured)
  text          TEXT NOT NULL,     -- what the evidence says against the issue
  catalog       TEXT NOT NULL,     -- the catalog's AGAINST entry it follows
  needs         TEXT               -- when unknown: the artifacts that would decide it, '; '-separated; else NULL
);
CREATE INDEX diagnosis_against_by_diagnosis ON diagnosis_against(diagnosis_id, ordinal);
