-- Every guess the timeline made about a time: a year inferred for a klog
-- line, a zone assumed, a kernel line placed through its boot-relative stamp.
-- Example: SELECT message, count(*) FROM timeline_warnings GROUP BY message;
CREATE TABLE timeline_warnings (
  bundle_id    INTEGER NOT NULL REFERENCES bundles(bundle_id),  -- the bundle
  event_id     INTEGER REFERENCES events(event_id),  -- the stored event whose time was guessed (a milestone);
                                                     -- NULL for other lines and when general
  artifact_id  INTEGER REFERENCES artifacts(artifact_id),  -- provenance of the guessed line
  line         INTEGER,        -- 1-based line in the artifact
  message      TEXT NOT NULL   -- what was assumed
);
