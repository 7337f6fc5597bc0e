-- GPUs as one view or another lists them (nvidia-smi -L on the host or in a container).
CREATE TABLE gpus (
  artifact_id   INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance
  line          INTEGER NOT NULL,  -- 1-based line in the artifact's stdout
  view          TEXT NOT NULL,     -- 'host' | 'container'
  container_id  TEXT,              -- for view = 'container'
  gpu_index     INTEGER NOT NULL,  -- index as printed (NVML order, renumbered in containers)
  name          TEXT NOT NULL,     -- product name, e.g. 'NVIDIA H800'
  uuid          TEXT NOT NULL,     -- 'GPU-...'
  mig_devices   INTEGER NOT NULL   -- MIG device lines under this GPU
);
