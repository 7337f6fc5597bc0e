-- The host's GPUs as NVML reports them: `nvidia-smi -L` joined with
-- `nvidia-smi -q -x` (or a saved `nvidia-smi -q` text) by UUID. Columns the capture did not provide are NULL.
-- Example: SELECT gpu_index, uuid, pci_bus_id, persistence_mode FROM gpus ORDER BY gpu_index;
CREATE TABLE gpus (
  artifact_id           INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- the -L (or -q -x) artifact
  line                  INTEGER,           -- line in `nvidia-smi -L`, NULL when only in the XML
  gpu_index             INTEGER,           -- NVML index as printed by -L
  name                  TEXT,              -- product name, e.g. 'NVIDIA H800'
  uuid                  TEXT,              -- 'GPU-...'; NULL for a saved part of nvidia-smi -q that did not show it
  pci_bus_id            TEXT,              -- sysfs form '0000:18:00.0'
  minor_number          INTEGER,           -- N of /dev/nvidiaN
  serial                TEXT,  -- board serial number
  persistence_mode      TEXT,              -- 'Enabled' | 'Disabled'
  mig_mode              TEXT,              -- current MIG mode: 'Enabled' | 'Disabled'
  mig_mode_pending      TEXT,              -- pending MIG mode (after reset)
  mig_devices           INTEGER,           -- MIG device lines under this GPU in -L
  fabric_state          TEXT,              -- NVSwitch fabric: 'Completed' | 'In Progress' | 'Not Started' | 'Not Supported'
  fabric_status         TEXT,              -- fabric status text ('Success', 'N/A')
  retired_pages_sbe     INTEGER,           -- pages retired for single-bit errors
  retired_pages_dbe     INTEGER,           -- pages retired for double-bit errors
  retired_pages_pending TEXT,              -- 'Yes' | 'No'
  remapped_rows_pending TEXT,              -- 'Yes' means a GPU reset is needed
  remapped_rows_failure TEXT               -- 'Yes' means an RMA candidate
);
