-- The device plugin's DaemonSet as the API served it at capture
-- (k8s.plugin_daemonset, read by the kubectl plugin): whether a rollout
-- was under way, which a plugin that restarted on its own or runs an older
-- template on this node shows. Counts are its status' over all its nodes.
-- Example: SELECT name, updated, desired, unavailable FROM daemonset_rollouts;
CREATE TABLE daemonset_rollouts (
  artifact_id          INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  namespace            TEXT,     -- metadata.namespace
  name                 TEXT NOT NULL,  -- metadata.name
  generation           INTEGER,  -- metadata.generation: the template's version
  observed_generation  INTEGER,  -- status.observedGeneration: the version the controller has acted on
  desired              INTEGER,  -- status.desiredNumberScheduled
  updated              INTEGER,  -- status.updatedNumberScheduled: pods of the current template
  available            INTEGER,  -- status.numberAvailable
  unavailable          INTEGER,  -- status.numberUnavailable (absent: 0)
  update_strategy      TEXT,     -- spec.updateStrategy.type: 'RollingUpdate' | 'OnDelete'
  images               TEXT      -- the pod template's container images, ', '-separated
);
