-- Input the loader or a parser could not read: imperfect evidence is data,
-- never a crash and never silence. Clean input yields no rows.
-- Example: SELECT a.name, w.line, w.message FROM parse_warnings w JOIN artifacts a USING (artifact_id);
CREATE TABLE parse_warnings (
  artifact_id  INTEGER REFERENCES artifacts(artifact_id),  -- NULL for bundle-level warnings
  member       TEXT,           -- tar member concerned; NULL when none
  line         INTEGER,        -- 1-based line; NULL when not line-specific
  message      TEXT NOT NULL   -- what was wrong
);
