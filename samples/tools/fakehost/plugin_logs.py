"""NVIDIA k8s-device-plugin log lines, by plugin version.

Wording follows the version table in the research catalog (known-issues.md
section 2). Each function returns records (delta_us, severity, src, message);
a message may hold newlines (multi-line klog/Go-log writes). render() turns
records into container-side lines: Go 'log' prefix (v0.9-v0.13) or klog
header (v0.14+), both in the container's zone (UTC).
"""
import json

from .clock import utc_golog, utc_klog

SOCK = "/var/lib/kubelet/device-plugins/nvidia-gpu.sock"
KSOCK = "/var/lib/kubelet/device-plugins/kubelet.sock"
RES = "nvidia.com/gpu"

HINTS_OLD = [
    "If this is a GPU node, did you set the docker default runtime to `nvidia`?",
    "You can check the prerequisites at: https://github.com/NVIDIA/k8s-device-plugin#prerequisites",
    "You can learn how to set the runtime at: https://github.com/NVIDIA/k8s-device-plugin#quick-start",
    "If this is not a GPU node, you should set up a toleration or nodeSelector to only deploy this plugin on GPU nodes",
]
HINTS_TOOLKIT = [
    "If this is a GPU node, did you configure the NVIDIA Container Toolkit?",
    "You can check the prerequisites at: https://github.com/NVIDIA/k8s-device-plugin#prerequisites",
    "You can learn how to set the runtime at: https://github.com/NVIDIA/k8s-device-plugin#quick-start",
    "If this is not a GPU node, you should set up a toleration or nodeSelector to only deploy this plugin on GPU nodes",
]


def vtuple(v):
    return tuple(int(x) for x in v.lstrip("v").split("-")[0].split(".")[:3])


class PluginVersion:
    def __init__(self, version, commit="", mig_strategy="none",
                 fail_on_init_error=True, pass_device_specs=False,
                 device_list_strategy="envvar", null_manager_line=None, flavor="nvidia",
                 replicas=0):
        self.flavor = flavor      # "nvidia" (k8s-device-plugin) | "gke" (nvidia-gpu-device-plugin)
        self.replicas = replicas  # time-slicing replicas per GPU, 0 when not shared
        self.version = version
        self.v = vtuple(version)
        self.commit = commit
        self.mig_strategy = mig_strategy
        self.fail_on_init_error = fail_on_init_error
        self.pass_device_specs = pass_device_specs
        self.device_list_strategy = device_list_strategy
        # v0.9 upstream blocks silently after the NVML hints; some vendor
        # builds print the 'No devices found' line there too.
        self.resources = [RES]
        self.null_manager_line = (self.v >= (0, 12, 0)
                                  if null_manager_line is None else null_manager_line)

    @property
    def klog(self):
        return self.flavor == "gke" or self.v >= (0, 14, 0)

    def retrieve_msg(self):
        return "Retrieving plugins." if self.v >= (0, 15, 0) else "Retreiving plugins."

    def nvml_error(self, kind):
        """How 'Failed to initialize NVML: %v.' renders the NVML return."""
        old = {"unknown": "nvml: Unknown Error",
               "mismatch": "nvml: Driver/library version mismatch",
               "nolib": "could not load NVML library",
               "lost": "nvml: GPU is lost"}
        mid = {"unknown": "ERROR_UNKNOWN",
               "mismatch": "ERROR_LIB_RM_VERSION_MISMATCH",
               "nolib": "ERROR_LIBRARY_NOT_FOUND", "lost": "ERROR_GPU_IS_LOST"}
        new = {"unknown": "Unknown Error",
               "mismatch": "RM has detected an NVML/RM version mismatch.",
               "nolib": "ERROR_LIBRARY_NOT_FOUND", "lost": "GPU is lost"}
        if self.v < (0, 13, 0):
            return old[kind]
        if self.v < (0, 16, 0):
            return mid[kind]
        return new[kind]

    def config_json(self):
        flags = {"migStrategy": self.mig_strategy,
                 "failOnInitError": self.fail_on_init_error}
        if self.v >= (0, 15, 0):
            flags["mpsRoot"] = "/run/nvidia/mps" if self.v >= (0, 15, 0) and self.fail_on_init_error else ""
        flags["nvidiaDriverRoot"] = "/"
        if self.v >= (0, 16, 0):
            flags["nvidiaDevRoot"] = "/"
        flags["gdsEnabled"] = False
        flags["mofedEnabled"] = False
        if self.v >= (0, 15, 0):
            flags["useNodeFeatureAPI"] = None
        if self.v >= (0, 16, 0):
            flags["deviceDiscoveryStrategy"] = "auto"
        plugin = {"passDeviceSpecs": self.pass_device_specs}
        if self.v >= (0, 14, 0):
            plugin["deviceListStrategy"] = [self.device_list_strategy]
        else:
            plugin["deviceListStrategy"] = self.device_list_strategy
        plugin["deviceIDStrategy"] = "uuid"
        if self.v >= (0, 14, 0):
            plugin["cdiAnnotationPrefix"] = "cdi.k8s.io/"
            plugin["nvidiaCTKPath"] = "/usr/bin/nvidia-ctk"
            plugin["containerDriverRoot"] = "/driver-root"
        flags["plugin"] = plugin
        cfg = {"version": "v1", "flags": flags,
               "resources": {"gpus": [{"pattern": "*", "name": RES}]},
               "sharing": {"timeSlicing": {}}}
        if self.replicas:
            cfg["sharing"]["timeSlicing"] = {"resources": [{"name": RES, "replicas": self.replicas}]}
        if self.mig_strategy == "mixed":
            cfg["resources"]["mig"] = [
                {"pattern": r.split("mig-", 1)[1], "name": r}
                for r in self.resources if "/mig-" in r]
        if self.v >= (0, 17, 0):
            cfg["imex"] = {}
        return json.dumps(cfg, indent=2)

    # -- sources ---------------------------------------------------------
    def src(self, key):
        if self.v >= (0, 17, 0):
            t = dict(banner="main.go:235", fsw="main.go:238", osw="main.go:245",
                     plugins="main.go:260", loadcfg="main.go:317",
                     update="main.go:342", running="main.go:353",
                     retrieve="main.go:356", nodev="main.go:367",
                     inotify="main.go:288", stopping="main.go:397",
                     factory="factory.go:112", factoryw="factory.go:113",
                     grpc="server.go:195", serve="server.go:139",
                     registered="server.go:146", stopserve="server.go:176",
                     unhealthy="server.go:270", health="health.go:159",
                     xid="health.go:185", handle="health.go:94",
                     rmw="rm.go:108")
        elif self.v >= (0, 16, 0):
            t = dict(fsw="main.go:199", osw="main.go:206", plugins="main.go:221",
                     loadcfg="main.go:278", update="main.go:303",
                     running="main.go:314", retrieve="main.go:317",
                     nodev="main.go:328", inotify="main.go:246",
                     stopping="main.go:353", factory="factory.go:107",
                     factoryw="factory.go:108", grpc="server.go:216",
                     serve="server.go:147", registered="server.go:154",
                     stopserve="server.go:185", unhealthy="server.go:245",
                     health="health.go:151", xid="health.go:177",
                     handle="health.go:91", rmw="rm.go:106")
        else:
            t = dict(fsw="main.go:178", osw="main.go:185", plugins="main.go:200",
                     loadcfg="main.go:256", update="main.go:279",
                     running="main.go:290", retrieve="main.go:293",
                     nodev="main.go:304", inotify="main.go:225",
                     stopping="main.go:331", factory="factory.go:95",
                     factoryw="factory.go:96", detect="factory.go:88",
                     grpc="server.go:165", serve="server.go:125",
                     registered="server.go:133", stopserve="server.go:160",
                     unhealthy="server.go:245", health="health.go:145",
                     xid="health.go:171", handle="health.go:91", rmw="rm.go:103")
        return t.get(key, "main.go:1")


def R(dt, msg, sev="I", src="main"):
    return (dt, sev, src, msg)


def sock_for(res):
    return "/var/lib/kubelet/device-plugins/nvidia-%s.sock" % res.split("/", 1)[1]


def _serve(pv, t0, devices_ok=True):
    recs = []
    for i, res in enumerate(pv.resources):
        t = t0 + i * 5_300
        recs += [R(t, "Starting GRPC server for '%s'" % res, src="grpc"),
                 R(t + 1100, "Starting to serve '%s' on %s" % (res, sock_for(res)), src="serve"),
                 R(t + 3600, "Registered device plugin for '%s' with Kubelet" % res,
                   src="registered")]
    return recs


def serve_span(pv):
    return (len(pv.resources) - 1) * 5_300 + 3600


def gke_start_records(pv, outcome, t0_unix):
    """GKE's nvidia-gpu-device-plugin (GoogleCloudPlatform/container-engine-accelerators
    @992db81: cmd/nvidia_gpu/nvidia_gpu.go, pkg/gpu/nvidia/manager.go): NVML
    failure is fatal; kubelet.sock found is logged before the server starts,
    the registration only after it serves."""
    sock = "/device-plugin/nvidiaGPU-%d.sock" % t0_unix
    r = [R(0, "device-plugin started", src="nvidia_gpu.go:112"),
         R(180, "Reading GPU config file: /etc/nvidia/gpu_config.json", src="nvidia_gpu.go:119")]
    if outcome in ("unknown", "mismatch", "nolib", "lost"):
        err = {"unknown": "Unknown Error", "mismatch": "Driver/library version mismatch",
               "nolib": "ERROR_LIBRARY_NOT_FOUND", "lost": "GPU is lost"}[outcome]
        r.append(R(2100, "failed to initialize nvml: %s" % err, sev="F", src="nvidia_gpu.go:157"))
        return r, "exit"
    r += [R(91200, "Starting GPU Health Checker", src="health_checker.go:174"),
          R(92600, "registered with kubelet, will use beta API", src="manager.go:447"),
          R(92700, "Starting filesystem watcher.", src="manager.go:456"),
          R(92800, "starting device-plugin server at: %s" % sock, src="manager.go:466"),
          R(1093100, "device-plugin server started serving", src="manager.go:493"),
          R(1096400, "device-plugin registered with the kubelet", src="manager.go:501")]
    return r, 1096400


def start_records(pv, outcome, t0_unix=0):
    """Records for one plugin process start. outcome: ok | unknown | mismatch
    | nolib | zero. Returns (records, registered_delta_us or None)."""
    if pv.flavor == "gke":
        return gke_start_records(pv, outcome, t0_unix)
    r = []
    nvml_fail = outcome in ("unknown", "mismatch", "nolib", "lost")
    if pv.v < (0, 12, 0):
        r.append(R(0, "Loading NVML"))
        if nvml_fail:
            r.append(R(1843, "Failed to initialize NVML: %s." % pv.nvml_error(outcome)))
            for i, h in enumerate(HINTS_OLD):
                r.append(R(1871 + 9 * i, h))
            if pv.null_manager_line:
                r.append(R(1960, "No devices found. Waiting indefinitely."))
            return r, None
        r += [R(81240, "Starting FS watcher."), R(81402, "Starting OS watcher."),
              R(81655, pv.retrieve_msg())]
        if outcome == "zero":
            r.append(R(117300, "No devices found. Waiting indefinitely."))
            return r, None
        r += _serve(pv, 402117)
        return r, 402117 + serve_span(pv)
    if pv.v < (0, 14, 0):
        r += [R(0, "Starting FS watcher."), R(121, "Starting OS watcher."),
              R(393, "Starting Plugins."), R(410, "Loading configuration."),
              R(1322, "Initializing NVML.")]
        t = 1322
        if nvml_fail:
            r.append(R(t + 2400, "Failed to initialize NVML: %s." % pv.nvml_error(outcome)))
            for i, h in enumerate(HINTS_OLD):
                r.append(R(t + 2431 + 8 * i, h))
            t += 2500
        r += [R(t + 640, "Updating config with default resource matching patterns."),
              R(t + 790, "\nRunning with config:\n" + pv.config_json()),
              R(t + 812, pv.retrieve_msg())]
        if nvml_fail or outcome == "zero":
            r.append(R(t + 1290, "No devices found. Waiting indefinitely."))
            return r, None
        r += _serve(pv, t + 31800)
        return r, t + 31800 + serve_span(pv)
    # klog era (v0.14+)
    t = 0
    if pv.v >= (0, 17, 0):
        r.append(R(0, '"Starting NVIDIA Device Plugin" version=<\n\t%s\n\tcommit: %s\n >'
                   % (pv.commit[:8], pv.commit), src="banner"))
        r.append(R(66, "Starting FS watcher for /var/lib/kubelet/device-plugins", src="fsw"))
        t = 66
    else:
        r.append(R(0, "Starting FS watcher.", src="fsw"))
    r += [R(t + 46, "Starting OS watcher.", src="osw"),
          R(t + 323, "Starting Plugins.", src="plugins"),
          R(t + 347, "Loading configuration.", src="loadcfg"),
          R(t + 1209, "Updating config with default resource matching patterns.", src="update")]
    if outcome == "nolib" and pv.v >= (0, 17, 0) and pv.mig_strategy == "mixed":
        r += [R(t + 1297, 'mig-strategy="mixed" is only supported with NVML', sev="W", src="rmw"),
              R(t + 1311, "NVML not detected: could not load NVML library: libnvidia-ml.so.1: cannot open shared object file: No such file or directory", sev="W", src="rmw")]
    r += [R(t + 1447, "\nRunning with config:\n" + pv.config_json(), src="running"),
          R(t + 1461, pv.retrieve_msg(), src="retrieve")]
    t += 1461
    if pv.v < (0, 16, 0):
        if outcome == "nolib":
            r += [R(t + 380, "Detected non-NVML platform: could not load NVML library: libnvidia-ml.so.1: cannot open shared object file: No such file or directory", src="detect"),
                  R(t + 402, "Detected non-Tegra platform: /sys/devices/soc0/family file not found", src="detect"),
                  R(t + 431, "Incompatible platform detected", sev="E", src="factory")]
            for i, h in enumerate(HINTS_TOOLKIT):
                r.append(R(t + 440 + 6 * i, h, sev="E", src="factory"))
            t += 480
        else:
            r += [R(t + 29120, "Detected NVML platform: found NVML library", src="detect"),
                  R(t + 29170, "Detected non-Tegra platform: /sys/devices/soc0/family file not found", src="detect")]
            t += 29170
    elif outcome == "nolib":
        r.append(R(t + 412, "Incompatible strategy detected auto", sev="E", src="factory"))
        for i, h in enumerate(HINTS_TOOLKIT):
            r.append(R(t + 431 + 6 * i, h, sev="E", src="factory"))
        t += 470
    if outcome in ("unknown", "mismatch", "lost"):
        err = pv.nvml_error(outcome)
        r.append(R(t + 1903, "Failed to initialize NVML: %s." % err, sev="E", src="factory"))
        for i, h in enumerate(HINTS_OLD):
            r.append(R(t + 1921 + 7 * i, h, sev="E", src="factory"))
        if pv.fail_on_init_error:
            r.append(R(t + 2010, "error starting plugins: error getting plugins: unable to create plugins: failed to construct resource managers: nvml init failed: %s" % err, sev="E", src="main.go:173"))
            return r, "exit"
        r.append(R(t + 1960, "nvml init failed: %s" % err, sev="W", src="factoryw"))
        t += 1960
    if outcome in ("unknown", "mismatch", "lost", "nolib", "zero"):
        if outcome == "nolib" and pv.fail_on_init_error:
            r.append(R(t + 530, "error starting plugins: error getting plugins: unable to create plugins: failed to construct resource managers: invalid device discovery strategy", sev="E", src="main.go:173"))
            return r, "exit"
        r.append(R(t + 130, "No devices found. Waiting indefinitely.", src="nodev"))
        return r, None
    r += _serve(pv, t + 1200)
    return r, t + 1200 + serve_span(pv)


def kubelet_restart_records(pv, after):
    """Plugin reacting to a re-created kubelet.sock. after: 'ok' (registers
    again), 'unhealthy' (registers, then health check marks every device
    unhealthy without an Xid; records for that come from unhealthy_records)."""
    r = [R(0, "inotify: %s created, restarting." % KSOCK, src="inotify")]
    if pv.klog:
        r.append(R(10, "Stopping plugins.", src="stopping"))
    elif pv.v >= (0, 12, 0):
        r.append(R(10, "Stopping plugins."))
    for i, res in enumerate(pv.resources):
        r.append(R(16 + 9 * i, "Stopping to serve '%s' on %s" % (res, sock_for(res)), src="stopserve"))
    if pv.v >= (0, 12, 0):
        more, reg = start_records_restart(pv)
        r += [(dt + 600, s, src, m) for dt, s, src, m in more]
        return r, reg + 600
    r += [R(700, pv.retrieve_msg())] + [(dt + 700, s, src, m) for dt, s, src, m in _serve(pv, 400)]
    return r, 700 + 400 + serve_span(pv)


def start_records_restart(pv):
    recs, reg = start_records(pv, "ok")
    # A restart does not re-create the watchers nor print the banner.
    skip = ("Starting FS watcher", "Starting OS watcher", '"Starting NVIDIA Device Plugin"')
    recs = [x for x in recs if not any(str(x[3]).startswith(s) for s in skip)]
    base = recs[0][0]
    return [(dt - base, s, src, m) for dt, s, src, m in recs], reg - base


def unhealthy_records(pv, gpus, reason="handle"):
    r = []
    for i, g in enumerate(gpus):
        if reason == "handle":
            r.append(R(40 + 31 * i, "unable to get device handle from UUID: %s; marking it as unhealthy"
                       % pv.nvml_error("unknown"), src="handle"))
        r.append(R(52 + 31 * i, "'%s' device marked unhealthy: %s" % (RES, g.uuid), src="unhealthy"))
    return r


def xid_records(pv, gpu, xid, handle):
    if pv.v < (0, 13, 0):
        return [R(0, "XidCriticalError: Xid=%d on Device=%s, the device will go unhealthy." % (xid, gpu.uuid)),
                R(95, "'%s' device marked unhealthy: %s" % (RES, gpu.uuid))]
    return [R(0, "Processing event {Device:{Handle:%s} EventType:8 EventData:%d GpuInstanceId:4294967295 ComputeInstanceId:4294967295}"
              % (handle, xid), src="health"),
            R(104, "XidCriticalError: Xid=%d on Device=%s; marking device as unhealthy." % (xid, gpu.uuid), src="xid"),
            R(134, "'%s' device marked unhealthy: %s" % (RES, gpu.uuid), src="unhealthy")]


def render(pv, t0_us, records):
    """-> list of (us, text_line) in the container's own log format."""
    out = []
    for dt, sev, src, msg in records:
        us = t0_us + dt
        if pv.klog:
            head = utc_klog(us, sev, 1, pv.src(src) if "." not in src else src)
        else:
            head = utc_golog(us)
        lines = msg.split("\n")
        out.append((us, head + lines[0]))
        for extra in lines[1:]:
            out.append((us, extra))
    return out
