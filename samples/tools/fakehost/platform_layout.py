"""Where a platform keeps the kubelet, its flags and kubeconfig, the
container runtime and the tools (docs/platforms.md, common/platforms.cc).

A scenario picks one with [platform] id = "..." (default "kubeadm") and
may add the NVIDIA GPU Operator with gpu_operator = true. The engine asks
the layout how the kubelet and the runtime log; the output asks it which
files to write and which tools live off the standard PATH (those get a
placeholder under the root and no stub in bin/, as on the real node).
"""

KUBEADM_BASE_UNIT = """[Unit]
Description=kubelet: The Kubernetes Node Agent
Documentation=https://kubernetes.io/docs/
Wants=network-online.target
After=network-online.target

[Service]
ExecStart=/usr/bin/kubelet
Restart=always
StartLimitInterval=0
RestartSec=10

[Install]
WantedBy=multi-user.target
"""

# kubeadm's drop-in; ACK adds its override in KUBELET_EXTRA_ARGS.
KUBEADM_DROPIN = """# Note: This dropin only works with kubeadm and kubelet v1.11+
[Service]
Environment="KUBELET_KUBECONFIG_ARGS=--bootstrap-kubeconfig=/etc/kubernetes/bootstrap-kubelet.conf --kubeconfig=/etc/kubernetes/kubelet.conf"
Environment="KUBELET_CONFIG_ARGS=--config=/var/lib/kubelet/config.yaml"
{extra}# This is a file that "kubeadm init" and "kubeadm join" generates at runtime, populating the KUBELET_KUBEADM_ARGS variable dynamically
EnvironmentFile=-/var/lib/kubelet/kubeadm-flags.env
# This is a file that the user can use for overrides of the kubelet args as a last resort. Preferably, the user should use
# the .NodeRegistration.KubeletExtraArgs object in the configuration files instead. KUBELET_EXTRA_ARGS should be sourced from this file.
EnvironmentFile=-/etc/sysconfig/kubelet
ExecStart=
ExecStart=/usr/bin/kubelet $KUBELET_KUBECONFIG_ARGS $KUBELET_CONFIG_ARGS $KUBELET_KUBEADM_ARGS $KUBELET_EXTRA_ARGS
"""

# awslabs/amazon-eks-ami templates/al2023/runtime/rootfs/etc/systemd/system/kubelet.service
EKS_UNIT = """[Unit]
Description=Kubernetes Kubelet
Documentation=https://github.com/kubernetes/kubernetes
After=containerd.service
Wants=containerd.service

[Service]
Slice=runtime.slice
EnvironmentFile=/etc/eks/kubelet/environment
ExecStartPre=/sbin/iptables -P FORWARD ACCEPT -w 5
ExecStart=/usr/bin/kubelet $NODEADM_KUBELET_ARGS

Restart=on-failure
RestartForceExitStatus=SIGPIPE
RestartSec=5
KillMode=process
CPUAccounting=true
MemoryAccounting=true

[Install]
WantedBy=multi-user.target
"""

# bottlerocket-core-kit packages/kubernetes-1.30/kubelet.service and the
# rendered kubelet-exec-start-conf.
BR_KUBELET_UNIT = """[Unit]
Description=Kubelet
Documentation=https://github.com/kubernetes/kubernetes
After=containerd.service configured.target
Wants=configured.target
BindsTo=containerd.service

[Service]
Slice=runtime.slice
Type=notify
EnvironmentFile=/etc/network/proxy.env
EnvironmentFile=/etc/kubernetes/kubelet/env
ExecStartPre=/sbin/iptables -P FORWARD ACCEPT
# Must be overridden by a drop-in file or `kubelet` won't start
ExecStart=/usr/bin/false

Restart=always
RestartForceExitStatus=SIGPIPE
RestartSec=5
Delegate=yes
KillMode=process
CPUAccounting=true
MemoryAccounting=true

[Install]
WantedBy=multi-user.target
"""
BR_PLUGIN_UNIT = """[Unit]
Description=Start NVIDIA kubernetes device plugin
After=kubelet.service
Wants=kubelet.service

[Service]
ExecStart=/usr/bin/nvidia-device-plugin --device-list-strategy volume-mounts --device-id-strategy index --pass-device-specs=true
Type=simple
TimeoutSec=0
RestartSec=2
Restart=always
StandardError=journal+console

[Install]
WantedBy=multi-user.target
"""
BR_SYSROOT_UNITS = "x86_64-bottlerocket-linux-gnu/sys-root/usr/lib/systemd/system/"

LAYOUTS = {
    "kubeadm": dict(
        kubelet_unit="kubelet.service", kubelet_ident="kubelet", kubelet_exe="/usr/bin/kubelet",
        kubeconfig="/etc/kubernetes/kubelet.conf", kubelet_config="/var/lib/kubelet/config.yaml",
        runtime_unit="containerd.service", containerd_config="/etc/containerd/config.toml",
        off_path={}, absent=set()),
    "ack": dict(
        kubelet_unit="kubelet.service", kubelet_ident="kubelet", kubelet_exe="/usr/bin/kubelet",
        kubeconfig="/etc/kubernetes/kubelet.conf", kubelet_config="/var/lib/kubelet/config.yaml",
        runtime_unit="containerd.service", containerd_config="/etc/containerd/config.toml",
        off_path={}, absent=set()),
    "eks-al2023": dict(
        kubelet_unit="kubelet.service", kubelet_ident="kubelet", kubelet_exe="/usr/bin/kubelet",
        kubeconfig="/var/lib/kubelet/kubeconfig", kubelet_config="/etc/kubernetes/kubelet/config.json",
        runtime_unit="containerd.service", containerd_config="/etc/containerd/config.toml",
        off_path={}, absent=set()),
    "bottlerocket": dict(
        kubelet_unit="kubelet.service", kubelet_ident="kubelet", kubelet_exe="/usr/bin/kubelet",
        kubeconfig="/etc/kubernetes/kubelet/kubeconfig", kubelet_config="/etc/kubernetes/kubelet/config",
        runtime_unit="containerd.service", containerd_config="/etc/containerd/config.toml",
        off_path={"nvidia-smi": "/usr/libexec/nvidia/tesla/bin/nvidia-smi"},
        absent={"crictl", "kubectl", "nvidia-container-cli"}),
    "gke-cos": dict(
        kubelet_unit="kubelet.service", kubelet_ident="kubelet", kubelet_exe="/home/kubernetes/bin/kubelet",
        kubeconfig="/var/lib/kubelet/kubeconfig", kubelet_config="/home/kubernetes/kubelet-config.yaml",
        runtime_unit="containerd.service", containerd_config="/etc/containerd/config.toml",
        off_path={"crictl": "/home/kubernetes/bin/crictl", "kubelet": "/home/kubernetes/bin/kubelet",
                  "nvidia-smi": "/home/kubernetes/bin/nvidia/bin/nvidia-smi"},
        absent={"kubectl", "nvidia-ctk", "nvidia-container-cli"}),
    "openshift": dict(
        kubelet_unit="kubelet.service", kubelet_ident="kubelet", kubelet_exe="/usr/bin/kubelet",
        kubeconfig="/var/lib/kubelet/kubeconfig", kubelet_config="/etc/kubernetes/kubelet.conf",
        runtime_unit="crio.service", containerd_config=None,
        off_path={}, absent={"containerd", "kubectl"}),
    "k3s": dict(
        kubelet_unit="k3s-agent.service", kubelet_ident="k3s", kubelet_exe="/usr/local/bin/k3s",
        kubeconfig="/var/lib/rancher/k3s/agent/kubelet.kubeconfig", kubelet_config=None,
        runtime_unit=None, containerd_config="/var/lib/rancher/k3s/agent/etc/containerd/config.toml",
        containerd_log="/var/lib/rancher/k3s/agent/containerd/containerd.log",
        off_path={}, absent={"kubelet", "containerd"}),
    "rke2": dict(
        kubelet_unit="rke2-agent.service", kubelet_ident="rke2", kubelet_exe="/usr/local/bin/rke2",
        kubelet_log="/var/lib/rancher/rke2/agent/logs/kubelet.log",
        kubeconfig="/var/lib/rancher/rke2/agent/kubelet.kubeconfig", kubelet_config=None,
        runtime_unit=None, containerd_config="/var/lib/rancher/rke2/agent/etc/containerd/config.toml",
        containerd_log="/var/lib/rancher/rke2/agent/containerd/containerd.log",
        off_path={"crictl": "/var/lib/rancher/rke2/bin/crictl", "kubectl": "/var/lib/rancher/rke2/bin/kubectl",
                  "containerd": "/var/lib/rancher/rke2/bin/containerd", "runc": "/var/lib/rancher/rke2/bin/runc",
                  "kubelet": "/var/lib/rancher/rke2/bin/kubelet"},
        absent=set()),
}

UNIT_DESC = {
    "k3s-agent.service": "Lightweight Kubernetes",
    "rke2-agent.service": "Rancher Kubernetes Engine v2 (agent)",
    "crio.service": "Container Runtime Interface for OCI (CRI-O)",
    "nvidia-k8s-device-plugin.service": "Start NVIDIA kubernetes device plugin",
}


class Layout:
    def __init__(self, cfg):
        p = cfg.get("platform", {})
        # Scenarios without [platform] predate it: their hosts stay as they were.
        self.explicit = "platform" in cfg
        self.id = p.get("id", "kubeadm")
        self.__dict__.update(LAYOUTS[self.id])
        self.kubelet_log = LAYOUTS[self.id].get("kubelet_log")
        self.containerd_log = LAYOUTS[self.id].get("containerd_log")
        self.gpu_operator = p.get("gpu_operator", False)
        self.off_path = dict(self.off_path)
        self.absent = set(self.absent)
        if self.gpu_operator:
            # The driver and the toolkit live in their containers: nvidia-smi
            # in the driver's root, the toolkit under /usr/local/nvidia.
            self.off_path.update({
                "nvidia-smi": "/run/nvidia/driver/usr/bin/nvidia-smi",
                "nvidia-ctk": "/usr/local/nvidia/toolkit/nvidia-ctk",
                "nvidia-container-cli": "/usr/local/nvidia/toolkit/nvidia-container-cli"})

    # -- the kubelet's flags, as the platform writes them ----------------
    def kubelet_files(self, h):
        """{relative path: (text, mode)} of unit files and flag files."""
        node, pause = h.node_name, h.pause_image
        crt = "unix:///run/containerd/containerd.sock"
        files = {}
        if not self.explicit:
            return files
        if self.id in ("kubeadm", "ack"):
            extra = ""
            if self.id == "ack":
                extra = 'Environment="KUBELET_EXTRA_ARGS=--hostname-override=%s --provider-id=%s"\n' % (
                    node, h.cfg.get("k8s", {}).get("provider_id", ""))
            files["usr/lib/systemd/system/kubelet.service"] = (KUBEADM_BASE_UNIT, 0o644)
            files["etc/systemd/system/kubelet.service.d/10-kubeadm.conf"] = (
                KUBEADM_DROPIN.format(extra=extra), 0o644)
            files["var/lib/kubelet/kubeadm-flags.env"] = (
                'KUBELET_KUBEADM_ARGS="--container-runtime-endpoint=%s --pod-infra-container-image=%s"\n'
                % (crt, pause), 0o644)
        elif self.id == "eks-al2023":
            files["etc/systemd/system/kubelet.service"] = (EKS_UNIT, 0o644)
            # nodeadm writes KEY=value, unquoted (nodeadm/internal/kubelet/environment.go).
            files["etc/eks/kubelet/environment"] = (
                "NODEADM_KUBELET_ARGS=--node-ip=%s --hostname-override=%s --cloud-provider=external "
                "--image-credential-provider-bin-dir=/etc/eks/image-credential-provider "
                "--image-credential-provider-config=/etc/eks/image-credential-provider/config.json "
                "--kubeconfig=/var/lib/kubelet/kubeconfig --config=/etc/kubernetes/kubelet/config.json "
                "--node-labels=eks.amazonaws.com/nodegroup-image=ami-0b7d2c7c2f1a3e4d5,eks.amazonaws.com/capacityType=ON_DEMAND,eks.amazonaws.com/nodegroup=gpu\n"
                % (h.ip, node), 0o644)
        elif self.id == "bottlerocket":
            files[BR_SYSROOT_UNITS + "kubelet.service"] = (BR_KUBELET_UNIT, 0o644)
            files["etc/systemd/system/kubelet.service.d/exec-start.conf"] = (
                "[Service]\nExecStart=\nExecStart=/usr/bin/kubelet \\\n"
                "    --cloud-provider external \\\n    --kubeconfig /etc/kubernetes/kubelet/kubeconfig \\\n"
                "    --config /etc/kubernetes/kubelet/config \\\n"
                "    --container-runtime-endpoint=unix:///run/containerd/containerd.sock \\\n"
                "    --containerd=/run/containerd/containerd.sock \\\n    --root-dir /var/lib/kubelet \\\n"
                "    --cert-dir /var/lib/kubelet/pki \\\n    --node-ip ${NODE_IP} \\\n"
                "    --node-labels \"${NODE_LABELS}\" \\\n    --register-with-taints \"${NODE_TAINTS}\" \\\n"
                "    --pod-infra-container-image localhost/kubernetes/pause:0.1.0 \\\n"
                "    --runtime-cgroups=/runtime.slice/containerd.service\n", 0o644)
            files["etc/kubernetes/kubelet/env"] = (
                "NODE_IP=%s\nNODE_LABELS=\nNODE_TAINTS=\n" % h.ip, 0o644)
            files["etc/network/proxy.env"] = ("", 0o644)
            files[BR_SYSROOT_UNITS + "nvidia-k8s-device-plugin.service"] = (BR_PLUGIN_UNIT, 0o644)
            files["etc/systemd/system/nvidia-k8s-device-plugin.service.d/exec-start.conf"] = (
                "[Service]\nExecStart=\nExecStart=/usr/bin/nvidia-device-plugin "
                "--config-file=/etc/nvidia-k8s-device-plugin/settings.yaml\n", 0o644)
            files["etc/nvidia-k8s-device-plugin/settings.yaml"] = (
                "version: v1\nflags:\n  migStrategy: \"none\"\n  failOnInitError: true\n  plugin:\n"
                "    passDeviceSpecs: true\n    deviceListStrategy: \"volume-mounts\"\n"
                "    deviceIDStrategy: \"index\"\n", 0o644)
        elif self.id == "gke-cos":
            files["etc/systemd/system/kubelet.service"] = (
                "[Unit]\nDescription=Kubernetes kubelet\nRequires=network-online.target\n"
                "After=network-online.target\n\n[Service]\nRestart=always\nRestartSec=10\n"
                "EnvironmentFile=/etc/default/kubelet\n"
                "ExecStart=/home/kubernetes/bin/kubelet $KUBELET_OPTS\n\n[Install]\nWantedBy=multi-user.target\n",
                0o644)
            files["etc/default/kubelet"] = (
                'KUBELET_OPTS="--v=2 --cloud-provider=external --experimental-mounter-path=/home/kubernetes/containerized_mounter/mounter '
                "--cert-dir=/var/lib/kubelet/pki/ --kubeconfig=/var/lib/kubelet/kubeconfig "
                "--max-pods=110 --volume-plugin-dir=/home/kubernetes/flexvolume "
                "--bootstrap-kubeconfig=/var/lib/kubelet/bootstrap-kubeconfig --node-status-max-images=25 "
                "--container-runtime-endpoint=unix:///run/containerd/containerd.sock "
                '--runtime-cgroups=/system.slice/containerd.service --config /home/kubernetes/kubelet-config.yaml"\n',
                0o644)
        elif self.id == "openshift":
            # openshift/machine-config-operator templates/worker/01-worker-kubelet.
            files["etc/systemd/system/kubelet.service"] = (
                "[Unit]\nDescription=Kubernetes Kubelet\nWants=rpc-statd.service network-online.target\n"
                "Requires=crio.service kubelet-auto-node-size.service\n"
                "After=network-online.target crio.service kubelet-auto-node-size.service\n\n[Service]\n"
                "Type=notify\nExecStartPre=/bin/mkdir --parents /etc/kubernetes/manifests\n"
                "ExecStartPre=/bin/rm -f /var/lib/kubelet/cpu_manager_state\n"
                "EnvironmentFile=/etc/os-release\nEnvironmentFile=-/etc/kubernetes/kubelet-workaround\n"
                "EnvironmentFile=-/etc/kubernetes/kubelet-env\nEnvironmentFile=/etc/node-sizing.env\n\n"
                "ExecStart=/usr/bin/hyperkube \\\n    kubelet \\\n"
                "      --config=/etc/kubernetes/kubelet.conf \\\n"
                "      --bootstrap-kubeconfig=/etc/kubernetes/kubeconfig \\\n"
                "      --kubeconfig=/var/lib/kubelet/kubeconfig \\\n"
                "      --container-runtime-endpoint=/var/run/crio/crio.sock \\\n"
                "      --runtime-cgroups=/system.slice/crio.service \\\n"
                "      --node-labels=node-role.kubernetes.io/worker,node.openshift.io/os_id=${ID} \\\n"
                "      --node-ip=${KUBELET_NODE_IP} \\\n"
                "      --minimum-container-ttl-duration=6m0s \\\n"
                "      --volume-plugin-dir=/etc/kubernetes/kubelet-plugins/volume/exec \\\n"
                "      --cloud-provider=external \\\n"
                "      --hostname-override=${KUBELET_NODE_NAME} \\\n"
                "      --provider-id=${KUBELET_PROVIDERID} \\\n"
                "      --pod-infra-container-image=quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:8b75cbb25d16e48afd464eeaa6676ec6a181a1b5db455c57f5f466bf4c7bd319 \\\n"
                "      --system-reserved=cpu=${SYSTEM_RESERVED_CPU},memory=${SYSTEM_RESERVED_MEMORY} \\\n"
                "      --v=${KUBELET_LOG_LEVEL}\n\nRestart=always\nRestartSec=10\n\n[Install]\n"
                "WantedBy=multi-user.target\n", 0o644)
            files["etc/systemd/system/kubelet.service.d/01-kubens.conf"] = (
                "[Service]\nEnvironmentFile=-/run/kubens/env\n", 0o644)
            files["etc/systemd/system/kubelet.service.d/20-logging.conf"] = (
                '[Service]\nEnvironment="KUBELET_LOG_LEVEL=2"\n', 0o644)
            files["etc/systemd/system/kubelet.service.d/20-node-env.conf"] = (
                "[Service]\nEnvironmentFile=/etc/kubernetes/node.env\n", 0o644)
            files["etc/kubernetes/node.env"] = (
                "KUBELET_NODE_NAME=%s\nKUBELET_PROVIDERID=%s\n"
                % (node, h.cfg.get("k8s", {}).get("provider_id", "")), 0o644)
            files["etc/node-sizing.env"] = ("SYSTEM_RESERVED_MEMORY=1Gi\nSYSTEM_RESERVED_CPU=500m\n", 0o644)
            files["etc/crio/crio.conf.d/00-default"] = (
                '[crio]\ninternal_wipe = true\n\n[crio.runtime]\nselinux = true\nconmon = ""\n'
                'default_runtime = "crun"\n\n[crio.runtime.runtimes.crun]\nruntime_root = "/run/crun"\n'
                'allowed_annotations = ["io.containers.trace-syscall", "io.kubernetes.cri-o.Devices"]\n', 0o644)
        elif self.id == "k3s":
            files["etc/systemd/system/k3s-agent.service"] = (
                "[Unit]\nDescription=Lightweight Kubernetes\nDocumentation=https://k3s.io\nWants=network-online.target\n"
                "After=network-online.target\n\n[Install]\nWantedBy=multi-user.target\n\n[Service]\nType=notify\n"
                "EnvironmentFile=-/etc/default/%N\nEnvironmentFile=-/etc/sysconfig/%N\n"
                "EnvironmentFile=-/etc/systemd/system/k3s-agent.service.env\nKillMode=process\nDelegate=yes\n"
                "ExecStart=/usr/local/bin/k3s \\\n    agent\n", 0o644)
            files["etc/systemd/system/k3s-agent.service.env"] = (
                "K3S_URL='https://%s:6443'\n" % h.apiserver_ip, 0o600)
            files["etc/rancher/k3s/config.yaml"] = (
                "node-name: %s\nnode-label:\n  - nvidia.com/gpu.present=true\n" % node
                if h.cfg["platform"].get("node_name_in_config") else
                "node-label:\n  - nvidia.com/gpu.present=true\n", 0o600)
            files["var/lib/rancher/k3s/agent/etc/crictl.yaml"] = (
                "runtime-endpoint: unix:///run/k3s/containerd/containerd.sock\n", 0o644)
        elif self.id == "rke2":
            files["usr/local/lib/systemd/system/rke2-agent.service"] = (
                "[Unit]\nDescription=Rancher Kubernetes Engine v2 (agent)\nDocumentation=https://github.com/rancher/rke2#readme\n"
                "Wants=network-online.target\nAfter=network-online.target\nConflicts=rke2-server.service\n\n"
                "[Install]\nWantedBy=multi-user.target\n\n[Service]\nType=notify\n"
                "EnvironmentFile=-/etc/default/%N\nEnvironmentFile=-/etc/sysconfig/%N\n"
                "EnvironmentFile=-/usr/local/lib/systemd/system/%N.env\nKillMode=process\nDelegate=yes\n"
                "ExecStart=/usr/local/bin/rke2 agent\n", 0o644)
            files["etc/rancher/rke2/config.yaml"] = (
                "server: https://%s:9345\nnode-label:\n  - nvidia.com/gpu.present=true\n" % h.apiserver_ip, 0o600)
            files["var/lib/rancher/rke2/agent/etc/crictl.yaml"] = (
                "runtime-endpoint: unix:///run/k3s/containerd/containerd.sock\n", 0o644)
        return files

    def running_kubelet_line(self, h):
        """k3s and RKE2 log the kubelet's flags when they start it."""
        data = "/var/lib/rancher/%s" % ("k3s" if self.id == "k3s" else "rke2")
        return ("Running kubelet --address=0.0.0.0 --allowed-unsafe-sysctls=net.ipv4.ip_forward,net.ipv6.conf.all.forwarding "
                "--anonymous-auth=false --authentication-token-webhook=true --authorization-mode=Webhook "
                "--cgroup-driver=systemd --client-ca-file=%s/agent/client-ca.crt --cloud-provider=external "
                "--cluster-dns=10.43.0.10 --cluster-domain=cluster.local "
                "--container-runtime-endpoint=unix:///run/k3s/containerd/containerd.sock "
                "--containerd=/run/k3s/containerd/containerd.sock --eviction-hard=imagefs.available<5%%,nodefs.available<5%% "
                "--healthz-bind-address=127.0.0.1 --hostname-override=%s --kubeconfig=%s/agent/kubelet.kubeconfig "
                "--node-ip=%s --node-labels=nvidia.com/gpu.present=true --pod-manifest-path=%s/agent/pod-manifests "
                "--read-only-port=0 --resolv-conf=/run/systemd/resolve/resolv.conf --serialize-image-pulls=false "
                "--tls-cert-file=%s/agent/serving-kubelet.crt --tls-private-key-file=%s/agent/serving-kubelet.key"
                % (data, h.node_name, data, h.ip, data, data, data))
