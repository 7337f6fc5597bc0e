-- One row per stored stream of an artifact, with its integrity check.
-- Example: SELECT member FROM artifact_outputs WHERE NOT verified;
CREATE TABLE artifact_outputs (
  artifact_id    INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  stream         TEXT NOT NULL,     -- 'stdout' | 'stderr' | 'content'
  member         TEXT NOT NULL,     -- tar member path
  size_bytes     INTEGER NOT NULL,  -- stored size per the manifest
  sha256         TEXT NOT NULL,     -- stored hash per the manifest
  truncated      INTEGER NOT NULL,  -- 1 when the collector's cap cut it
  dropped_bytes  INTEGER NOT NULL,  -- bytes produced but not stored
  present        INTEGER NOT NULL,  -- 1 when the member was found in the archive
  verified       INTEGER NOT NULL,  -- 1 when size and sha256 matched
  PRIMARY KEY (artifact_id, stream)
);
