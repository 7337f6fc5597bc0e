-- The differential diagnosis: every finding, and every candidate that
-- evidence against ruled out, grouped by the symptom it explains and ranked
-- so that a report leads with one root cause (docs/diagnosis.md). Filled by
-- the rule engine after all rules ran.
-- Example: SELECT symptom_group, rank, place, rule_id, confidence, under_rule_id FROM diagnoses ORDER BY symptom_group = 0, symptom_group, place = 'ruled_out', rank;
CREATE TABLE diagnoses (
  diagnosis_id      INTEGER PRIMARY KEY,  -- row id
  bundle_id         INTEGER NOT NULL REFERENCES bundles(bundle_id),  -- the bundle
  rule_id           TEXT NOT NULL,     -- rule file stem
  finding_id        INTEGER REFERENCES findings(finding_id),  -- its finding; NULL when ruled out
  symptom           TEXT NOT NULL,     -- what it explains: gpus-unusable | gpu-fault | exposure
  role              TEXT NOT NULL,     -- the rule's part: cause | trigger | amplifier | consequence
  place             TEXT NOT NULL,     -- root_cause | lead (a group without a cause) | competing (cannot be told
                                       -- from the root cause) | alternative | trigger | amplifier | consequence |
                                       -- history | ruled_out
  symptom_group     INTEGER NOT NULL,  -- 1 = the group the report leads with, 2 the next; 0 for history, ruled out
  rank              INTEGER NOT NULL,  -- 1-based within its group, or among history, or among ruled out
  under_rule_id     TEXT,              -- the root cause (or lead) it hangs under; NULL for leaders, history, ruled out
  confidence        TEXT NOT NULL,     -- after evidence against: confirmed | likely | possible
  confidence_before TEXT NOT NULL,     -- as the rule's outcome said after its caps, before evidence against
  confidence_steps  TEXT NOT NULL,     -- how the confidence came to be, '; '-separated: 'confirmed as its outcome
                                       -- says; likely: held against: ...'
  catalog           TEXT NOT NULL,     -- the catalog entry the outcome's confidence follows
  admissible        INTEGER,           -- 1 its event evidence is of the boot at capture (timed in it, or read at
                                       -- capture), 0 history, NULL when it cannot be placed
  confirming_held   INTEGER NOT NULL,  -- the rule's confirming checks (its `missing` entries) that held
  confirming_total  INTEGER NOT NULL,  -- the rule's confirming checks
  summary           TEXT NOT NULL,     -- the outcome's one line
  tense_reason      TEXT,              -- why history or ruled out; NULL for the fault at capture
  decider           TEXT               -- on the leader of group 1 when causes compete: the one capture that would
                                       -- decide between them; NULL otherwise
);
