-- Things the loader noticed and skipped: imperfect evidence is data, not an error.
CREATE TABLE load_warnings (
  artifact_id  INTEGER REFERENCES artifacts(artifact_id),  -- NULL for bundle-level warnings
  member       TEXT,           -- tar member concerned, NULL when none
  line         INTEGER,        -- 1-based line, NULL when not line-specific
  message      TEXT NOT NULL   -- what was wrong
);
