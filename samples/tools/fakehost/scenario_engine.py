"""Turns a scenario.toml into one consistent fake host.

The scenario lists boots and timed events; the engine plays them in order and
every source (journal, kubelet klog, containerd, plugin CRI logs, crictl
state, socket mtimes, device cgroups, node status) is derived from that one
timeline, so the times agree across sources by construction.
"""
import json
import os
import tomllib

from . import cri_fake, kube_fake, nvidia_fake, os_profiles, platform_layout, plugin_logs
from .clock import Clock, hexid, jitter, uuid_from
from .journal_export import (Journal, MSG_STARTED, MSG_STARTING, MSG_STOPPED,
                             MSG_STOPPING, MSG_UNIT_SUCCESS, MSG_UNIT_FAILED,
                             MSG_UNIT_PROCESS_EXIT)

UNIT_DESC = {
    "nvidia-persistenced.service": "NVIDIA Persistence Daemon",
    "nvidia-fabricmanager.service": "NVIDIA fabric manager service",
    "kubelet.service": "kubelet: The Kubernetes Node Agent",
    "containerd.service": "containerd container runtime",
    "apt-daily-upgrade.service": "Daily apt upgrade and clean activities",
}
UNIT_DESC.update(platform_layout.UNIT_DESC)

# Xids the plugin health check ignores ("application" errors), by version.
def ignored_xids(v):
    if v < (0, 10, 0):
        return {31, 43, 45}
    if v < (0, 17, 1):
        return {13, 31, 43, 45, 68}
    return {13, 31, 43, 45, 68, 109}


def fmt_backoff(s):
    return "%dm%ds" % (s // 60, s % 60) if s >= 60 else "%ds" % s


class Boot:
    def __init__(self, host, index, cfg):
        self.index = index
        self.cfg = cfg
        self.start_us = host.clock.parse(cfg["start"])
        self.end_us = host.clock.parse(cfg["end"]) if cfg.get("end") else None
        self.id = cfg.get("id") or hexid(host.seed, "boot", index, n=32)

    @property
    def dashed_id(self):
        h = self.id
        return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])

    def at(self, host, value):
        """Seconds after boot (number) or a host-local time string."""
        if isinstance(value, (int, float)):
            return self.start_us + int(round(value * 1e6))
        return host.clock.parse(value)


class Host:
    def __init__(self, scen_dir):
        self.dir = scen_dir
        with open(os.path.join(scen_dir, "scenario.toml"), "rb") as f:
            self.cfg = tomllib.load(f)
        s = self.cfg["scenario"]
        h = self.cfg["host"]
        v = self.cfg["versions"]
        self.name = s["name"]
        self.seed = s.get("seed", self.name)
        self.profile = dict(os_profiles.PROFILES[h["os"]])
        self.profile.update(h.get("os_overrides", {}))
        self.profile["os"] = h["os"]
        collect = s["collect_at"]
        self.clock = Clock(h["tz"], collect[:10])
        self.collect_us = self.clock.parse(collect)
        self.hostname = h["hostname"]
        self.node_name = h.get("node_name", self.hostname)
        self.machine_id = h.get("machine_id") or hexid(self.seed, "machine-id", n=32)
        self.ip = h.get("ip", "10.0.0.10")
        self.cpus = h.get("cpus", 128)
        self.memory_kib = h.get("memory_kib", 2113464320)
        self.cgroup = h.get("cgroup", self.profile["cgroup"])
        self.cgroup_driver = h.get("cgroup_driver", "systemd")
        self.sysd = self.profile["systemd"]
        self.containerd_version = v["containerd"]
        self.containerd_minor = int(v["containerd"].lstrip("v").split(".")[1])
        self.containerd_go = v.get("containerd_go", "go1.22.7")
        self.kubelet_version = v["kubelet"]
        kv = v["kubelet"].lstrip("v").split(".")
        self.kubelet_minor = int(kv[1])
        self.kubelet_verbosity = h.get("kubelet_verbosity", 2)
        self.registry_host = h.get("registry_host", "registry.example.internal")
        self.pause_image = h.get("pause_image", "registry.k8s.io/pause:3.9")
        self.service_ip = h.get("service_ip", "10.96.0.1")
        self.dns_ip = h.get("dns_ip", "10.96.0.10")
        self.apiserver_ip = h.get("apiserver_ip", "10.0.0.2")
        self.pod_cidr = h.get("pod_cidr", "10.244.3.0/24")
        rt = self.cfg.get("runtime", {})
        self.default_runtime = rt.get("default", "nvidia")
        self.nvidia_mode = rt.get("nvidia_mode", "auto")
        self.enable_cdi = rt.get("enable_cdi", False)
        self.nvidia_handler = rt.get("nvidia_handler", True)
        self.nvidia_systemd_cgroup = rt.get("nvidia_systemd_cgroup",
                                            self.cgroup_driver == "systemd")
        g = self.cfg["gpus"]
        self.gpus = nvidia_fake.make_gpus(self.seed, g["model"], g["bus"],
                                          {int(k): v for k, v in g.get("minors", {}).items()})
        self.arch = self.gpus[0].m["arch"] if self.gpus else None
        self.layout = platform_layout.Layout(self.cfg)
        self.driver = bool(self.cfg["versions"].get("driver"))
        self.kubelet_file_lines = []      # (us, line): RKE2 writes the kubelet's log to a file
        self.containerd_file_lines = []   # k3s and RKE2's embedded containerd
        self.nvswitch = g.get("nvswitch", False)
        for mg in g.get("mig", []):
            gpu = self.gpus[mg["gpu"]]
            gpu.mig_mode = "Enabled"
            gpu.mig = [(p, gi, 0, "MIG-" + uuid_from(self.seed, "mig", mg["gpu"], n))
                       for n, (p, gi) in enumerate(zip(mg["profiles"], mg["gi"]))]
        self.boots = [Boot(self, i, b) for i, b in enumerate(self.cfg["boot"])]
        self.ring = []  # the kernel ring of the boot at capture: (µs since boot, message)
        self.fm_log = []  # /var/log/fabricmanager.log, every boot: (µs, level, pid, message)
        self.journal = Journal(self.machine_id, self.hostname)
        self.pods, self.containers = [], []
        self.kubelet_pid = None
        self.kubelet_last_start_us = None
        self.kubelet_sock_us = None
        self.plugin_socks = {}            # socket name -> mtime us
        self.checkpoint_us = None
        self.registered = None            # list of uuids in checkpoint
        self.units = {}                   # unit -> dict(state...)
        self.next_pid = 1000
        self.plugin_pod = None
        self.plugin_pv = None
        self.plugin_registered = False
        self.unhealthy = set()
        self.files_extra = []
        self.node_created_us = self.clock.parse(s.get("node_created", "2025-06-03 10:21:40"))
        self.smi_mode = self.cfg.get("nvidia_smi", {}).get("mode", "ok")

    # -- small helpers -----------------------------------------------------
    def uuid(self, *parts):
        return uuid_from(self.seed, *parts)

    def canary(self, what):
        return "gpuf-canary-%s-%s" % (what, hexid(self.seed, what, n=12))

    def pid(self, step=1):
        self.next_pid += step
        return self.next_pid

    def pod_ip(self, pod):
        base = self.pod_cidr.split("/")[0].rsplit(".", 1)[0]
        return "%s.%d" % (base, 10 + jitter(pod.uid, hi=200))

    def pod_created_us(self, pod):
        return min(s.created_ns for s in pod.sandboxes) // 1000 - (
            0 if pod.kind == "static" else 2_000_000)

    def runtime_names(self):
        names = ["runc"]
        if self.nvidia_handler:
            names.append("nvidia")
        return names

    def runtime_systemd_cgroup(self, name):
        return self.nvidia_systemd_cgroup if name == "nvidia" else self.cgroup_driver == "systemd"

    def runtime_for(self, pod):
        return pod.runtime_handler or self.default_runtime

    def cdi_devices_for(self, c):
        if not c.gpu_uuids or self.nvidia_mode not in ("cdi", "jit-cdi"):
            return []
        devs = [{"path": "/dev/nvidiactl", "type": "c", "major": 195, "minor": 255,
                 "fileMode": 8630, "uid": 0, "gid": 0}]
        for g in self.gpus:
            if g.uuid in c.gpu_uuids:
                devs.append({"path": "/dev/nvidia%d" % g.minor, "type": "c", "major": 195,
                             "minor": g.minor, "fileMode": 8630, "uid": 0, "gid": 0})
        devs += [{"path": "/dev/nvidia-uvm", "type": "c", "major": 508, "minor": 0,
                  "fileMode": 8630, "uid": 0, "gid": 0},
                 {"path": "/dev/nvidia-uvm-tools", "type": "c", "major": 508, "minor": 1,
                  "fileMode": 8630, "uid": 0, "gid": 0}]
        return devs

    # -- journal helpers ---------------------------------------------------
    def boot_of(self, us):
        cur = None
        for b in self.boots:
            if us >= b.start_us:
                cur = b
        return cur

    def kernel(self, us, msg, prio=6):
        b = self.boot_of(us)
        since_boot = us - b.start_us - 3
        if b is self.boots[-1]:
            self.ring.append((since_boot, msg))  # what dmesg prints: the boot at capture only
        if not self.cfg["host"].get("journal_kernel", True):
            return  # kernel messages not in the journal (not forwarded, or a journal without them)
        self.journal.add(b, us, [("_TRANSPORT", "kernel"), ("SYSLOG_FACILITY", "0"),
                                 ("SYSLOG_IDENTIFIER", "kernel"), ("PRIORITY", str(prio)),
                                 ("_SOURCE_MONOTONIC_TIMESTAMP", str(since_boot)),
                                 ("MESSAGE", msg)])

    def pid1(self, us, msg, unit=None, mid=None, prio=6, extra=()):
        b = self.boot_of(us)
        f = [("PRIORITY", str(prio)), ("SYSLOG_FACILITY", "3"),
             ("SYSLOG_IDENTIFIER", "systemd"), ("_PID", "1"), ("_UID", "0"),
             ("_GID", "0"), ("_COMM", "systemd"), ("_EXE", self.profile["systemd_exe"]),
             ("_CMDLINE", "/usr/lib/systemd/systemd --switched-root --system --deserialize 17"
              if self.profile["os"] == "alinux3" else "/sbin/init"),
             ("_CAP_EFFECTIVE", "1ffffffffff"), ("_SYSTEMD_CGROUP", "/init.scope"),
             ("_SYSTEMD_UNIT", "init.scope"), ("_SYSTEMD_SLICE", "-.slice"),
             ("_TRANSPORT", "journal")]
        if mid:
            f.append(("MESSAGE_ID", mid))
        if unit:
            f.append(("UNIT", unit))
        f += list(extra)
        f.append(("MESSAGE", msg))
        self.journal.add(b, us, f)

    def svc(self, us, unit, ident, pid, msg, prio=6, transport="stdout", comm=None,
            exe=None):
        b = self.boot_of(us)
        f = [("PRIORITY", str(prio)), ("SYSLOG_FACILITY", "3"),
             ("SYSLOG_IDENTIFIER", ident), ("_PID", str(pid)), ("_UID", "0"),
             ("_GID", "0"), ("_COMM", comm or ident[:15]),
             ("_EXE", exe or "/usr/bin/" + ident),
             ("_SYSTEMD_CGROUP", "/system.slice/" + unit),
             ("_SYSTEMD_UNIT", unit), ("_SYSTEMD_SLICE", "system.slice"),
             ("_TRANSPORT", transport)]
        if transport == "stdout":
            f.append(("_STREAM_ID", hexid(unit, pid, n=32)))
        if transport == "syslog":
            f.append(("SYSLOG_PID", str(pid)))
            f.append(("SYSLOG_TIMESTAMP", self.clock.local(us).strftime("%b %d %H:%M:%S ")))
        f.append(("MESSAGE", msg))
        self.journal.add(b, us, f)

    def kubelet_log(self, us, sev, src, msg):
        lay = self.layout
        line = self.clock.klog(us, sev, self.kubelet_pid, src) + msg
        if lay.kubelet_log:
            self.kubelet_file_lines.append((us + 31, line))
            return
        self.svc(us + 31, lay.kubelet_unit, lay.kubelet_ident, self.kubelet_pid, line,
                 exe=lay.kubelet_exe)

    def logrus(self, us, msg, level="info", extra=""):
        return 'time="%s" level=%s msg="%s"%s' % (
            self.clock.rfc3339nano(us * 1000 + jitter(msg, us, hi=999)), level,
            msg.replace("\\", "\\\\").replace('"', '\\"'), extra)

    def containerd_log(self, us, msg, level="info", extra=""):
        line = self.logrus(us, msg, level, extra)
        unit = self.layout.runtime_unit
        if unit is None:
            self.containerd_file_lines.append((us + 24, line))
        elif unit == "crio.service":
            self.svc(us + 24, unit, "crio", self.containerd_pid, line, exe="/usr/bin/crio")
        else:
            self.svc(us + 24, unit, "containerd", self.containerd_pid, line, exe="/usr/bin/containerd")

    # -- unit lifecycle ----------------------------------------------------
    def unit_start(self, us, unit, pid, dur_us=600_000, forking=False):
        desc = UNIT_DESC[unit]
        v = self.sysd
        self.pid1(us, os_profiles.msg_starting(v, unit, desc), unit, MSG_STARTING,
                  extra=[("JOB_TYPE", "start")] if v >= 240 else [])
        done = us + dur_us
        self.pid1(done, os_profiles.msg_started(v, unit, desc), unit, MSG_STARTED,
                  extra=[("JOB_TYPE", "start"), ("JOB_RESULT", "done")] if v >= 240 else [])
        self.units[unit] = dict(state="active", sub="running", enter_us=done,
                                exec_us=us + (2_000 if not forking else 4_000),
                                pid=pid, nrestarts=0)
        return done

    def unit_stop(self, us, unit, cpu="1min 12.532s", dur_us=180_000):
        desc = UNIT_DESC[unit]
        v = self.sysd
        self.pid1(us, os_profiles.msg_stopping(v, unit, desc), unit, MSG_STOPPING,
                  extra=[("JOB_TYPE", "stop")] if v >= 240 else [])
        t = us + dur_us
        d = os_profiles.msg_deactivated(v, unit)
        if d:
            self.pid1(t, d, unit, MSG_UNIT_SUCCESS)
        self.pid1(t + 110, os_profiles.msg_stopped(v, unit, desc), unit, MSG_STOPPED,
                  extra=[("JOB_TYPE", "stop"), ("JOB_RESULT", "done")] if v >= 240 else [])
        c = os_profiles.msg_consumed(v, unit, cpu)
        if c:
            self.pid1(t + 140, c, unit)
        return t + 200

    # ======================================================================
    # boot sequence
    def play_boot(self, b):
        P = self.profile
        s = b.start_us
        kver = "Linux version %s (%s) (%s) %s" % (
            P["kernel"], "mockbuild@ecs-build" if P["os"] == "alinux3" else "buildd@lcy02-amd64-046",
            P["compiler"], P["kernel_build"])
        self.kernel(s + 0, kver, 5)
        self.kernel(s + 1, "Command line: " + P["cmdline"].format(kernel=P["kernel"]).strip(), 6)
        self.kernel(s + 2, "x86/fpu: Supporting XSAVE feature 0x001: 'x87 floating point registers'")
        self.kernel(s + 130_000, "DMI: %s" % self.cfg["host"].get(
            "dmi", "Alibaba Cloud Alibaba Cloud ECS/Alibaba Cloud ECS, BIOS 0.0.0 02/06/2015"))
        self.kernel(s + 1_912_004, "Run /init as init process")
        self.next_pid = 1
        self.pid1(s + 2_873_122, "%s running in system mode. (%s)" % (
            P["systemd_full"].split(" (")[0], P["systemd_features"]))
        self.pid1(s + 2_873_490, "Detected architecture x86-64.")
        self.pid1(s + 3_040_552, "Set hostname to <%s>." % self.hostname)
        self.next_pid = 600
        bc = b.cfg
        drv = self.cfg["versions"]
        t = b.at(self, bc.get("driver_load", 14.2))
        if self.driver:
            self.play_driver_load(b, t)
        # services: PIDs handed out in start order
        self.play_services(b)

    def play_driver_load(self, b, t):
        drv = self.cfg["versions"]
        self.kernel(t, "nvidia: loading out-of-tree module taints kernel.", 4)
        self.kernel(t + 12, "nvidia: module license 'NVIDIA' taints kernel.", 4)
        self.kernel(t + 20, "Disabling lock debugging due to kernel taint", 4)
        self.kernel(t + 61_233, "nvidia-nvlink: Nvlink Core is being initialized, major device number 510")
        if drv.get("open_module"):
            self.kernel(t + 88_410, "NVRM: loading NVIDIA UNIX Open Kernel Module for x86_64  %s  Release Build  (dvs-builder@U16-I3-B03-4-3)  %s"
                        % (drv["driver"], drv["driver_date"]))
        else:
            self.kernel(t + 88_410, "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  %s  %s"
                        % (drv["driver"], drv["driver_date"]))
        self.kernel(t + 301_772, "nvidia-modeset: Loading NVIDIA Kernel Mode Setting Driver for UNIX platforms  %s  %s"
                    % (drv["driver"], drv.get("modeset_date", drv["driver_date"])))
        if self.gpus:
            self.kernel(t + 310_116, "[drm] [nvidia-drm] [GPU ID 0x%08x] Loading driver"
                        % (int(self.gpus[0].bus, 16) << 8))
        for g in self.gpus:
            if g.lost and b is not self.boots[-1]:
                continue
        self.kernel(t + 2_410_387, "nvidia-uvm: Loaded the UVM driver, major device number 508.")

    def play_services(self, b):
        bc = b.cfg
        order = sorted((b.at(self, bc[k]), k) for k in
                       ("containerd", "persistenced", "fabricmanager", "kubelet") if k in bc)
        self.next_pid = 1180 + jitter(self.seed, b.index, hi=300)
        pids = {}
        for _, k in order:
            pids[k] = self.pid(29 + jitter(self.seed, k, b.index, hi=90))
        self.containerd_pid = pids.get("containerd", 1200)
        if "containerd" in bc:
            t = b.at(self, bc["containerd"])
            if self.layout.runtime_unit:
                self.unit_start(t, self.layout.runtime_unit, self.containerd_pid, 61_000)
            cv = self.containerd_version
            self.containerd_log(t + 8_000, "starting containerd", extra=" revision=%s version=%s"
                                % (self.cfg["versions"].get("containerd_commit", ""), cv))
            self.containerd_log(t + 59_000, "containerd successfully booted in 0.051327s")
            b.containerd_us = t
        if "persistenced" in bc:
            t = b.at(self, bc["persistenced"])
            pid = pids["persistenced"]
            if self.layout.gpu_operator:
                self.play_container_persistenced(t, pid)
            else:
                self.play_persistenced(t, pid)
        if "fabricmanager" in bc:
            self.play_fabricmanager(b, b.at(self, bc["fabricmanager"]), pids["fabricmanager"])
        if "kubelet" in bc:
            self.kubelet_start(b, b.at(self, bc["kubelet"]), first=True, pid=pids["kubelet"])
        self.next_pid = max(self.next_pid, 2900 + jitter(self.seed, "ctr", b.index, hi=400))
        # pods of this boot
        for p in self.pods:
            self.start_pod(b, p)

    def play_container_persistenced(self, t, pid):
        """The GPU Operator's driver container runs nvidia-persistenced and
        logs to the host's /dev/log: the journal has its lines under the
        container's scope, and no nvidia-persistenced.service exists."""
        scope = "cri-containerd-%s.scope" % hexid(self.seed, "driver-ctr", n=64)
        for dt, msg in [(31_000, "Verbose syslog connection opened"), (33_000, "Started (%d)" % pid)] + \
                [(70_000 + 61_000 * i, "device %s - registered" % g.sysfs_id) for i, g in enumerate(self.gpus)] + \
                [(612_000, "Local RPC services initialized")]:
            self.svc(t + dt, scope, "nvidia-persistenced", pid, msg, transport="syslog",
                     exe="/usr/bin/nvidia-persistenced")

    def play_persistenced(self, t, pid):
        done = self.unit_start(t, "nvidia-persistenced.service", pid, 612_000, forking=True)
        for i, (dt, msg) in enumerate([(31_000, "Verbose syslog connection opened"),
                                       (33_000, "Started (%d)" % pid)]):
            self.svc(t + dt, "nvidia-persistenced.service", "nvidia-persistenced", pid,
                     msg, transport="syslog", exe="/usr/bin/nvidia-persistenced")
        for i, g in enumerate(self.gpus):
            self.svc(t + 70_000 + 61_000 * i, "nvidia-persistenced.service",
                     "nvidia-persistenced", pid, "device %s - registered" % g.sysfs_id,
                     transport="syslog", exe="/usr/bin/nvidia-persistenced")
        self.svc(done - 2_000, "nvidia-persistenced.service", "nvidia-persistenced", pid,
                 "Local RPC services initialized", transport="syslog",
                 exe="/usr/bin/nvidia-persistenced")

    def play_fabricmanager(self, b, t, pid):
        fm = self.cfg.get("fabricmanager", {})
        unit = "nvidia-fabricmanager.service"
        desc = UNIT_DESC[unit]
        v = self.sysd
        self.pid1(t, os_profiles.msg_starting(v, unit, desc), unit, MSG_STARTING,
                  extra=[("JOB_TYPE", "start")])
        fmv = fm.get("fm_version", self.cfg["versions"]["driver"])
        self.fm_log.append((t + 40_000, "INFO", pid, "Fabric Manager version %s is running with the following "
                            "configuration options" % fmv))
        self.fm_log.append((t + 40_100, "INFO", pid, "Logging level = 4"))
        if fm.get("outcome", "ok") == "ok":
            self.fm_log.append((t + 410_000, "INFO", pid, "Connected to 1 node."))
            self.fm_log.append((t + 9_870_000, "INFO", pid, "Successfully configured all the available GPUs and "
                                "NVSwitches to route NVLink traffic."))
            self.svc(t + 410_000, unit, "nv-fabricmanager", pid, "Connected to 1 node.",
                     transport="syslog", exe="/usr/bin/nv-fabricmanager")
            self.svc(t + 9_870_000, unit, "nv-fabricmanager", pid,
                     "Successfully configured all the available GPUs and NVSwitches to route NVLink traffic.",
                     transport="syslog", exe="/usr/bin/nv-fabricmanager")
            self.pid1(t + 9_871_000, os_profiles.msg_started(v, unit, desc), unit, MSG_STARTED,
                      extra=[("JOB_TYPE", "start"), ("JOB_RESULT", "done")])
            self.units[unit] = dict(state="active", sub="running", enter_us=t + 9_871_000,
                                    exec_us=t + 4_000, pid=pid, nrestarts=0)
            return
        self.fm_log.append((t + 52_000, "ERROR", pid, "fabric manager NVIDIA GPU driver interface version %s don't "
                            "match with driver version %s. Please update with matching NVIDIA driver package."
                            % (fmv, self.cfg["versions"]["driver"])))
        self.svc(t + 52_000, unit, "nv-fabricmanager", pid,
                 "fabric manager NVIDIA GPU driver interface version %s don't match with driver version %s. Please update with matching NVIDIA driver package."
                 % (fmv, self.cfg["versions"]["driver"]), prio=3, transport="syslog",
                 exe="/usr/bin/nv-fabricmanager")
        self.pid1(t + 61_000, "%s: Control process exited, code=exited, status=1/FAILURE" % unit,
                  unit, MSG_UNIT_PROCESS_EXIT, prio=5)
        self.pid1(t + 61_300, "%s: Failed with result 'exit-code'." % unit, unit,
                  MSG_UNIT_FAILED, prio=4)
        self.pid1(t + 61_500, ("Failed to start %s - %s." % (unit, desc)) if v >= 250
                  else "Failed to start %s." % desc, unit, "be02cf6855d2428ba40df7e9d022f03d",
                  prio=3, extra=[("JOB_TYPE", "start"), ("JOB_RESULT", "failed")])
        self.units[unit] = dict(state="failed", sub="failed", enter_us=None,
                                exec_us=t + 4_000, pid=0, nrestarts=0, result="exit-code")

    def kubelet_start(self, b, t, first, pid=None):
        self.kubelet_pid = pid or self.pid(113 + jitter(t, hi=4000))
        lay = self.layout
        self.unit_start(t, lay.kubelet_unit, self.kubelet_pid, 3_000)
        if lay.id in ("k3s", "rke2"):
            # Both log the kubelet's flags before they start it.
            self.svc(t + 201_000, lay.kubelet_unit, lay.kubelet_ident, self.kubelet_pid,
                     self.logrus(t + 201_000, lay.running_kubelet_line(self)), exe=lay.kubelet_exe)
        self.kubelet_last_start_us = t
        L = self.kubelet_log
        L(t + 281_004, "I", "server.go:486", '"Kubelet version" kubeletVersion="%s"' % self.kubelet_version)
        L(t + 281_112, "I", "server.go:488", '"Golang settings" GOGC="" GOMAXPROCS="" GOTRACEBACK=""')
        L(t + 309_877, "I", "server.go:929", '"Client rotation is on, will bootstrap in background"')
        L(t + 402_418, "I", "container_manager_linux.go:300", '"Creating device plugin manager"')
        L(t + 455_012, "I", "kubelet.go:408", '"Attempting to sync node with API server"')
        L(t + 455_190, "I", "kubelet.go:303", '"Adding static pod path" path="/etc/kubernetes/manifests"')
        L(t + 512_330, "I", "kuberuntime_manager.go:262",
          '"Container runtime initialized" containerRuntime="containerd" version="%s" apiVersion="v1"'
          % self.containerd_version)
        L(t + 688_911, "I", "server.go:163", '"Starting to listen" address="0.0.0.0" port=10250')
        self.kubelet_sock_us = t + 712_543
        # devicemanager Start() removes every socket in the directory.
        self.plugin_socks = {}
        self.plugin_registered = False
        L(t + 951_044, "I", "kubelet_node_status.go:76", '"Attempting to register node" node="%s"' % self.node_name)
        L(t + 1_290_551, "I", "kubelet_node_status.go:79", '"Successfully registered node" node="%s"' % self.node_name)
        L(t + 1_301_223, "I", "kubelet.go:2407", '"SyncLoop ADD" source="api" pods=[%s]'
          % ",".join('"%s/%s"' % (p.namespace, p.name) for p in self.pods if p.kind != "static"))
        statics = [p for p in self.pods if p.kind == "static"]
        if statics:
            L(t + 1_301_060, "I", "kubelet.go:2407", '"SyncLoop ADD" source="file" pods=[%s]'
              % ",".join('"%s/%s"' % (p.namespace, p.name) for p in statics))

    # ======================================================================
    # pods and containers
    def add_pods(self):
        pc = self.cfg["plugin"]
        ns = pc.get("namespace", "kube-system")
        cname = pc.get("container", "nvidia-device-plugin-ctr")
        flavor = pc.get("flavor", "nvidia")
        pv = plugin_logs.PluginVersion(
            pc["version"] if flavor == "nvidia" else "0.0.0",
            pc.get("commit", hexid("k8s-device-plugin", pc["version"], n=40)),
            pc.get("mig_strategy", "none"), pc.get("fail_on_init_error", True),
            pc.get("pass_device_specs", False), null_manager_line=pc.get("null_manager_line"),
            flavor=flavor, replicas=pc.get("time_slicing_replicas", 0))
        if pc.get("resources"):
            pv.resources = list(pc["resources"])
        self.plugin_pv = pv
        env = []
        if "fail_on_init_error" in pc and pc.get("fail_on_init_error_as") != "arg":
            env.append(("FAIL_ON_INIT_ERROR", "true" if pc["fail_on_init_error"] else "false"))
        if pc.get("mig_strategy", "none") != "none":
            env.append(("MIG_STRATEGY", pc["mig_strategy"]))
        for k, val in pc.get("env", {}).items():
            env.append((k, val))
        args = []
        if pc.get("fail_on_init_error_as") == "arg":
            args.append("--fail-on-init-error=%s" % ("true" if pc["fail_on_init_error"] else "false"))
        image_env = ["NVIDIA_VISIBLE_DEVICES=all", "NVIDIA_DRIVER_CAPABILITIES=utility",
                     "NVIDIA_DISABLE_REQUIRE=true"]
        if pv.v < (0, 14, 0):
            image_env = ["NVIDIA_VISIBLE_DEVICES=all", "NVIDIA_DRIVER_CAPABILITIES=utility",
                         "NVIDIA_DISABLE_REQUIRE=true"]
        mounts = [("/var/lib/kubelet/device-plugins", "/var/lib/kubelet/device-plugins", False)]
        secret_env = [("AWS_SECRET_ACCESS_KEY", self.canary("aws-secret-access-key")),
                      ("AWS_ACCESS_KEY_ID", "AKIAGPUFCANARY0000001")]
        command = ["nvidia-device-plugin"] if pv.v >= (0, 12, 0) else []
        if flavor == "gke":
            command = ["/usr/bin/nvidia-gpu-device-plugin"]
            args = ["-logtostderr", "--enable-container-gpu-metrics", "--enable-health-monitoring"]
            env = [("LD_LIBRARY_PATH", "/usr/local/nvidia/lib64"), ("GOMAXPROCS", "1")]
            mounts = [("/device-plugin", "/var/lib/kubelet/device-plugins", False),
                      ("/usr/local/nvidia", "/home/kubernetes/bin/nvidia", True)]
            image_env = []
        elif self.layout.gpu_operator:
            # NVIDIA/gpu-operator assets/state-device-plugin/0500_daemonset.yaml
            command, args = ["/bin/sh", "-c"], ["/bin/entrypoint.sh"]
        spec = cri_fake.ContainerSpec(
            cname, pc["image"], "sha256:" + hexid(pc["image"], "id"),
            command=command,
            args=args, env=env, secret_env=secret_env, image_env=image_env,
            privileged=pc.get("privileged", False), mounts=mounts,
            caps_drop_all=not pc.get("privileged", False))
        self.plugin_spec = spec
        deploy = pc.get("deploy", "daemonset")
        if deploy in ("host-unit", "none"):
            # Bottlerocket runs the plugin as nvidia-k8s-device-plugin.service;
            # a node without GPUs runs none.
            self.plugin_pod = None
            self.add_other_pods(pc)
            return
        if deploy == "static":
            uid = hexid(self.seed, "static", cname, n=32)
            pod = cri_fake.Pod(self, "nvidia-device-plugin-" + self.node_name, ns, uid,
                               "static", labels={"component": "nvidia-device-plugin"},
                               annotations={"kubernetes.io/config.hash": uid,
                                            "kubernetes.io/config.source": "file",
                                            "scheduler.alpha.kubernetes.io/critical-pod": ""})
        else:
            ds = pc.get("daemonset", "nvidia-device-plugin-daemonset")
            sfx = hexid(self.seed, "dp-suffix", n=5)
            pod = cri_fake.Pod(self, "%s-%s" % (ds, sfx), ns, self.uuid("pod", ds),
                               "daemonset", labels={"name": "nvidia-device-plugin-ds",
                                                    "controller-revision-hash": hexid(ds, n=10),
                                                    "pod-template-generation": "3"},
                               owner=("DaemonSet", ds),
                               runtime_handler=pc.get("runtime_class", ""))
            pod.annotations = {"kubernetes.io/config.source": "api",
                               "kubernetes.io/config.seen": "2026-01-01T00:00:00.000000000Z"}
        pod.specs[cname] = spec
        if self.layout.gpu_operator:
            image = pc["image"]
            pod.context_specs = [
                cri_fake.ContainerSpec("toolkit-validation", image, "sha256:" + hexid(image, "id"),
                                       command=["sh", "-c"],
                                       args=["until [ -f /run/nvidia/validations/toolkit-ready ]; do echo waiting for nvidia container stack to be setup; sleep 5; done"],
                                       privileged=True, init=True),
                cri_fake.ContainerSpec("config-manager-init", image, "sha256:" + hexid(image, "id"),
                                       command=["config-manager"], env=[("ONESHOT", "true")], init=True),
                cri_fake.ContainerSpec("config-manager", image, "sha256:" + hexid(image, "id"),
                                       command=["config-manager"], env=[("ONESHOT", "false")])]
        pod.api_visible = True
        self.plugin_pod = pod
        self.pods.append(pod)
        self.add_other_pods(pc)

    def add_other_pods(self, pc):
        if self.layout.gpu_operator:
            self.add_operator_pods()
        prov = self.cfg["host"].get("provider", "generic")
        others = [("kube-proxy", "kube-system", "daemonset", pc.get("kube_proxy_image",
                   "registry.k8s.io/kube-proxy:%s" % self.kubelet_version.split("-")[0].split("+")[0]))]
        if prov == "ack":
            others = [("kube-proxy-worker", "kube-system", "daemonset",
                       "registry-cn-shanghai-vpc.ack.aliyuncs.com/acs/kube-proxy:%s" % self.kubelet_version),
                      ("terway-eniip", "kube-system", "daemonset",
                       "registry-cn-shanghai-vpc.ack.aliyuncs.com/acs/terway:v1.9.2")]
        else:
            others.append(("calico-node", "kube-system", "daemonset",
                           "docker.io/calico/node:v3.27.3"))
        others.append(("nginx-proxy", "kube-system", "static", "docker.io/library/nginx:1.25.2-alpine"))
        for name, ns2, kind, image in others:
            if kind == "static":
                uid = hexid(self.seed, "static", name, n=32)
                p = cri_fake.Pod(self, "%s-%s" % (name, self.node_name), ns2, uid, "static",
                                 labels={"addonmanager.kubernetes.io/mode": "Reconcile",
                                         "k8s-app": "kube-nginx"},
                                 annotations={"kubernetes.io/config.hash": uid,
                                              "kubernetes.io/config.source": "file"})
            else:
                p = cri_fake.Pod(self, "%s-%s" % (name, hexid(self.seed, name, n=5)), ns2,
                                 self.uuid("pod", name), kind,
                                 labels={"k8s-app": name,
                                         "controller-revision-hash": hexid(name, n=10),
                                         "pod-template-generation": "1"},
                                 owner=("DaemonSet", name))
                p.annotations = {"kubernetes.io/config.source": "api"}
            cmd = {"kube-proxy": ["/usr/local/bin/kube-proxy"],
                   "kube-proxy-worker": ["/usr/local/bin/kube-proxy"],
                   "nginx-proxy": ["nginx"]}.get(name, [])
            cargs = {"kube-proxy": ["--config=/var/lib/kube-proxy/config.conf",
                                    "--hostname-override=$(NODE_NAME)"],
                     "kube-proxy-worker": ["--config=/var/lib/kube-proxy-configmap/config.conf",
                                           "--hostname-override=$(NODE_NAME)"],
                     "nginx-proxy": ["-g", "daemon off;"]}.get(name, [])
            cenv = [("NODE_NAME", self.node_name)] if "proxy" in name and name != "nginx-proxy" else []
            p.specs[name] = cri_fake.ContainerSpec(
                name, image, "sha256:" + hexid(image, "id"), command=cmd, args=cargs,
                env=cenv, privileged=name in ("kube-proxy", "kube-proxy-worker", "calico-node", "terway-eniip"))
            p.api_visible = True
            self.pods.append(p)
        for w in self.cfg.get("workload", []):
            p = cri_fake.Pod(self, w["pod"], w.get("namespace", "default"),
                             self.uuid("pod", w["pod"]), w.get("kind", "job"),
                             labels={"app": w["pod"].rsplit("-", 1)[0]},
                             owner=("Job", w["pod"].rsplit("-", 1)[0]), host_network=False,
                             qos="burstable")
            p.annotations = {"kubernetes.io/config.source": "api"}
            n = w.get("gpus", 1)
            sp = cri_fake.ContainerSpec(
                w["container"], w["image"], "sha256:" + hexid(w["image"], "id"),
                command=w.get("command", ["python3"]), args=w.get("args", []),
                env=[(k, v) for k, v in w.get("env", {}).items()],
                image_env=["NVIDIA_VISIBLE_DEVICES=all", "NVIDIA_DRIVER_CAPABILITIES=compute,utility",
                           "CUDA_VERSION=12.2.2"],
                resources={"limits": {"nvidia.com/gpu": str(n)}, "requests": {"nvidia.com/gpu": str(n)}})
            p.specs[w["container"]] = sp
            p.workload = w
            p.api_visible = True
            self.pods.append(p)

    def add_operator_pods(self):
        """The GPU Operator's other pods on a GPU node: the driver and toolkit
        containers, and its validators, which complete."""
        ns = self.cfg["plugin"].get("namespace", "gpu-operator")
        ver = self.cfg["platform"].get("operator_version", "v24.9.0")
        validator = "nvcr.io/nvidia/cloud-native/gpu-operator-validator:" + ver
        pods = [
            ("nvidia-driver-daemonset", [("nvidia-driver-ctr", "nvcr.io/nvidia/driver:%s-ubuntu22.04" % self.cfg["versions"].get("driver", ""), ["nvidia-driver"], ["init"], False, False)]),
            ("nvidia-container-toolkit-daemonset", [("nvidia-container-toolkit-ctr", "nvcr.io/nvidia/k8s/container-toolkit:v%s-ubuntu20.04" % self.cfg["versions"].get("toolkit", ""), ["/bin/bash", "-c"], ["nvidia-toolkit /usr/local/nvidia"], False, False)]),
            ("nvidia-operator-validator", [
                ("driver-validation", validator, ["sh", "-c"], ["nvidia-validator"], True, False),
                ("toolkit-validation", validator, ["sh", "-c"], ["nvidia-validator"], True, False),
                ("cuda-validation", validator, ["sh", "-c"], ["nvidia-validator"], True, False),
                ("plugin-validation", validator, ["sh", "-c"], ["nvidia-validator"], True, False),
                ("nvidia-operator-validator", validator, ["sh", "-c"], ["echo all validations are successful; sleep infinity"], False, False)]),
            ("nvidia-device-plugin-validator", [
                ("plugin-validation", validator, ["sh", "-c"], ["vectorAdd"], True, False),
                ("nvidia-device-plugin-validator", validator, ["sh", "-c"], ["echo device-plugin workload validation is successful"], False, True)]),
        ]
        for ds, containers in pods:
            p = cri_fake.Pod(self, "%s-%s" % (ds, hexid(self.seed, ds, n=5)), ns, self.uuid("pod", ds),
                             "daemonset", labels={"app": ds}, owner=("DaemonSet", ds))
            p.annotations = {"kubernetes.io/config.source": "api"}
            for name, image, cmd, args, init, completes in containers:
                p.specs[name] = cri_fake.ContainerSpec(name, image, "sha256:" + hexid(image, "id"), command=cmd,
                                                       args=args, privileged=True, init=init)
                p.specs[name].completes = completes
            p.api_visible = True
            self.pods.append(p)

    def new_sandbox(self, b, pod, t_us):
        att = len(pod.sandboxes)
        s = cri_fake.Sandbox(pod, att, t_us * 1000 + jitter(pod.uid, t_us, hi=999), b)
        s.pid = self.pid(3)
        pod.sandboxes.append(s)
        self.containerd_log(t_us, "RunPodSandbox for &PodSandboxMetadata{Name:%s,Uid:%s,Namespace:%s,Attempt:%d,}"
                            % (pod.name, pod.uid, pod.namespace, att))
        self.containerd_log(t_us + 389_112, 'RunPodSandbox for &PodSandboxMetadata{Name:%s,Uid:%s,Namespace:%s,Attempt:%d,} returns sandbox id "%s"'
                            % (pod.name, pod.uid, pod.namespace, att, s.id))
        return s

    def new_container(self, b, sb, spec, t_us, start=True):
        pod = sb.pod
        prev = [c for c in self.containers if c.pod is pod and c.spec is spec]
        att = (max(c.attempt for c in prev) + 1) if prev else 0
        c = cri_fake.Container(sb, spec, att, t_us * 1000 + jitter(spec.name, t_us, hi=999), b)
        self.containers.append(c)
        self.containerd_log(t_us, "CreateContainer within sandbox \"%s\" for container &ContainerMetadata{Name:%s,Attempt:%d,}"
                            % (sb.id, spec.name, att))
        self.containerd_log(t_us + 41_203, "CreateContainer within sandbox \"%s\" for &ContainerMetadata{Name:%s,Attempt:%d,} returns container id \"%s\""
                            % (sb.id, spec.name, att, c.id))
        self.containerd_log(t_us + 42_011, 'StartContainer for "%s"' % c.id)
        if start:
            c.started_ns = (t_us + 171_554) * 1000 + jitter(c.id, hi=999)
            c.state = "CONTAINER_RUNNING"
            c.pid = self.pid(11)
            self.containerd_log(t_us + 198_317, 'StartContainer for "%s" returns successfully' % c.id)
            if self.runtime_for(pod) == "nvidia" and any(
                    e.startswith("NVIDIA_VISIBLE_DEVICES=all") for e in spec.image_env):
                c.gpu_uuids = [g.uuid for g in self.gpus if not g.lost]
        return c

    def start_pod(self, b, pod):
        """Start sandbox + containers of a pod in boot b (not the plugin or
        workloads: those have their own events)."""
        if pod is self.plugin_pod or hasattr(pod, "workload"):
            return
        k = self.kubelet_last_start_us
        if k is None or k < b.start_us:
            return
        t = k + 1_700_000 + jitter(pod.uid, b.index, hi=2_500_000)
        sb = self.new_sandbox(b, pod, t)
        for i, spec in enumerate(pod.specs.values()):
            c = self.new_container(b, sb, spec, t + 520_000 + 2_000_000 * i)
            c.log.append((c.started_ns + 91_000_000, "stderr",
                          self.generic_log(c, c.started_ns // 1000 + 91_000)))
            if spec.init or getattr(spec, "completes", False):
                self.complete(c, c.started_ns + 1_400_000_000)

    def complete(self, c, at_ns):
        c.state, c.exit_code, c.reason = "CONTAINER_EXITED", 0, "Completed"
        c.finished_ns = at_ns

    def generic_log(self, c, us):
        from .clock import utc_klog
        n = c.spec.name
        if "proxy" in n and n != "nginx-proxy":
            return utc_klog(us, "I", 1, "server_linux.go:66") + '"Using iptables proxy"'
        if n == "nginx-proxy":
            return "2026/01/01 00:00:00 [notice] 1#1: start worker processes".replace(
                "2026/01/01 00:00:00", self.clock.local(us).astimezone(
                    __import__("datetime").timezone.utc).strftime("%Y/%m/%d %H:%M:%S"))
        return utc_klog(us, "I", 1, "main.go:112") + "starting %s" % n

    # -- plugin --------------------------------------------------------------
    def plugin_container(self):
        cs = [c for c in self.containers if c.pod is self.plugin_pod and c.running()
              and c.spec is self.plugin_spec]
        return cs[-1] if cs else None

    def plugin_start(self, b, t, outcome, new_sandbox=True):
        pod = self.plugin_pod
        sb = pod.sandboxes[-1] if (pod.sandboxes and not new_sandbox) else \
            self.new_sandbox(b, pod, t - 900_000)
        spec = self.plugin_spec
        if new_sandbox:
            for ctx in getattr(pod, "context_specs", []):
                if ctx.init:   # before the plugin, and done
                    ic = self.new_container(b, sb, ctx, t - 800_000 + 200_000 * len(sb.pod.specs))
                    self.complete(ic, ic.started_ns + 300_000_000)
        c = self.new_container(b, sb, spec, t - 210_000)
        # nvidia-smi in the container at capture: "unknown" makes it fail with
        # NVML's Unknown Error while its device cgroup keeps the GPUs.
        c.exec_nvidia_smi = self.cfg["plugin"].get("exec_nvidia_smi")
        if new_sandbox:
            for ctx in getattr(pod, "context_specs", []):
                if not ctx.init:   # the sidecar runs beside it
                    self.new_container(b, sb, ctx, t - 150_000)
        t0 = c.started_ns // 1000 + 3_100
        recs, reg = plugin_logs.start_records(self.plugin_pv, outcome, t0 // 1_000_000)
        self.plugin_emit(c, t0, recs)
        if reg == "exit":
            c.state = "CONTAINER_EXITED"
            c.exit_code = 1
            c.reason = "Error"
            c.finished_ns = (t0 + recs[-1][0] + 2_000) * 1000
            return c
        if reg is not None:
            self.plugin_registered_at(t0 + reg, serve_us=t0 + reg - 2_500)
        return c

    def plugin_emit(self, c, t0, recs):
        last = 0
        for us, line in plugin_logs.render(self.plugin_pv, t0, recs):
            ns = us * 1000 + jitter(line, us, hi=700)
            ns = max(ns, last + 27)   # continuation lines keep their order
            last = ns
            c.log.append((ns, "stderr", line))

    def plugin_registered_at(self, us, serve_us):
        pv = self.plugin_pv
        n = len(pv.resources)
        L = self.kubelet_log
        for i, res in enumerate(pv.resources):
            t = us - (n - 1 - i) * 5_300
            sock = "nvidia-%s.sock" % res.split("/", 1)[1]
            if pv.flavor == "gke":
                sock = "nvidiaGPU-%d.sock" % ((serve_us - 1_003_600) // 1_000_000)
            self.plugin_socks[sock] = serve_us - (n - 1 - i) * 5_300
            L(t - 1_700, "I", "server.go:144" if self.kubelet_minor >= 26 else "server.go:149",
              '"Got registration request from device plugin with resource" resourceName="%s"' % res)
            if self.kubelet_minor >= 26:
                L(t - 1_660, "I", "handler.go:95", '"Registered client" name="%s"' % res)
                L(t - 1_020, "I", "manager.go:238", '"Device plugin connected" resourceName="%s"' % res)
        self.plugin_registered = True
        reg = dict(self.registered or {})
        for res in pv.resources:
            if res == "nvidia.com/gpu" and pv.mig_strategy == "single":
                reg[res] = [m[3] for g in self.gpus for m in (g.mig or [])]
            elif res == "nvidia.com/gpu":
                reg[res] = [g.uuid for g in self.gpus if not g.lost and not g.mig
                            and g.uuid not in self.unhealthy]
                if pv.replicas:   # time-slicing: every GPU is offered `replicas` times
                    reg[res] = ["%s::%d" % (u, i) for u in reg[res] for i in range(pv.replicas)]
            else:
                prof = res.split("mig-", 1)[1]
                reg[res] = [m[3] for g in self.gpus for m in (g.mig or []) if m[0] == prof]
        for k, val in self.cfg.get("k8s", {}).get("checkpoint_extra", {}).items():
            reg.setdefault(k, val)
        self.registered = reg
        self.checkpoint_us = us + 4_180

    # ======================================================================
    # events
    def play_events(self):
        evs = []
        for e in self.cfg.get("event", []):
            b = self.boots[e.get("boot", len(self.boots) - 1)]
            evs.append((b.at(self, e["at"]), e, b))
        for b in self.boots:
            pl = b.cfg.get("plugin")
            if pl:
                evs.append((b.at(self, pl["at"]), dict(type="plugin-start", **pl), b))
            for w in self.cfg.get("workload", []):
                if w.get("boot", len(self.boots) - 1) == b.index:
                    evs.append((b.at(self, w["at"]), dict(type="workload-start", w=w), b))
            if b.end_us:
                evs.append((b.end_us, dict(type="shutdown"), b))
        for b in self.boots:
            evs.append((b.start_us, dict(type="boot"), b))
        evs.sort(key=lambda x: (x[0], 0 if x[1]["type"] in ("boot",) else 1))
        for t, e, b in evs:
            getattr(self, "ev_" + e["type"].replace("-", "_"))(t, e, b)

    def ev_boot(self, t, e, b):
        if b.index > 0:
            # containerd finds the tasks of the previous boot gone.
            for c in self.containers:
                if c.running():
                    c.state = "CONTAINER_EXITED"
                    c.exit_code = 255
                    c.reason = "Unknown"
            for p in self.pods:
                for s in p.sandboxes:
                    s.state = "SANDBOX_NOTREADY"
        self.plugin_socks = {}
        self.plugin_registered = False
        self.play_boot(b)
        cd = getattr(b, "containerd_us", None)
        for c in self.containers:
            if c.reason == "Unknown" and not c.finished_ns:
                c.finished_ns = (cd or b.start_us) * 1000 + 61_000_000 + jitter(c.id, hi=999)

    def ev_shutdown(self, t, e, b):
        v = self.sysd
        self.unit_stop(t, "kubelet.service", "2h 11min 4.118s")
        self.unit_stop(t + 500_000, "containerd.service", "1h 2min 51.002s", 2_100_000)
        if "nvidia-persistenced.service" in self.units:
            self.unit_stop(t + 2_700_000, "nvidia-persistenced.service", "412ms", 90_000)
        self.pid1(t + 3_400_000, "Reached target System Reboot." if v >= 240 else "Reached target Reboot.")
        self.kernel(t + 3_900_000, "reboot: Restarting system", 5)

    def host_unit_plugin_start(self, b, t, outcome):
        """Bottlerocket's nvidia-k8s-device-plugin.service: the plugin's lines
        are the unit's journal (StandardError=journal+console)."""
        unit = "nvidia-k8s-device-plugin.service"
        pid = self.pid(7)
        self.unit_start(t - 40_000, unit, pid, 2_000)
        recs, reg = plugin_logs.start_records(self.plugin_pv, outcome)
        for us, line in plugin_logs.render(self.plugin_pv, t, recs):
            self.svc(us, unit, "nvidia-device-plugin", pid, line, exe="/usr/bin/nvidia-device-plugin")
        if reg not in (None, "exit"):
            self.plugin_registered_at(t + reg, serve_us=t + reg - 2_500)

    def ev_plugin_start(self, t, e, b):
        if self.plugin_pod is None:
            self.host_unit_plugin_start(b, t, e.get("outcome", "ok"))
            return
        c = self.plugin_start(b, t, e.get("outcome", "ok"))
        if c.state == "CONTAINER_EXITED" and e.get("crashloop_until"):
            until = b.at(self, e["crashloop_until"])
            delays = [10, 20, 40, 80, 160, 300]
            n = 0
            prev = None
            at = c.finished_ns // 1000 + delays[0] * 1_000_000
            while at < until:
                if prev is not None:
                    prev.removed = True   # kubelet keeps one dead container
                prev = c
                self.kubelet_log(c.finished_ns // 1000 + 900_000, "E", "pod_workers.go:1301",
                                 '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"%s\\" with CrashLoopBackOff: \\"back-off %s restarting failed container=%s pod=%s_%s(%s)\\"" pod="%s/%s" podUID="%s"'
                                 % (c.spec.name, fmt_backoff(delays[min(n, 5)]), c.spec.name,
                                    c.pod.name, c.pod.namespace, c.pod.uid, c.pod.namespace,
                                    c.pod.name, c.pod.uid))
                c = self.plugin_start(b, at, e.get("outcome", "ok"), new_sandbox=False)
                n += 1
                at = c.finished_ns // 1000 + delays[min(n, 5)] * 1_000_000
            if prev is not None:
                prev.removed = False
                for x in self.containers:
                    if x.pod is c.pod and x is not c and x is not prev and x.boot is b:
                        x.removed = True
                        x.log_deleted = True   # kubelet GC removes the log too

    def ev_workload_start(self, t, e, b):
        w = e["w"]
        pod = next(p for p in self.pods if p.name == w["pod"])
        sb = self.new_sandbox(b, pod, t - 1_400_000)
        spec = next(iter(pod.specs.values()))
        c = self.new_container(b, sb, spec, t - 300_000)
        n = w.get("gpus", 1)
        c.gpu_uuids = [g.uuid for g in self.gpus[w.get("gpu_offset", 0):w.get("gpu_offset", 0) + n]]
        spec.gpu_env = ["NVIDIA_VISIBLE_DEVICES=" + ",".join(c.gpu_uuids)]
        for line in w.get("log", []):
            dt, stream, text = line
            us = b.at(self, dt) if isinstance(dt, str) else c.started_ns // 1000 + int(dt * 1e6)
            c.log.append((us * 1000 + jitter(text, hi=999), stream, text))
        if w.get("ended"):
            ended = b.at(self, w["ended"])
            c.state = "CONTAINER_EXITED"
            c.exit_code = w.get("exit_code", 1)
            c.reason = "Error"
            c.finished_ns = ended * 1000 + 120_117

    def ev_daemon_reload(self, t, e, b):
        ms = e.get("ms", 287)
        for i, line in enumerate(os_profiles.msg_reload(self.sysd, e.get("caller_pid", 0),
                                                        e.get("caller_comm", "systemctl"),
                                                        e.get("caller_unit"), ms)):
            self.pid1(t + (ms * 1000 if line.startswith("Reloading finished") else i * 90), line)
        for c in self.containers:
            if (c.running() and c.gpu_uuids and not c.spec.privileged
                    and self.cgroup_driver == "systemd"
                    and self.nvidia_mode in ("auto", "legacy") and self.legacy_mode()):
                c.devices_lost_at = t

    def legacy_mode(self):
        tk = tuple(int(x) for x in self.cfg["versions"]["toolkit"].split(".")[:2])
        if self.nvidia_mode == "legacy":
            return True
        if self.nvidia_mode == "auto":
            return tk < (1, 18)
        return False

    def ev_kubelet_restart(self, t, e, b):
        self.unit_stop(t, "kubelet.service", e.get("cpu", "3h 2min 10.447s"), 240_000)
        nt = t + 480_000
        pc = self.plugin_container()
        was_registered = self.plugin_registered
        self.kubelet_start(b, nt, first=False)
        if pc is None:
            return
        react = e.get("plugin", "reregister")
        if react == "none":
            return
        t0 = self.kubelet_sock_us + 1_244
        recs, reg = plugin_logs.kubelet_restart_records(self.plugin_pv, "ok")
        self.plugin_emit(pc, t0, recs)
        self.plugin_registered_at(t0 + reg, t0 + reg - 2_500)
        if react == "reregister-unhealthy":
            bad = [g for g in self.gpus if not g.lost]
            urecs = plugin_logs.unhealthy_records(self.plugin_pv, bad, "handle")
            self.plugin_emit(pc, t0 + reg + 1_000, urecs)
            self.unhealthy |= {g.uuid for g in bad}
            self.registered["nvidia.com/gpu"] = []
            self.checkpoint_us = t0 + reg + 1_000 + urecs[-1][0] + 3_000

    def ev_xid(self, t, e, b):
        g = self.gpus[e["gpu"]]
        xid = e["xid"]
        text = e.get("text", "")
        if e.get("lines"):
            for i, line in enumerate(e["lines"]):
                self.kernel(t + i * 40, line, 4 if "Xid" in line else 3)
        else:
            self.kernel(t, "NVRM: GPU at %s: %s" % (g.nvrm_id, g.uuid), 4)
            self.kernel(t + 21, "NVRM: GPU Board Serial Number: %s" % g.serial, 4)
            self.kernel(t + 44, "NVRM: Xid (%s): %d, %s" % (g.nvrm_id, xid, text), 4)
        if e.get("lost"):
            g.lost = True
            self.kernel(t + 61, "NVRM: GPU %s: GPU has fallen off the bus." % g.sysfs_id, 3)
            self.kernel(t + 77, "NVRM: A GPU crash dump has been created. If possible, please run", 3)
            self.kernel(t + 80, "NVRM: nvidia-bug-report.sh as root to collect this data before", 3)
            self.kernel(t + 83, "NVRM: the NVIDIA kernel module is unloaded.", 3)
        pc = self.plugin_container()
        pv = self.plugin_pv
        if pc and self.plugin_registered and xid not in ignored_xids(pv.v):
            handle = "0x7f%010x" % (int(hexid(g.uuid, n=8), 16) & 0xffffffffff)
            recs = plugin_logs.xid_records(pv, g, xid, handle)
            self.plugin_emit(pc, t + 3_412, recs)
            self.unhealthy.add(g.uuid)
            if self.registered and g.uuid in self.registered.get("nvidia.com/gpu", []):
                self.registered["nvidia.com/gpu"] = [
                    u for u in self.registered["nvidia.com/gpu"] if u != g.uuid]
            self.checkpoint_us = t + 3_412 + 2_900

    def ev_plugin_recreate(self, t, e, b):
        """crictl stop + crictl rm of the running plugin container; kubelet
        then creates a new attempt in the same sandbox."""
        old = self.plugin_container()
        self.containerd_log(t, 'StopContainer for "%s" with timeout 30 (s)' % old.id)
        self.containerd_log(t + 1_102, 'Stop container "%s" with signal terminated' % old.id)
        self.containerd_log(t + 52_330, "shim disconnected", extra=" id=%s" % old.id)
        self.containerd_log(t + 61_440, 'StopContainer for "%s" returns successfully' % old.id)
        old.state = "CONTAINER_EXITED"
        old.exit_code = 2
        old.reason = "Error"
        old.finished_ns = (t + 50_817) * 1000 + 337
        rm = b.at(self, e["rm_at"]) if "rm_at" in e else t + 3_800_000
        self.containerd_log(rm, 'RemoveContainer for "%s"' % old.id)
        self.containerd_log(rm + 9_874, 'RemoveContainer for "%s" returns successfully' % old.id)
        old.removed = True
        nt = b.at(self, e["new_at"]) if "new_at" in e else rm + 2_600_000
        c = self.plugin_start(b, nt, e.get("outcome", "ok"), new_sandbox=False)
        if e.get("attempt") is not None:
            c.attempt = e["attempt"]

    def ev_plugin_start_errors(self, t, e, b):
        """Plugin container cannot even start: the legacy hook fails (driver
        library mismatch). Kubelet backs off: 10s, 20s, 40s, ... 5m."""
        pod = self.plugin_pod
        spec = next(iter(pod.specs.values()))
        old = self.plugin_container()
        if old:
            self.containerd_log(t, 'StopContainer for "%s" with timeout 30 (s)' % old.id)
            old.state, old.exit_code, old.reason = "CONTAINER_EXITED", 0, "Completed"
            old.finished_ns = (t + 1_502_114) * 1000
            self.plugin_socks = {}
            self.plugin_registered = False
            self.kubelet_log(t + 1_504_000, "E", "client.go:90",
                             '"ListAndWatch ended unexpectedly for device plugin" err="rpc error: code = Unavailable desc = error reading from server: EOF" resource="nvidia.com/gpu"')
            for c in self.containers:
                if c.pod is pod:
                    c.removed = True
            t += 4_000_000
        newpod = e.get("new_pod_uid")
        if newpod:
            # The old pod object is deleted: kubelet removes its sandbox,
            # containers and /var/log/pods directory.
            import copy
            old_pod = pod
            for c in self.containers:
                if c.pod is old_pod:
                    c.removed = True
                    c.log_deleted = True
            self.pods.remove(old_pod)
            pod = copy.copy(old_pod)
            pod.uid = self.uuid("pod", newpod)
            pod.name = "%s-%s" % (self.cfg["plugin"].get("daemonset", "nvidia-device-plugin-daemonset"),
                                  hexid(newpod, n=5))
            pod.sandboxes = []
            self.pods.append(pod)
            self.plugin_pod = pod
        err_esc = err_line = None
        sb = self.new_sandbox(b, pod, t)
        delays = [0, 11, 24, 51, 92, 175, 303, 306, 304, 307]
        until = b.at(self, e["until"])
        err = e["error"]
        err_esc = err.replace("\n", "\\n")
        at = t + 600_000
        n = 0
        last = None
        while at < until:
            self.kernel_mismatch(at + 150_000)
            c = self.new_container(b, sb, spec, at, start=False)
            c.state, c.exit_code, c.reason = "CONTAINER_EXITED", 128, "StartError"
            c.message = err
            c.finished_ns = (at + 160_431) * 1000
            self.containerd_log(at + 161_000, 'StartContainer for "%s" failed' % c.id, "error",
                                extra=' error="failed to create containerd task: %s"' % err_esc.replace('"', '\\"'))
            self.kubelet_log(at + 163_200, "E", "pod_workers.go:1301",
                             '"Error syncing pod, skipping" err="failed to \\"StartContainer\\" for \\"%s\\" with RunContainerError: \\"%s\\"" pod="%s/%s" podUID="%s"'
                             % (spec.name, err_esc.replace('"', '\\\\\\"'), pod.namespace, pod.name, pod.uid))
            if last:
                last.removed = True   # kubelet GC keeps the newest dead container
                last.log_deleted = True
            last = c
            n += 1
            at += delays[min(n, len(delays) - 1)] * 1_000_000
        self.start_errors = n

    def kernel_mismatch(self, us):
        v = self.cfg["nvidia_smi"]
        for i, line in enumerate([
                "NVRM: API mismatch: the client has the version %s, but" % v["lib_version"],
                "NVRM: this kernel module has the version %s.  Please" % self.cfg["versions"]["driver"],
                "NVRM: make sure that this kernel module and all NVIDIA driver",
                "NVRM: components have the same version."]):
            self.kernel(us + i * 5, line, 4)

    def ev_apt_upgrade(self, t, e, b):
        unit = "apt-daily-upgrade.service"
        desc = UNIT_DESC[unit]
        v = self.sysd
        self.pid1(t, os_profiles.msg_starting(v, unit, desc), unit, MSG_STARTING)
        for dt, line in e.get("lines", []):
            self.svc(t + int(dt * 1e6), unit, "unattended-upgr", self.pid(2), line,
                     transport="stdout", exe="/usr/bin/python3.12")
        end = b.at(self, e["end"])
        d = os_profiles.msg_deactivated(v, unit)
        if d:
            self.pid1(end, d, unit, MSG_UNIT_SUCCESS)
        if v >= 250:
            fin = "Finished %s - %s." % (unit, desc)
        elif v >= 246:
            fin = "Finished %s." % desc
        else:
            fin = "Started %s." % desc
        self.pid1(end + 200, fin, unit, MSG_STARTED)
        c = os_profiles.msg_consumed(v, unit, "1min 41.227s")
        if c:
            self.pid1(end + 260, c, unit)

    def ev_journal(self, t, e, b):
        if e.get("kind") == "kernel":
            self.kernel(t, e["message"], e.get("priority", 6))
        elif e.get("kind") == "pid1":
            self.pid1(t, e["message"], e.get("unit"), prio=e.get("priority", 6))
        elif e.get("kind") == "kubelet":
            self.kubelet_log(t, e.get("sev", "I"), e.get("src", "kubelet.go:2407"), e["message"])
        elif e.get("kind") == "containerd":
            self.containerd_log(t, e["message"], e.get("level", "info"))
        else:
            self.svc(t, e["unit"], e["ident"], e.get("pid", 4242), e["message"],
                     e.get("priority", 6), e.get("transport", "stdout"))

    def ev_plugin_log(self, t, e, b):
        pc = self.plugin_container()
        recs = [(int(dt * 1e6), sev, src, msg) for dt, sev, src, msg in e["records"]]
        self.plugin_emit(pc, t, recs)

    # ======================================================================
    def simulate(self):
        self.add_pods()
        self.play_events()
