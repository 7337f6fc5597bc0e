"""Pods, sandboxes and containers as containerd 1.6/1.7 + crictl show them.

crictl prints CRI messages with protojson (camelCase, int64 as strings,
createdAt in ps/pods as a unix-ns string) and `crictl inspect` renders the
status times as RFC3339Nano in the zone of the host running crictl.
"""
import json

from .clock import hexid

SYSTEM_ENV = ["PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"]


class Pod:
    def __init__(self, host, name, namespace, uid, kind, labels=None,
                 annotations=None, qos="besteffort", runtime_handler="",
                 host_network=True, owner=None):
        self.host = host
        self.name, self.namespace, self.uid = name, namespace, uid
        self.kind = kind          # static | daemonset | deployment | job
        self.labels = labels or {}
        self.annotations = annotations or {}
        self.qos = qos
        self.runtime_handler = runtime_handler
        self.host_network = host_network
        self.owner = owner
        self.sandboxes = []
        self.specs = {}           # container name -> ContainerSpec

    @property
    def uid_underscore(self):
        return self.uid.replace("-", "_")

    def slice_path(self):
        q = "" if self.qos == "guaranteed" else self.qos
        if self.host.cgroup_driver == "systemd":
            if q:
                return ("/kubepods.slice/kubepods-%s.slice/kubepods-%s-pod%s.slice"
                        % (q, q, self.uid_underscore))
            return "/kubepods.slice/kubepods-pod%s.slice" % self.uid_underscore
        return "/kubepods/%spod%s" % (q + "/" if q else "", self.uid)

    def cgroups_parent(self):
        q = "" if self.qos == "guaranteed" else self.qos
        if self.host.cgroup_driver == "systemd":
            return ("kubepods-%s-pod%s.slice" % (q, self.uid_underscore)) if q \
                else "kubepods-pod%s.slice" % self.uid_underscore
        return self.slice_path()

    def log_dir(self):
        return "/var/log/pods/%s_%s_%s" % (self.namespace, self.name, self.uid)


class ContainerSpec:
    def __init__(self, name, image, image_id, command=None, args=None, env=None,
                 secret_env=None, image_env=None, privileged=False, mounts=None,
                 gpu_env=None, resources=None, caps_drop_all=False, init=False):
        self.name, self.image, self.image_id = name, image, image_id
        self.command = command or []
        self.args = args or []
        self.env = env or []              # (key, value) from the pod spec
        self.secret_env = secret_env or []  # (key, value) resolved from secrets
        self.image_env = image_env or []  # "K=V" baked into the image
        self.privileged = privileged
        self.mounts = mounts or []        # (container_path, host_path, readonly)
        self.gpu_env = gpu_env or []      # env added by the device plugin Allocate
        self.resources = resources or {}
        self.caps_drop_all = caps_drop_all
        self.init = init                  # an init container: runs once, completes


class Sandbox:
    def __init__(self, pod, attempt, created_ns, boot):
        self.pod, self.attempt, self.created_ns, self.boot = pod, attempt, created_ns, boot
        self.id = hexid(pod.host.seed, "sandbox", pod.uid, attempt)
        self.state = "SANDBOX_READY"
        self.pid = 0


class Container:
    def __init__(self, sandbox, spec, attempt, created_ns, boot):
        self.sandbox, self.spec, self.attempt = sandbox, spec, attempt
        self.pod = sandbox.pod
        self.created_ns = created_ns
        self.started_ns = 0
        self.finished_ns = 0
        self.state = "CONTAINER_CREATED"
        self.exit_code = 0
        self.reason = ""
        self.message = ""
        self.pid = 0
        self.boot = boot
        self.id = hexid(sandbox.pod.host.seed, "container", self.pod.uid,
                        spec.name, attempt, created_ns)
        self.log = []          # (ns, stream, text)
        self.removed = False
        self.devices_lost_at = None   # us of a daemon-reload that dropped GPU rules
        self.exec_nvidia_smi = None   # override: ok | unknown | notfound
        self.gpu_uuids = []           # GPUs the legacy hook injected

    @property
    def log_path(self):
        return "%s/%s/%d.log" % (self.pod.log_dir(), self.spec.name, self.attempt)

    def running(self):
        return self.state == "CONTAINER_RUNNING"

    def scope_name(self):
        return "cri-containerd-%s.scope" % self.id

    def cgroups_path(self):
        if self.pod.host.cgroup_driver == "systemd":
            return "%s:cri-containerd:%s" % (self.pod.cgroups_parent(), self.id)
        return "%s/%s" % (self.pod.slice_path(), self.id)

    def cgroup_dir(self):
        if self.pod.host.cgroup_driver == "systemd":
            return "%s/%s" % (self.pod.slice_path(), self.scope_name())
        return "%s/%s" % (self.pod.slice_path(), self.id)


# ---------------------------------------------------------------------------
def k8s_labels(c):
    return {"io.kubernetes.container.name": c.spec.name,
            "io.kubernetes.pod.name": c.pod.name,
            "io.kubernetes.pod.namespace": c.pod.namespace,
            "io.kubernetes.pod.uid": c.pod.uid}


def k8s_annotations(c):
    return {"io.kubernetes.container.hash": hexid(c.pod.uid, c.spec.name, n=8),
            "io.kubernetes.container.restartCount": str(c.attempt),
            "io.kubernetes.container.terminationMessagePath": "/dev/termination-log",
            "io.kubernetes.container.terminationMessagePolicy": "File",
            "io.kubernetes.pod.terminationGracePeriod": "30"}


def ps_json(containers):
    items = []
    for c in sorted(containers, key=lambda c: -c.created_ns):
        items.append({
            "id": c.id, "podSandboxId": c.sandbox.id,
            "metadata": {"name": c.spec.name, "attempt": c.attempt},
            "image": {"image": c.spec.image_id, "annotations": {},
                      "userSpecifiedImage": ""},
            "imageRef": c.spec.image_id, "state": c.state,
            "createdAt": str(c.created_ns), "labels": k8s_labels(c),
            "annotations": k8s_annotations(c)})
    return json.dumps({"containers": items}, indent=2) + "\n"


def pods_json(sandboxes):
    items = []
    for s in sorted(sandboxes, key=lambda s: -s.created_ns):
        p = s.pod
        labels = dict(p.labels)
        labels.update({"io.kubernetes.pod.name": p.name,
                       "io.kubernetes.pod.namespace": p.namespace,
                       "io.kubernetes.pod.uid": p.uid})
        ann = dict(p.annotations)
        items.append({
            "id": s.id,
            "metadata": {"name": p.name, "uid": p.uid,
                         "namespace": p.namespace, "attempt": s.attempt},
            "state": s.state, "createdAt": str(s.created_ns),
            "labels": dict(sorted(labels.items())),
            "annotations": dict(sorted(ann.items())),
            "runtimeHandler": p.runtime_handler})
    return json.dumps({"items": items}, indent=2) + "\n"


def _mount_status(cp, hp, ro):
    return {"containerPath": cp, "hostPath": hp,
            "propagation": "PROPAGATION_PRIVATE", "readonly": ro,
            "selinuxRelabel": False, "uidMappings": [], "gidMappings": []}


def inspect_json(host, c):
    clk = host.clock
    zero = "0001-01-01T00:00:00Z"
    sp = c.spec
    pod = c.pod
    mounts = list(sp.mounts)
    sa = "/var/lib/kubelet/pods/%s/volumes/kubernetes.io~projected/kube-api-access-%s" % (
        pod.uid, hexid(pod.uid, "kapi", n=5))
    if pod.kind != "static":
        mounts.append(("/var/run/secrets/kubernetes.io/serviceaccount", sa, True))
    mounts += [("/etc/hosts", "/var/lib/kubelet/pods/%s/etc-hosts" % pod.uid, False),
               ("/dev/termination-log", "/var/lib/kubelet/pods/%s/containers/%s/%s"
                % (pod.uid, sp.name, hexid(c.id, "tl", n=8)), False)]
    env_pairs = list(sp.env) + list(sp.secret_env) + service_env(host)
    status = {
        "id": c.id,
        "metadata": {"attempt": c.attempt, "name": sp.name},
        "state": c.state,
        "createdAt": clk.rfc3339nano(c.created_ns),
        "startedAt": clk.rfc3339nano(c.started_ns) if c.started_ns else zero,
        "finishedAt": clk.rfc3339nano(c.finished_ns) if c.finished_ns else zero,
        "exitCode": c.exit_code,
        "image": {"annotations": {}, "image": sp.image, "userSpecifiedImage": ""},
        "imageRef": sp.image.split(":")[0] + "@sha256:" + hexid(sp.image, "digest"),
        "reason": c.reason, "message": c.message,
        "labels": k8s_labels(c), "annotations": k8s_annotations(c),
        "mounts": [_mount_status(*m) for m in mounts],
        "logPath": c.log_path,
        "resources": {"linux": {"cpuPeriod": "100000", "cpuQuota": "0",
                                "cpuShares": "2", "cpusetCpus": "",
                                "cpusetMems": "", "hugepageLimits": [],
                                "memoryLimitInBytes": "0",
                                "memorySwapLimitInBytes": "0",
                                "oomScoreAdj": "-997" if pod.kind == "static" else "1000",
                                "unified": {}}, "windows": None}}
    if host.containerd_minor < 7:
        # containerd 1.6 CRI does not fill status.resources.
        del status["resources"]
    runtime = host.runtime_for(pod)
    opts = {"systemd_cgroup": True} if host.cgroup_driver == "systemd" else {}
    if runtime == "nvidia":
        opts = dict({"binary_name": "/usr/bin/nvidia-container-runtime"}, **opts)
    sec = {"namespace_options": {"network": 2} if pod.host_network else {},
           "run_as_user": {}, "seccomp": {"profile_type": 1}}
    if sp.privileged:
        sec["privileged"] = True
    elif sp.caps_drop_all:
        sec["capabilities"] = {"drop_capabilities": ["ALL"]}
        sec["no_new_privs"] = True
    config = {
        "metadata": {"name": sp.name, "attempt": c.attempt},
        "image": {"image": sp.image_id},
        "command": sp.command, "args": sp.args,
        "envs": [{"key": k, "value": v} for k, v in env_pairs],
        "mounts": [dict({"container_path": m[0], "host_path": m[1]},
                        **({"readonly": True} if m[2] else {})) for m in mounts],
        "labels": k8s_labels(c), "annotations": k8s_annotations(c),
        "log_path": "%s/%d.log" % (sp.name, c.attempt),
        "linux": {"resources": {"cpu_period": 100000, "cpu_shares": 2,
                                "oom_score_adj": -997 if pod.kind == "static" else 1000,
                                "hugepage_limits": [{"page_size": "2MB"},
                                                    {"page_size": "1GB"}]},
                  "security_context": sec}}
    if not sp.command:
        del config["command"]
    if not sp.args:
        del config["args"]
    proc_env = (SYSTEM_ENV + ["HOSTNAME=" + (host.hostname if pod.host_network else pod.name)]
                + list(sp.image_env) + ["%s=%s" % kv for kv in env_pairs]
                + list(sp.gpu_env))
    spec = {
        "ociVersion": "1.1.0-rc.1" if host.containerd_minor >= 7 else "1.0.2-dev",
        "process": {"user": {"uid": 0, "gid": 0},
                    "args": (sp.command or ["/usr/bin/" + sp.name]) + sp.args,
                    "env": proc_env, "cwd": "/",
                    "capabilities": caps(sp),
                    "oomScoreAdj": -997 if pod.kind == "static" else 1000},
        "root": {"path": "rootfs"},
        "mounts": oci_mounts(c, mounts),
        "annotations": {
            "io.kubernetes.cri.container-name": sp.name,
            "io.kubernetes.cri.container-type": "container",
            "io.kubernetes.cri.image-name": sp.image,
            "io.kubernetes.cri.sandbox-id": c.sandbox.id,
            "io.kubernetes.cri.sandbox-name": pod.name,
            "io.kubernetes.cri.sandbox-namespace": pod.namespace,
            "io.kubernetes.cri.sandbox-uid": pod.uid},
        "linux": {"resources": {"devices": device_rules(sp),
                                "cpu": {"shares": 2, "period": 100000}},
                  "cgroupsPath": c.cgroups_path(),
                  "namespaces": namespaces(c),
                  "maskedPaths": [] if sp.privileged else MASKED,
                  "readonlyPaths": [] if sp.privileged else READONLY}}
    if sp.privileged:
        spec["linux"]["devices"] = []
    if host.cdi_devices_for(c):
        spec["linux"]["devices"] = host.cdi_devices_for(c)
        spec["linux"]["resources"]["devices"] += [
            {"allow": True, "type": "c", "major": d["major"], "minor": d["minor"],
             "access": "rwm"} for d in spec["linux"]["devices"]]
        spec["annotations"]["cdi.k8s.io/devices-plugin"] = "nvidia.com/gpu=all"
    info = {"sandboxID": c.sandbox.id, "pid": c.pid if c.running() else 0,
            "removing": False, "snapshotKey": c.id, "snapshotter": "overlayfs",
            "runtimeType": "io.containerd.runc.v2", "runtimeOptions": opts,
            "config": config, "runtimeSpec": spec}
    return json.dumps({"status": status, "info": info}, indent=2) + "\n"


def service_env(host):
    ip = host.service_ip
    return [("KUBERNETES_SERVICE_HOST", ip), ("KUBERNETES_SERVICE_PORT", "443"),
            ("KUBERNETES_SERVICE_PORT_HTTPS", "443"),
            ("KUBERNETES_PORT", "tcp://%s:443" % ip),
            ("KUBERNETES_PORT_443_TCP", "tcp://%s:443" % ip),
            ("KUBERNETES_PORT_443_TCP_PROTO", "tcp"),
            ("KUBERNETES_PORT_443_TCP_PORT", "443"),
            ("KUBERNETES_PORT_443_TCP_ADDR", ip)]


MASKED = ["/proc/asound", "/proc/acpi", "/proc/kcore", "/proc/keys",
          "/proc/latency_stats", "/proc/timer_list", "/proc/timer_stats",
          "/proc/sched_debug", "/proc/scsi", "/sys/firmware"]
READONLY = ["/proc/bus", "/proc/fs", "/proc/irq", "/proc/sys",
            "/proc/sysrq-trigger"]
DEFAULT_CAPS = ["CAP_CHOWN", "CAP_DAC_OVERRIDE", "CAP_FSETID", "CAP_FOWNER",
                "CAP_MKNOD", "CAP_NET_RAW", "CAP_SETGID", "CAP_SETUID",
                "CAP_SETFCAP", "CAP_SETPCAP", "CAP_NET_BIND_SERVICE",
                "CAP_SYS_CHROOT", "CAP_KILL", "CAP_AUDIT_WRITE"]


def caps(sp):
    if sp.privileged:
        allc = DEFAULT_CAPS + ["CAP_SYS_ADMIN", "CAP_SYS_MODULE", "CAP_NET_ADMIN"]
        return {k: allc for k in ("bounding", "effective", "permitted")}
    if sp.caps_drop_all:
        return {}
    return {k: DEFAULT_CAPS for k in ("bounding", "effective", "permitted")}


def device_rules(sp):
    if sp.privileged:
        return [{"allow": True, "access": "rwm"}]
    return [{"allow": False, "access": "rwm"}]


def namespaces(c):
    pid = c.sandbox.pid
    ns = [{"type": "pid"}, {"type": "ipc", "path": "/proc/%d/ns/ipc" % pid},
          {"type": "uts", "path": "/proc/%d/ns/uts" % pid}, {"type": "mount"}]
    if not c.pod.host_network:
        ns.append({"type": "network", "path": "/proc/%d/ns/net" % pid})
    return ns


def oci_mounts(c, mounts):
    sb = c.sandbox.id
    out = [
        {"destination": "/proc", "type": "proc", "source": "proc",
         "options": ["nosuid", "noexec", "nodev"]},
        {"destination": "/dev", "type": "tmpfs", "source": "tmpfs",
         "options": ["nosuid", "strictatime", "mode=755", "size=65536k"]},
        {"destination": "/dev/pts", "type": "devpts", "source": "devpts",
         "options": ["nosuid", "noexec", "newinstance", "ptmxmode=0666",
                     "mode=0620", "gid=5"]},
        {"destination": "/dev/mqueue", "type": "mqueue", "source": "mqueue",
         "options": ["nosuid", "noexec", "nodev"]},
        {"destination": "/sys", "type": "sysfs", "source": "sysfs",
         "options": ["nosuid", "noexec", "nodev", "ro"]},
        {"destination": "/sys/fs/cgroup", "type": "cgroup", "source": "cgroup",
         "options": ["nosuid", "noexec", "nodev", "relatime", "ro"]}]
    for cp, hp, ro in mounts:
        out.append({"destination": cp, "type": "bind", "source": hp,
                    "options": ["rbind", "rprivate", "ro" if ro else "rw"]})
    for name in ("hostname", "resolv.conf"):
        out.append({"destination": "/etc/" + name, "type": "bind",
                    "source": "/var/lib/containerd/io.containerd.grpc.v1.cri/sandboxes/%s/%s" % (sb, name),
                    "options": ["rbind", "rprivate", "rw"]})
    out.append({"destination": "/dev/shm", "type": "bind",
                "source": "/run/containerd/io.containerd.grpc.v1.cri/sandboxes/%s/shm" % sb,
                "options": ["rbind", "rprivate", "rw"]})
    return out


def info_json(host):
    """crictl info -o json for containerd 1.6/1.7 (CRI plugin config dump)."""
    rt = {}
    for name in host.runtime_names():
        opts = {"SystemdCgroup": host.cgroup_driver == "systemd"}
        if name == "nvidia":
            opts = {"BinaryName": "/usr/bin/nvidia-container-runtime",
                    "SystemdCgroup": host.runtime_systemd_cgroup("nvidia")}
        rt[name] = {"runtimeType": "io.containerd.runc.v2", "runtimePath": "",
                    "runtimeEngine": "", "PodAnnotations": None,
                    "ContainerAnnotations": None, "runtimeRoot": "",
                    "options": opts, "privileged_without_host_devices": False,
                    "privileged_without_host_devices_all_devices_allowed": False,
                    "baseRuntimeSpec": "", "cniConfDir": "", "cniMaxConfNum": 0,
                    "snapshotter": "", "sandboxMode": "podsandbox"}
    reg_host = host.registry_host
    cfg = {
        "containerd": {"snapshotter": "overlayfs",
                       "defaultRuntimeName": host.default_runtime,
                       "defaultRuntime": {"runtimeType": "", "runtimePath": "",
                                          "runtimeEngine": "", "PodAnnotations": None,
                                          "ContainerAnnotations": None,
                                          "runtimeRoot": "", "options": None,
                                          "privileged_without_host_devices": False,
                                          "privileged_without_host_devices_all_devices_allowed": False,
                                          "baseRuntimeSpec": "", "cniConfDir": "",
                                          "cniMaxConfNum": 0, "snapshotter": "",
                                          "sandboxMode": ""},
                       "untrustedWorkloadRuntime": {"runtimeType": "", "runtimePath": "",
                                                    "runtimeEngine": "", "PodAnnotations": None,
                                                    "ContainerAnnotations": None,
                                                    "runtimeRoot": "", "options": None,
                                                    "privileged_without_host_devices": False,
                                                    "privileged_without_host_devices_all_devices_allowed": False,
                                                    "baseRuntimeSpec": "", "cniConfDir": "",
                                                    "cniMaxConfNum": 0, "snapshotter": "",
                                                    "sandboxMode": ""},
                       "runtimes": rt, "noPivot": False,
                       "disableSnapshotAnnotations": True,
                       "discardUnpackedLayers": False,
                       "ignoreBlockIONotEnabledErrors": False,
                       "ignoreRdtNotEnabledErrors": False},
        "cni": {"binDir": "/opt/cni/bin", "confDir": "/etc/cni/net.d",
                "maxConfNum": 1, "setupSerially": False, "confTemplate": "",
                "ipPref": ""},
        "registry": {"configPath": "", "mirrors": {
            "docker.io": {"endpoint": ["https://registry-1.docker.io"]}},
            "configs": {reg_host: {"auth": {"username": "puller",
                                            "password": host.canary("registry-password"),
                                            "auth": "", "identitytoken": ""},
                                   "tls": None}},
            "auths": None, "headers": None},
        "imageDecryption": {"keyModel": "node"},
        "disableTCPService": True, "streamServerAddress": "127.0.0.1",
        "streamServerPort": "0", "streamIdleTimeout": "4h0m0s",
        "enableSelinux": False, "selinuxCategoryRange": 1024,
        "sandboxImage": host.pause_image, "statsCollectPeriod": 10,
        "systemdCgroup": False, "enableTLSStreaming": False,
        "x509KeyPairStreaming": {"tlsCertFile": "", "tlsKeyFile": ""},
        "maxContainerLogSize": 16384, "disableCgroup": False,
        "disableApparmor": False, "restrictOOMScoreAdj": False,
        "maxConcurrentDownloads": 3, "disableProcMount": False,
        "unsetSeccompProfile": "", "tolerateMissingHugetlbController": True,
        "disableHugetlbController": True, "device_ownership_from_security_context": False,
        "ignoreImageDefinedVolumes": False, "netnsMountsUnderStateDir": False,
        "enableUnprivilegedPorts": False, "enableUnprivilegedICMP": False,
        "enableCDI": host.enable_cdi, "cdiSpecDirs": ["/etc/cdi", "/var/run/cdi"],
        "imagePullProgressTimeout": "5m0s", "drainExecSyncIOTimeout": "0s",
        "containerdRootDir": "/var/lib/containerd",
        "containerdEndpoint": "/run/containerd/containerd.sock",
        "rootDir": "/var/lib/containerd/io.containerd.grpc.v1.cri",
        "stateDir": "/run/containerd/io.containerd.grpc.v1.cri"}
    doc = {"status": {"conditions": [
        {"type": "RuntimeReady", "status": True, "reason": "", "message": ""},
        {"type": "NetworkReady", "status": True, "reason": "", "message": ""}]},
        "cniconfig": {"PluginDirs": ["/opt/cni/bin"], "PluginConfDir": "/etc/cni/net.d",
                      "PluginMaxConfNum": 1, "Prefix": "eth", "Networks": []},
        "config": cfg, "golang": host.containerd_go,
        "lastCNILoadStatus": "OK", "lastCNILoadStatus.default": "OK"}
    return json.dumps(doc, indent=2) + "\n"
