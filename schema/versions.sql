-- Component versions as printed, and their numeric parts where they parse.
-- Example: SELECT component, version FROM versions WHERE component IN ('runc', 'nvidia-container-toolkit');
CREATE TABLE versions (
  artifact_id  INTEGER REFERENCES artifacts(artifact_id),  -- where it was read; NULL when derived
  component    TEXT NOT NULL,   -- 'containerd' | 'runc' | 'nvidia-ctk' | 'nvidia-container-cli' | 'kubelet' |
                                -- 'systemd' | 'crictl' | 'nvidia-driver' | 'nvidia-device-plugin' | ...
                                -- 'cuda': the highest CUDA version the driver supports (nvidia-smi -q -x)
  version      TEXT NOT NULL,   -- as printed, e.g. '1.6.34', 'v1.31.1-aliyun.1'
  major        INTEGER,         -- first number; NULL when the string does not parse
  minor        INTEGER,         -- second number
  patch        INTEGER,         -- third number
  suffix       TEXT             -- what follows the numbers ('-aliyun.1'), NULL when none
);
