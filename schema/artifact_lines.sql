-- Every line of the text artifacts that have no dedicated table yet (plugin
-- logs, command outputs, configs), for grep-style questions.
-- Example: SELECT a.name, l.line, l.text FROM artifact_lines l JOIN artifacts a USING (artifact_id) WHERE l.text LIKE '%NVML%';
CREATE TABLE artifact_lines (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  stream       TEXT NOT NULL,     -- 'stdout' | 'stderr' | 'content'
  line         INTEGER NOT NULL,  -- 1-based
  text         TEXT NOT NULL      -- the line without its newline
);
CREATE INDEX artifact_lines_by_artifact ON artifact_lines(artifact_id, stream, line);
