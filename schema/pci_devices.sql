-- NVIDIA PCI functions from sysfs (vendor 0x10de), to compare with what NVML sees.
-- Example: SELECT count(*) FROM pci_devices WHERE role = 'gpu';
CREATE TABLE pci_devices (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- pci.nvidia_functions
  line         INTEGER NOT NULL,  -- 1-based line in the artifact
  address      TEXT NOT NULL,   -- '0000:18:00.0'
  vendor       TEXT NOT NULL,   -- '0x10de'
  device       TEXT,            -- '0x2324'
  class        TEXT,            -- '0x030200'
  role         TEXT NOT NULL    -- 'gpu' (class 0x0300/0x0302) | 'nvswitch' (0x0680) | 'audio' (0x0403) | 'other'
);
