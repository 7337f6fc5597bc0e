-- Journal entries that repeat one stored before them in the same bundle: the
-- same boot, time and text, kept twice because two journal slices both
-- matched it. The timeline shows the first in (artifact, line) order and
-- leaves these out; found once, when the timeline is built.
-- Example: SELECT j.message FROM journal_copies c JOIN journal_entries j USING (artifact_id, line);
CREATE TABLE journal_copies (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- the copy's artifact
  line         INTEGER NOT NULL,  -- the copy's line in it
  PRIMARY KEY (artifact_id, line)
) WITHOUT ROWID;
