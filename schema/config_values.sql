-- Settings read from configuration files and runtime state where a value
-- decides how GPUs reach containers: containerd's default runtime and cgroup
-- driver per runtime, the NVIDIA runtime's mode, the kubelet's cgroup driver,
-- the kubelet checkpoint's registered devices.
-- Example: SELECT key, value FROM config_values WHERE key LIKE 'containerd.%';
CREATE TABLE config_values (
  artifact_id  INTEGER NOT NULL REFERENCES artifacts(artifact_id),  -- provenance: the file or command
  key          TEXT NOT NULL,   -- 'containerd.default_runtime_name', 'containerd.runtime.<name>.systemd_cgroup',
                                -- 'containerd.runtime.<name>.binary_name', 'containerd.enable_cdi',
                                -- 'nvidia_runtime.mode', 'nvidia_runtime.no_cgroups', 'kubelet.cgroup_driver',
                                -- 'kubelet.cpu_manager_policy',
                                -- 'checkpoint.registered.<resource>', 'crictl_info.default_runtime_name',
                                -- 'crio.default_runtime', 'crio.runtime.<name>.runtime_path', ...
  value        TEXT NOT NULL    -- as read; booleans as 'true' / 'false'
);
