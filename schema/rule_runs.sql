-- Every rule the engine considered, with its outcome, so that "no finding"
-- can be told apart from "not evaluated".
-- Example: SELECT rule_id, outcome, reason FROM rule_runs WHERE outcome = 'skipped';
CREATE TABLE rule_runs (
  bundle_id   INTEGER NOT NULL REFERENCES bundles(bundle_id),  -- the bundle
  rule_id     TEXT NOT NULL,  -- rule file stem
  outcome     TEXT NOT NULL CHECK (outcome IN (  -- ruled_out: evidence against; unknown: deciding evidence not
                                                -- captured (RuleOutcome)
                'fail', 'warn', 'pass', 'ruled_out', 'unknown', 'skipped', 'error')),
  reason      TEXT,              -- e.g. the missing artifacts when skipped or unknown
  elapsed_ns  INTEGER NOT NULL  -- time the rule took
);
