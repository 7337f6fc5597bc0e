-- GPUs the kernel driver knows, from /proc/driver/nvidia/gpus/<pci>/information,
-- to compare with PCI (below) and NVML (above).
-- Example: SELECT bus_location, model, device_minor FROM driver_gpus ORDER BY device_minor;
CREATE TABLE driver_gpus (
  artifact_id   INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance: one information file
  bus_location  TEXT,      -- sysfs form '0000:18:00.0'
  model         TEXT,      -- 'NVIDIA H800'
  uuid          TEXT,      -- 'GPU-...', NULL while the GPU is not initialised
  device_minor  INTEGER,   -- N of /dev/nvidiaN
  excluded      INTEGER    -- 1 when the driver excluded the GPU ('GPU Excluded: Yes')
);
