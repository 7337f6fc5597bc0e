"""Materialises a simulated Host: OUT/root (files, device nodes, sockets,
journal) and OUT/bin (stub answers)."""
import json
import os
import shutil
import sys

from . import cri_fake, kube_fake, nvidia_fake
from .clock import hexid, jitter
from .tree_writer import Tree

BASE_DEVICES = [  # (kind, major, minor, access) as runc allows by default
    ("c", "136", "*", "rwm"), ("c", "10", "200", "rwm"), ("c", "5", "2", "rwm"),
    ("c", "5", "0", "rwm"), ("c", "1", "9", "rwm"), ("c", "1", "8", "rwm"),
    ("c", "1", "7", "rwm"), ("c", "1", "5", "rwm"), ("c", "1", "3", "rwm"),
    ("c", "*", "*", "m"), ("b", "*", "*", "m")]
UVM, CAPS, NVSW, NVLINK = 508, 511, 509, 510


class Output:
    def __init__(self, host, out_dir, stub_path):
        self.h = host
        self.out = out_dir
        self.stub_path = stub_path
        self.root = os.path.join(out_dir, "root")
        self.bin = os.path.join(out_dir, "bin")
        self.tree = Tree(host.node_created_us * 1000)
        self.answers = []
        self.blob_n = 0

    # ------------------------------------------------------------------ tree
    def ns(self, us):
        return us * 1000

    def build_tree(self):
        h, T = self.h, self.tree
        boot = h.boots[-1]
        P = h.profile
        collect = h.collect_us
        up = (collect - boot.start_us) / 1e6
        btime = boot.start_us // 1_000_000
        boot_ns = boot.start_us * 1000 + 1_000_000_000
        # /proc
        stat = ["cpu  %d 1127 %d %d 30021 0 5219 0 0 0" % (int(up * 931), int(up * 402), int(up * h.cpus * 97))]
        for i in range(min(h.cpus, 4)):
            stat.append("cpu%d %d 9 %d %d 233 0 41 0 0 0" % (i, int(up * 7), int(up * 3), int(up * 97)))
        stat += ["intr 1839201553 0 9 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0",
                 "ctxt 2918410214", "btime %d" % btime, "processes 4471862",
                 "procs_running 3", "procs_blocked 0",
                 "softirq 830187710 12 112771003 531 20017729 310282 0 1881034 381012034 52 313195033"]
        T.file("proc/stat", "\n".join(stat) + "\n", self.ns(collect), 0o444)
        T.file("proc/uptime", "%.2f %.2f\n" % (up, up * h.cpus * 0.97), self.ns(collect), 0o444)
        T.file("proc/sys/kernel/random/boot_id", boot.dashed_id + "\n", self.ns(collect), 0o444)
        T.file("proc/sys/kernel/osrelease", P["kernel"] + "\n", self.ns(collect), 0o444)
        T.file("proc/version", "Linux version %s (%s) (%s) %s\n" % (
            P["kernel"], "mockbuild@ecs-build" if h.profile["os"] == "alinux3" else "buildd@lcy02-amd64-046",
            P["compiler"], P["kernel_build"]), self.ns(collect), 0o444)
        T.file("proc/cmdline", P["cmdline"].format(kernel=P["kernel"]), self.ns(collect), 0o444)
        T.file("proc/devices", self.proc_devices(), self.ns(collect), 0o444)
        T.file("proc/1/mountinfo", self.mountinfo(), self.ns(collect), 0o444)
        v = h.cfg["versions"]
        if h.driver:
            T.file("proc/driver/nvidia/version", nvidia_fake.proc_version(
                v["driver"], v["driver_date"], P["gcc"], v.get("open_module", False)),
                self.ns(collect), 0o444)
        for g in h.gpus:
            T.file("proc/driver/nvidia/gpus/%s/information" % g.sysfs_id,
                   nvidia_fake.proc_information(g), self.ns(collect), 0o444)
        # sysfs PCI
        for g in h.gpus:
            self.pci(g.sysfs_id, 0x10DE, g.m["dev"], 0x030200, boot_ns, g.m["subsys"])
        if h.nvswitch:
            for i in range(nvidia_fake.NVSWITCH_COUNT[h.arch]):
                bus = "%02x" % (0x05 + i * 2) if h.arch == "Hopper" else "%02x" % (0xc4 + i)
                self.pci("0000:%s:00.0" % bus, 0x10DE, nvidia_fake.NVSWITCH_DEV[h.arch],
                         0x068000, boot_ns, "000010DE")
        for bdf, ven, dev, cls in (("0000:00:00.0", 0x8086, 0x09a2, 0x060000),
                                   ("0000:00:1f.0", 0x8086, 0x1bce, 0x060100),
                                   ("0000:00:1f.2", 0x8086, 0x1bc7, 0x058000),
                                   ("0000:17:00.0", 0x15b3, 0x101b, 0x020700),
                                   ("0000:6a:00.0", 0x144d, 0xa80a, 0x010802)):
            self.pci(bdf, ven, dev, cls, boot_ns, "%04X%04X" % (dev, ven))
        T.mkdir("var/log/journal/%s" % h.machine_id, self.ns(h.journal.last_realtime()), 0o2755)
        self.cgroups(boot_ns)
        if h.driver:
            self.devnodes(boot)
        self.etc()
        self.platform_files()
        self.kubelet_files()
        self.pod_logs()

    def pci(self, bdf, ven, dev, cls, m, subsys):
        d = "sys/bus/pci/devices/%s/" % bdf
        self.tree.file(d + "vendor", "0x%04x\n" % ven, m, 0o444)
        self.tree.file(d + "device", "0x%04x\n" % dev, m, 0o444)
        self.tree.file(d + "class", "0x%06x\n" % cls, m, 0o444)
        self.tree.file(d + "subsystem_vendor", "0x%s\n" % subsys[4:].lower(), m, 0o444)
        self.tree.file(d + "subsystem_device", "0x%s\n" % subsys[:4].lower(), m, 0o444)
        self.tree.file(d + "numa_node", "%d\n" % (0 if int(bdf[5:7], 16) < 0x80 else 1), m, 0o444)

    def proc_devices(self):
        h = self.h
        ch = [(1, "mem"), (4, "/dev/vc/0"), (4, "tty"), (4, "ttyS"), (5, "/dev/tty"),
              (5, "/dev/console"), (5, "/dev/ptmx"), (7, "vcs"), (10, "misc"), (13, "input"),
              (21, "sg"), (29, "fb"), (128, "ptm"), (136, "pts"), (162, "raw"), (180, "usb"),
              (188, "ttyUSB"), (189, "usb_device"), (195, "nvidia-frontend"),
              (202, "cpu/msr"), (203, "cpu/cpuid"), (226, "drm"), (234, "ipmidev"),
              (235, "aux"), (236, "cec"), (237, "hidraw"), (238, "nvme-generic"),
              (239, "nvme"), (240, "bsg"), (241, "watchdog"), (242, "ptp"), (243, "pps"),
              (244, "rtc"), (245, "dax"), (246, "dimmctl"), (247, "ndctl"), (248, "tpm"),
              (UVM, "nvidia-uvm"), (NVSW, "nvidia-nvswitch"), (NVLINK, "nvidia-nvlink"),
              (CAPS, "nvidia-caps")]
        blk = [(7, "loop"), (8, "sd"), (9, "md"), (65, "sd"), (66, "sd"), (67, "sd"),
               (68, "sd"), (69, "sd"), (70, "sd"), (71, "sd"), (128, "sd"), (129, "sd"),
               (130, "sd"), (131, "sd"), (132, "sd"), (133, "sd"), (134, "sd"),
               (135, "sd"), (253, "device-mapper"), (254, "mdp"), (259, "blkext")]
        out = ["Character devices:"] + ["%3d %s" % x for x in ch]
        out += ["", "Block devices:"] + ["%3d %s" % x for x in blk]
        return "\n".join(out) + "\n"

    def mountinfo(self):
        h = self.h
        P = h.profile
        rootdev = "259:2" if "nvme" in P["root_dev"] else "8:2"
        lines = [
            "22 28 0:21 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw",
            "23 28 0:22 / /proc rw,nosuid,nodev,noexec,relatime shared:14 - proc proc rw",
            "24 28 0:5 / /dev rw,nosuid,relatime shared:2 - devtmpfs udev rw,size=1056660076k,nr_inodes=264165019,mode=755,inode64",
            "25 24 0:23 / /dev/pts rw,nosuid,noexec,relatime shared:3 - devpts devpts rw,gid=5,mode=620,ptmxmode=000",
            "26 28 0:24 / /run rw,nosuid,nodev,noexec,relatime shared:5 - tmpfs tmpfs rw,size=211332016k,mode=755,inode64",
            "28 1 %s / / rw,relatime shared:1 - %s %s rw" % (rootdev, P["fs"], P["root_dev"]),
            "29 22 0:6 / /sys/kernel/security rw,nosuid,nodev,noexec,relatime shared:8 - securityfs securityfs rw",
            "30 24 0:25 / /dev/shm rw,nosuid,nodev shared:4 - tmpfs tmpfs rw,inode64"]
        n = 31
        if h.cgroup == "v2":
            lines.append("%d 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot" % n)
            n += 1
        else:
            lines.append("%d 22 0:26 / /sys/fs/cgroup ro,nosuid,nodev,noexec shared:9 - tmpfs tmpfs ro,mode=755,inode64" % n)
            n += 1
            if P.get("hybrid"):
                lines.append("%d %d 0:27 / /sys/fs/cgroup/unified rw,nosuid,nodev,noexec,relatime shared:10 - cgroup2 cgroup2 rw,nsdelegate" % (n, n - 1))
                n += 1
            lines.append("%d 31 0:28 / /sys/fs/cgroup/systemd rw,nosuid,nodev,noexec,relatime shared:11 - cgroup cgroup rw,xattr,name=systemd" % n)
            n += 1
            dev = 29
            for i, ctl in enumerate(self.v1_controllers()):
                opts = ctl
                lines.append("%d 31 0:%d / /sys/fs/cgroup/%s rw,nosuid,nodev,noexec,relatime shared:%d - cgroup cgroup rw,%s"
                             % (n, dev, ctl, 12 + i, opts))
                n += 1
                dev += 1
        lines += ["%d 22 0:7 / /sys/kernel/debug rw,nosuid,nodev,noexec,relatime shared:20 - debugfs debugfs rw" % n,
                  "%d 22 0:12 / /sys/fs/bpf rw,nosuid,nodev,noexec,relatime shared:21 - bpf bpf rw,mode=700" % (n + 1),
                  "%d 28 %s /var/lib/kubelet /var/lib/kubelet rw,relatime shared:1 - %s %s rw" % (n + 2, rootdev, P["fs"], P["root_dev"])]
        return "\n".join(lines) + "\n"

    def v1_controllers(self):
        return ["cpu,cpuacct", "memory", "devices", "freezer", "net_cls,net_prio",
                "blkio", "cpuset", "hugetlb", "perf_event", "pids", "rdma"]

    def cgroups(self, m):
        h, T = self.h, self.tree
        if h.cgroup == "v2":
            T.file("sys/fs/cgroup/cgroup.controllers",
                   "cpuset cpu io memory hugetlb pids rdma misc\n", m, 0o444)
        else:
            T.file("sys/fs/cgroup/devices/devices.list", "a *:* rwm\n", m, 0o444)
        for c in h.containers:
            if not c.running():
                continue
            path = c.cgroup_dir()
            started = c.started_ns
            if h.cgroup == "v2":
                T.file("sys/fs/cgroup%s/cgroup.procs" % path, "%d\n" % c.pid, started, 0o644)
                T.file("sys/fs/cgroup%s/cgroup.controllers" % path,
                       "cpuset cpu io memory hugetlb pids rdma misc\n", started, 0o444)
                cg = "0::%s\n" % path
            else:
                T.file("sys/fs/cgroup/devices%s/devices.list" % path,
                       self.devices_list(c), (c.devices_lost_at * 1000 if c.devices_lost_at else started), 0o444)
                T.file("sys/fs/cgroup/devices%s/cgroup.procs" % path, "%d\n" % c.pid, started, 0o644)
                ids = {"freezer": 12, "cpuset": 11, "hugetlb": 10, "memory": 9, "blkio": 8,
                       "pids": 7, "perf_event": 6, "devices": 5, "net_cls,net_prio": 4,
                       "rdma": 3, "cpu,cpuacct": 2}
                rows = []
                for ctl, n in sorted(ids.items(), key=lambda x: -x[1]):
                    rows.append("%d:%s:%s" % (n, ctl, "/" if ctl == "rdma" else path))
                rows.append("1:name=systemd:%s" % path)
                if h.profile.get("hybrid"):
                    rows.append("0::%s" % path)
                cg = "\n".join(rows) + "\n"
            T.file("proc/%d/cgroup" % c.pid, cg, self.ns(h.collect_us), 0o444)

    def devices_list(self, c):
        rows = [" ".join((k, "%s:%s" % (a, b), acc)) for k, a, b, acc in BASE_DEVICES]
        if c.spec.privileged:
            return "a *:* rwm\n"
        if c.gpu_uuids and not c.devices_lost_at:
            rows += ["c 195:255 rw", "c %d:0 rw" % UVM, "c %d:1 rw" % UVM]
            for g in self.h.gpus:
                if g.uuid in c.gpu_uuids:
                    rows.append("c 195:%d rw" % g.minor)
        return "\n".join(rows) + "\n"

    def devnodes(self, boot):
        h, T = self.h, self.tree
        bc = boot.cfg
        load = boot.at(h, bc.get("driver_load", 14.2))
        made = (boot.at(h, bc["persistenced"]) if "persistenced" in bc else load + 2_000_000) * 1000
        uvm = (load + 2_410_387) * 1000
        links = h.cfg["host"].get("dev_char_links", True)
        T.chardev("dev/null", 1, 3, boot.start_us * 1000 + 900_000_000, 0o666)
        T.symlink("dev/char/1:3", "../null", boot.start_us * 1000 + 900_000_000)
        nodes = [("nvidiactl", 195, 255, made, 0o666), ("nvidia-modeset", 195, 254, made, 0o666),
                 ("nvidia-uvm", UVM, 0, uvm, 0o666), ("nvidia-uvm-tools", UVM, 1, uvm, 0o666),
                 ("nvidia-caps/nvidia-cap1", CAPS, 1, made, 0o400),
                 ("nvidia-caps/nvidia-cap2", CAPS, 2, made, 0o444)]
        for g in h.gpus:
            if not g.lost or True:
                nodes.append(("nvidia%d" % g.minor, 195, g.minor, made, 0o666))
        if h.nvswitch:
            nodes.append(("nvidia-nvswitchctl", NVSW, 255, made, 0o666))
            for i in range(nvidia_fake.NVSWITCH_COUNT[h.arch]):
                nodes.append(("nvidia-nvswitch%d" % i, NVSW, i, made, 0o666))
        for name, ma, mi, m, mode in nodes:
            T.chardev("dev/" + name, ma, mi, m, mode)
            if links:
                T.symlink("dev/char/%d:%d" % (ma, mi), "../" + name, m)
        if h.cfg["host"].get("dev_char_links_partial"):
            for name in h.cfg["host"]["dev_char_links_partial"]:
                pass

    def etc(self):
        h, T = self.h, self.tree
        base = h.node_created_us * 1000
        T.file("etc/hostname", h.hostname + "\n", base)
        T.file("etc/machine-id", h.machine_id + "\n", base, 0o444)
        T.symlink("etc/localtime", "/usr/share/zoneinfo/" + h.clock.tz_name, base)
        T.file("etc/timezone", h.clock.tz_name + "\n", base)
        T.file("etc/os-release", h.profile["os_release"], base)
        lay = h.layout
        if lay.containerd_config:
            T.file(lay.containerd_config.lstrip("/"), self.containerd_toml(), base + 3_600 * 10**9)
        if h.cfg["versions"].get("toolkit") and not lay.gpu_operator:
            T.file("etc/nvidia-container-runtime/config.toml", self.nvidia_runtime_toml(), base + 3_500 * 10**9)
        for name, text in self.manifests().items():
            T.file("etc/kubernetes/manifests/" + name, text, base + 4_000 * 10**9, 0o600)
        T.file(lay.kubeconfig.lstrip("/"), kube_fake.kubeconfig(h), base + 4_100 * 10**9, 0o600)
        if h.enable_cdi or h.nvidia_mode == "cdi":
            T.file("etc/cdi/nvidia.yaml", self.cdi_spec(), base + 3_700 * 10**9)
        for rel, text in h.cfg.get("files", {}).items():
            T.file(rel, text, base + 5_000 * 10**9)
        if h.fm_log:
            # The fabric manager's own log (LOG_FILE_NAME), in local time.
            lines = ["[%s] [%s] [tid %d] %s\n" % (h.clock.local(us).strftime("%b %d %Y %H:%M:%S"), level, pid, msg)
                     for us, level, pid, msg in h.fm_log]
            T.file("var/log/fabricmanager.log", "".join(lines), self.ns(max(us for us, *_ in h.fm_log)), 0o644)

    def containerd_toml(self):
        h = self.h
        sc = "true" if h.cgroup_driver == "systemd" else "false"
        rt = ""
        if h.nvidia_handler:
            rt = """
        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia]
          privileged_without_host_devices = false
          runtime_engine = ""
          runtime_root = ""
          runtime_type = "io.containerd.runc.v2"

          [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia.options]
            BinaryName = "/usr/bin/nvidia-container-runtime"
            SystemdCgroup = %s
""" % ("true" if h.nvidia_systemd_cgroup else "false")
        return """disabled_plugins = []
imports = []
oom_score = -999
plugin_dir = ""
required_plugins = []
root = "/var/lib/containerd"
state = "/run/containerd"
temp = ""
version = 2

[cgroup]
  path = ""

[debug]
  address = ""
  format = ""
  gid = 0
  level = ""
  uid = 0

[grpc]
  address = "/run/containerd/containerd.sock"
  gid = 0
  max_recv_message_size = 16777216
  max_send_message_size = 16777216
  tcp_address = ""
  tcp_tls_ca = ""
  tcp_tls_cert = ""
  tcp_tls_key = ""
  uid = 0

[plugins]

  [plugins."io.containerd.grpc.v1.cri"]
    device_ownership_from_security_context = false
    disable_apparmor = false
    disable_cgroup = false
    disable_hugetlb_controller = true
    disable_proc_mount = false
    disable_tcp_service = true
    enable_cdi = {cdi}
    cdi_spec_dirs = ["/etc/cdi", "/var/run/cdi"]
    enable_selinux = false
    enable_tls_streaming = false
    enable_unprivileged_icmp = false
    enable_unprivileged_ports = false
    ignore_image_defined_volumes = false
    max_concurrent_downloads = 3
    max_container_log_line_size = 16384
    netns_mounts_under_state_dir = false
    restrict_oom_score_adj = false
    sandbox_image = "{pause}"
    selinux_category_range = 1024
    stats_collect_period = 10
    stream_idle_timeout = "4h0m0s"
    stream_server_address = "127.0.0.1"
    stream_server_port = "0"
    systemd_cgroup = false
    tolerate_missing_hugetlb_controller = true
    unset_seccomp_profile = ""

    [plugins."io.containerd.grpc.v1.cri".cni]
      bin_dir = "/opt/cni/bin"
      conf_dir = "/etc/cni/net.d"
      conf_template = ""
      ip_pref = ""
      max_conf_num = 1

    [plugins."io.containerd.grpc.v1.cri".containerd]
      default_runtime_name = "{default}"
      disable_snapshot_annotations = true
      discard_unpacked_layers = false
      ignore_rdt_not_enabled_errors = false
      no_pivot = false
      snapshotter = "overlayfs"

      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes]

        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc]
          privileged_without_host_devices = false
          runtime_engine = ""
          runtime_root = ""
          runtime_type = "io.containerd.runc.v2"

          [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.runc.options]
            BinaryName = ""
            SystemdCgroup = {sc}
{rt}
    [plugins."io.containerd.grpc.v1.cri".registry]
      config_path = ""

      [plugins."io.containerd.grpc.v1.cri".registry.auths]

      [plugins."io.containerd.grpc.v1.cri".registry.configs]

        [plugins."io.containerd.grpc.v1.cri".registry.configs."{reg}".auth]
          username = "puller"
          password = "{pw}"

      [plugins."io.containerd.grpc.v1.cri".registry.headers]

      [plugins."io.containerd.grpc.v1.cri".registry.mirrors]

        [plugins."io.containerd.grpc.v1.cri".registry.mirrors."docker.io"]
          endpoint = ["https://registry-1.docker.io"]

[timeouts]
  "io.containerd.timeout.bolt.open" = "0s"
  "io.containerd.timeout.shim.cleanup" = "5s"
  "io.containerd.timeout.shim.load" = "5s"
  "io.containerd.timeout.shim.shutdown" = "3s"
  "io.containerd.timeout.task.state" = "2s"

[ttrpc]
  address = ""
  gid = 0
  uid = 0
""".format(cdi="true" if h.enable_cdi else "false", pause=h.pause_image,
           default=h.default_runtime, sc=sc, rt=rt, reg=h.registry_host,
           pw=h.canary("registry-password"))

    def nvidia_runtime_toml(self):
        h = self.h
        v = h.cfg["versions"]["toolkit"]
        return """#accept-nvidia-visible-devices-as-volume-mounts = false
#accept-nvidia-visible-devices-envvar-when-unprivileged = true
disable-require = false
supported-driver-capabilities = "compat32,compute,display,graphics,ngx,utility,video"
#swarm-resource = "DOCKER_RESOURCE_GPU"

[nvidia-container-cli]
#debug = "/var/log/nvidia-container-toolkit.log"
environment = []
#ldcache = "/etc/ld.so.cache"
ldconfig = "@/sbin/ldconfig"
load-kmods = true
#no-cgroups = false
#path = "/usr/bin/nvidia-container-cli"
#root = "/run/nvidia/driver"
#user = "root:video"

[nvidia-container-runtime]
#debug = "/var/log/nvidia-container-runtime.log"
log-level = "info"
mode = "{mode}"
runtimes = ["docker-runc", "runc", "crun"]

[nvidia-container-runtime.modes]

[nvidia-container-runtime.modes.cdi]
annotation-prefixes = ["cdi.k8s.io/"]
default-kind = "nvidia.com/gpu"
spec-dirs = ["/etc/cdi", "/var/run/cdi"]

[nvidia-container-runtime.modes.csv]
mount-spec-path = "/etc/nvidia-container-runtime/host-files-for-container.d"

[nvidia-container-runtime-hook]
path = "nvidia-container-runtime-hook"
skip-mode-detection = false

[nvidia-ctk]
path = "nvidia-ctk"
""".format(mode=h.nvidia_mode)

    def cdi_spec(self):
        h = self.h
        devs = []
        for g in h.gpus:
            devs.append("""- containerEdits:
    deviceNodes:
    - path: /dev/nvidia%d
  name: "%d"
- containerEdits:
    deviceNodes:
    - path: /dev/nvidia%d
  name: %s""" % (g.minor, g.index, g.minor, g.uuid))
        return """---
cdiVersion: 0.5.0
containerEdits:
  deviceNodes:
  - path: /dev/nvidia-modeset
  - path: /dev/nvidia-uvm
  - path: /dev/nvidia-uvm-tools
  - path: /dev/nvidiactl
  env:
  - NVIDIA_VISIBLE_DEVICES=void
  hooks:
  - args:
    - nvidia-cdi-hook
    - create-symlinks
    - --link
    - libnvidia-allocator.so.1::/usr/lib/x86_64-linux-gnu/gbm/nvidia-drm_gbm.so
    hookName: createContainer
    path: /usr/bin/nvidia-cdi-hook
  - args:
    - nvidia-cdi-hook
    - update-ldcache
    - --folder
    - /usr/lib/x86_64-linux-gnu
    hookName: createContainer
    path: /usr/bin/nvidia-cdi-hook
  mounts:
  - containerPath: /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.%s
    hostPath: /usr/lib/x86_64-linux-gnu/libnvidia-ml.so.%s
    options:
    - ro
    - nosuid
    - nodev
    - bind
devices:
%s
- containerEdits:
    deviceNodes:
%s
  name: all
kind: nvidia.com/gpu
""" % (h.cfg["versions"]["driver"], h.cfg["versions"]["driver"], "\n".join(devs),
       "\n".join("    - path: /dev/nvidia%d" % g.minor for g in h.gpus))

    def manifests(self):
        h = self.h
        out = {}
        pc = h.cfg["plugin"]
        pod = h.plugin_pod
        if pod is not None and pod.kind == "static":
            sp = next(iter(pod.specs.values()))
            env = "".join('        - name: %s\n          value: "%s"\n' % kv for kv in sp.env)
            env += "".join("        - name: %s\n          valueFrom:\n            secretKeyRef:\n"
                           "              name: registry-mirror-credentials\n              key: %s\n"
                           % (k, k.lower().replace("_", "-")) for k, _ in sp.secret_env)
            args = "".join('        - "%s"\n' % a for a in sp.args)
            out["nvidia-device-plugin.yml"] = """apiVersion: v1
kind: Pod
metadata:
  annotations:
    scheduler.alpha.kubernetes.io/critical-pod: ""
  labels:
    component: nvidia-device-plugin
  name: nvidia-device-plugin
  namespace: {ns}
spec:
  containers:
    - image: {image}
      name: {cname}
{args_block}      env:
{env}      securityContext:
        allowPrivilegeEscalation: false
        capabilities:
          drop: ["ALL"]
      volumeMounts:
        - name: device-plugin
          mountPath: /var/lib/kubelet/device-plugins
  hostNetwork: true
  priorityClassName: system-node-critical
  volumes:
    - name: device-plugin
      hostPath:
        path: /var/lib/kubelet/device-plugins
""".format(ns=pod.namespace, image=sp.image, cname=sp.name,
           args_block=("      args:\n" + args) if args else "", env=env)
        out["nginx-proxy.yml"] = """apiVersion: v1
kind: Pod
metadata:
  name: nginx-proxy
  namespace: kube-system
  labels:
    addonmanager.kubernetes.io/mode: Reconcile
    k8s-app: kube-nginx
spec:
  hostNetwork: true
  dnsPolicy: ClusterFirstWithHostNet
  nodeSelector:
    kubernetes.io/os: linux
  priorityClassName: system-node-critical
  containers:
  - name: nginx-proxy
    image: docker.io/library/nginx:1.25.2-alpine
    imagePullPolicy: IfNotPresent
    resources:
      requests:
        cpu: 25m
        memory: 32M
    livenessProbe:
      httpGet:
        path: /healthz
        port: 8081
    volumeMounts:
    - mountPath: /etc/nginx
      name: etc-nginx
      readOnly: true
  volumes:
  - name: etc-nginx
    hostPath:
      path: /etc/nginx
"""
        return out

    def kubelet_files(self):
        h, T = self.h, self.tree
        base = h.node_created_us * 1000
        lay = h.layout
        if lay.kubelet_config:
            T.file(lay.kubelet_config.lstrip("/"), kube_fake.kubelet_config(h, lay), base + 4_200 * 10**9)
        T.file("var/lib/kubelet/pki/kubelet-client-current.pem",
               "-----BEGIN CERTIFICATE-----\nMIICLDCCAdKgAwIBAgIUFakeFakeFakeFakeFakeFakeFakeFakeMAoGCCqGSM49BAMC\n"
               "-----END CERTIFICATE-----\n-----BEGIN EC PRIVATE KEY-----\n"
               "MHcCAQEEI%s\n-----END EC PRIVATE KEY-----\n" % h.canary("kubelet-client-key"),
               self.ns(h.kubelet_last_start_us) - 3_600 * 10**9, 0o600)
        dp = "var/lib/kubelet/device-plugins/"
        T.mkdir(dp, mode=0o750)
        T.unix_socket(dp + "kubelet.sock", self.ns(h.kubelet_sock_us))
        for name, us in h.plugin_socks.items():
            T.unix_socket(dp + name, self.ns(us))
        if h.registered is not None:
            reg = {k: sorted(v, key=lambda u: hexid(u, "order"))
                   for k, v in sorted(h.registered.items())}
            T.file(dp + "kubelet_internal_checkpoint", kube_fake.checkpoint_json(h, reg),
                   self.ns(h.checkpoint_us), 0o600)
        for pod in h.pods:
            if pod.kind == "static":
                continue
            vol = "var/lib/kubelet/pods/%s/volumes/kubernetes.io~secret/registry-mirror-credentials/" % pod.uid
            if pod is h.plugin_pod and pod is not None:
                T.file(vol + "aws-secret-access-key", h.canary("aws-secret-access-key"),
                       self.ns(h.pod_created_us(pod)), 0o644)
            tok = "var/lib/kubelet/pods/%s/volumes/kubernetes.io~projected/kube-api-access-%s/token" % (
                pod.uid, hexid(pod.uid, "kapi", n=5))
            T.file(tok, "eyJhbGciOiJSUzI1NiJ9.%s.sig" % h.canary("sa-token-" + pod.name[:20]),
                   self.ns(h.pod_created_us(pod)), 0o644)
        T.file("var/run/secrets/kubernetes.io/serviceaccount/token",
               "eyJhbGciOiJSUzI1NiJ9.%s.sig" % h.canary("node-sa-token"),
               self.ns(h.kubelet_last_start_us), 0o644)

    def pod_logs(self):
        h, T = self.h, self.tree
        for c in h.containers:
            if getattr(c, "log_deleted", False):
                continue
            if not c.log and c.reason != "StartError":
                continue
            lines = []
            for ns, stream, text in sorted(c.log):
                lines.append("%s %s F %s" % (h.clock.rfc3339nano(ns), stream, text))
            data = ("\n".join(lines) + "\n") if lines else ""
            last = max([x[0] for x in c.log] + [c.created_ns])
            path = c.log_path.lstrip("/")
            if T.has(path):
                continue
            T.file(path, data, last, 0o640)
            rot = h.cfg.get("rotated_logs", {}).get(c.spec.name)
            if rot and c.attempt == rot.get("attempt", c.attempt):
                pass

    def platform_files(self):
        """What the platform writes where (platform_layout.py), the tools it
        keeps off the standard PATH, its log files, the GPU Operator's roots."""
        h, T = self.h, self.tree
        lay = h.layout
        base = h.node_created_us * 1000
        for rel, (text, mode) in sorted(lay.kubelet_files(h).items()):
            T.file(rel, text, base + 4_300 * 10**9, mode)
        for tool, path in sorted(lay.off_path.items()):
            if not (lay.gpu_operator and tool == "nvidia-smi"):
                # The platform's own binary: the stub, reached by its path under the root.
                T.symlink(path.lstrip("/"), os.path.join(os.path.abspath(self.bin), "_stub"), base + 3_000 * 10**9)
        for path, lines in ((lay.kubelet_log, h.kubelet_file_lines), (lay.containerd_log, h.containerd_file_lines)):
            if path and lines:
                T.file(path.lstrip("/"), "".join(line + "\n" for _, line in sorted(lines)),
                       self.ns(max(us for us, _ in lines)), 0o644)
        if lay.gpu_operator:
            self.operator_files(base)

    def operator_files(self, base):
        """NVIDIA/gpu-operator: validation markers, the toolkit under
        /usr/local/nvidia, its containerd drop-in, and the driver container's
        root at /run/nvidia/driver (nvidia-smi answers from files there)."""
        h, T = self.h, self.tree
        m = self.ns(h.kubelet_last_start_us) + 30 * 10**9
        v = h.cfg["versions"]
        for name in ("driver-ready", "toolkit-ready", "cuda-ready", "plugin-ready"):
            T.file("run/nvidia/validations/" + name, "IS_HOST_DRIVER=false\nNVIDIA_DRIVER_ROOT=/run/nvidia/driver\n"
                   if name == "driver-ready" else "", m, 0o644)
        tk = "usr/local/nvidia/toolkit/"
        for tool in ("nvidia-container-runtime", "nvidia-container-runtime.cdi", "nvidia-ctk",
                     "nvidia-container-cli", "nvidia-cdi-hook"):
            T.file(tk + tool, "#!/bin/sh\n# installed by the toolkit container\n", m, 0o755)
        T.file(tk + ".config/nvidia-container-runtime/config.toml",
               self.nvidia_runtime_toml().replace('#root = "/run/nvidia/driver"', 'root = "/run/nvidia/driver"'), m)
        T.file("etc/containerd/conf.d/99-nvidia.toml",
               'version = 2\n\n[plugins]\n\n  [plugins."io.containerd.grpc.v1.cri"]\n\n'
               '    [plugins."io.containerd.grpc.v1.cri".containerd]\n      default_runtime_name = "nvidia"\n\n'
               '      [plugins."io.containerd.grpc.v1.cri".containerd.runtimes]\n\n'
               '        [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia]\n'
               '          runtime_type = "io.containerd.runc.v2"\n\n'
               '          [plugins."io.containerd.grpc.v1.cri".containerd.runtimes.nvidia.options]\n'
               '            BinaryName = "/usr/local/nvidia/toolkit/nvidia-container-runtime"\n'
               '            SystemdCgroup = true\n', m)
        T.file("var/run/cdi/nvidia.yaml", self.cdi_spec(), m)
        dr = "run/nvidia/driver/"
        T.file(dr + "etc/os-release", h.profile["os_release"], base)
        T.file(dr + "usr/share/gpuforensics-fake/smi-L.txt", nvidia_fake.smi_list(h.gpus), m)
        T.file(dr + "usr/share/gpuforensics-fake/smi-qx.xml", nvidia_fake.smi_xml(
            h.gpus, v["driver"], v["cuda"], h.clock.ctime(h.collect_us + 2_000_000), True, None, {}), m)
        T.file(dr + "usr/bin/nvidia-smi",
               "#!/bin/sh\ncase \"$*\" in\n  '-L') /bin/cat /usr/share/gpuforensics-fake/smi-L.txt ;;\n"
               "  '-q -x') /bin/cat /usr/share/gpuforensics-fake/smi-qx.xml ;;\n  *) exit 2 ;;\nesac\n", m, 0o755)

    # --------------------------------------------------------------- answers
    def blob(self, data):
        if data is None:
            return None
        if isinstance(data, str):
            data = data.encode()
        self.blob_n += 1
        name = "%03d.out" % self.blob_n
        with open(os.path.join(self.bin, "answers", name), "wb") as f:
            f.write(data)
        return name

    def answer(self, tool, argv, stdout="", stderr="", rc=0, **kw):
        a = {"tool": tool, "argv": argv, "stdout": self.blob(stdout),
             "stderr": self.blob(stderr), "rc": rc}
        a.update(kw)
        self.answers.append(a)

    def fatal(self, msg):
        return 'time="%s" level=fatal msg="%s"\n' % (
            self.h.clock.rfc3339nano(self.h.collect_us * 1000 + 412_331_870),
            msg.replace('"', '\\"'))

    def build_bin(self):
        h = self.h
        os.makedirs(os.path.join(self.bin, "answers"), exist_ok=True)
        v = h.cfg["versions"]
        P = h.profile
        tools = set()

        def A(tool, argv, *a, **k):
            tools.add(tool)
            self.answer(tool, argv, *a, **k)

        # Scenario overrides come first (first match wins): behaviours such
        # as hang / fork-hold / flood for tests.
        for o in h.cfg.get("stub", []):
            extra = {k: o[k] for k in ("behaviour", "sleep", "hold_s", "flood_bytes") if k in o}
            A(o["tool"], o.get("argv"), o.get("stdout", ""), o.get("stderr", ""),
              o.get("rc", 0), **extra)
        A("dmesg", [], "".join("[%5d.%06d] %s\n" % (us // 10**6, us % 10**6, msg)
                               for us, msg in sorted(h.ring, key=lambda r: r[0])))
        A("uname", ["-a"], "Linux %s %s %s x86_64 x86_64 x86_64 GNU/Linux\n"
          % (h.hostname, P["kernel"], P["kernel_build"]))
        A("containerd", ["--version"], "containerd github.com/containerd/containerd %s %s\n"
          % (h.containerd_version, v.get("containerd_commit", "")))
        A("runc", ["--version"], "runc version %s\ncommit: %s\nspec: 1.0.2-dev\ngo: %s\nlibseccomp: %s\n"
          % (v["runc"], v.get("runc_commit", "v%s-0-g0000000" % v["runc"]),
             v.get("runc_go", "go1.21.13"), v.get("libseccomp", "2.5.4")))
        if v.get("toolkit"):
            A("nvidia-ctk", ["--version"], "NVIDIA Container Toolkit CLI version %s\ncommit: %s\n"
              % (v["toolkit"], v.get("toolkit_commit", hexid("nct", v["toolkit"], n=40))))
            A("nvidia-container-cli", ["--version"],
              "cli-version: {l}\nlib-version: {l}\nbuild date: {d}\nbuild revision: {r}\n"
              "build compiler: x86_64-linux-gnu-gcc-7 7.5.0\nbuild platform: x86_64\n"
              "build flags: -D_GNU_SOURCE -D_FORTIFY_SOURCE=2 -DNDEBUG -std=gnu11 -O2 -g -fdata-sections -ffunction-sections -fplan9-extensions -fstack-protector -fno-strict-aliasing -fvisibility=hidden -Wall -Wextra -Wcast-align -Wpointer-arith -Wmissing-prototypes -Wnonnull -Wwrite-strings -Wlogical-op -Wformat=2 -Wmissing-format-attribute -Winit-self -Wshadow -Wstrict-prototypes -Wunreachable-code -Wconversion -Wsign-conversion -Wno-unknown-warning-option -Wno-format-extra-args -Wno-gnu-alignof-expression -Wl,-zrelro -Wl,-znow -Wl,-zdefs -Wl,--gc-sections\n".format(
                  l=v.get("libnvidia_container", v["toolkit"]),
                  d=v.get("libnvidia_container_date", "2024-09-24T20:52+00:00"),
                  r=hexid("libnvidia-container", v["toolkit"], n=40)))
        A("kubelet", ["--version"], "Kubernetes %s\n" % h.kubelet_version)
        A("systemctl", ["--version"], "%s\n%s\n" % (P["systemd_full"], P["systemd_features"]))
        A("crictl", ["--version"], "crictl version %s\n" % v.get("crictl", "v1.31.1"))
        if h.layout.runtime_unit == "crio.service":
            crio = v.get("crio", h.containerd_version.lstrip("v"))
            A("crio", ["--version"], "crio version {0}\nVersion:        {0}\nGitCommit:      {1}\n"
              "GitCommitDate:  2024-10-08T13:22:51Z\nGitTreeState:   clean\nBuildDate:      1970-01-01T00:00:00Z\n"
              "GoVersion:      go1.21.13 (Red Hat 1.21.13-4.el9_4)\nCompiler:       gc\nPlatform:       linux/amd64\n"
              "Linkmode:       dynamic\n".format(crio, hexid("crio", crio, n=40)))
            crun = v.get("crun", "1.16.1")
            A("crun", ["--version"], "crun version %s\ncommit: %s\nrundir: /run/crun\nspec: 1.0.0\n"
              "+SYSTEMD +SELINUX +APPARMOR +CAP +SECCOMP +EBPF +CRIU +YAJL\n" % (crun, hexid("crun", crun, n=40)))
        A("systemctl", ["show", "--no-pager",
                        "--property=Id,LoadState,ActiveState,SubState,ActiveEnterTimestamp,ActiveEnterTimestampMonotonic,ExecMainStartTimestamp,ExecMainPID,NRestarts,NeedDaemonReload",
                        "nvidia-persistenced.service", "nvidia-fabricmanager.service",
                        "kubelet.service", "containerd.service", "crio.service"],
          self.systemctl_show_units(["nvidia-persistenced.service", "nvidia-fabricmanager.service",
                                     "kubelet.service", "containerd.service", "crio.service"]))
        live = [c for c in h.containers if not c.removed]
        for c in live:
            if h.cgroup_driver == "systemd":
                A("systemctl", ["show", "--no-pager", "-p", "DeviceAllow", "-p", "DevicePolicy",
                                "-p", "NeedDaemonReload", c.scope_name()], self.scope_show(c))
            if h.cgroup == "v2" and c.running():
                A("bpftool", ["cgroup", "list", "*/sys/fs/cgroup" + c.cgroup_dir()], self.bpftool(c))
                for pid, (_, rules) in self.bpf_programs(c).items():
                    A("bpftool", ["prog", "dump", "xlated", "id", str(pid)], self.bpf_xlated(rules))
        if h.cgroup == "v2":
            A("bpftool", ["cgroup", "list", "**"], "",
              "Error: can't query bpf programs attached to cgroup: No such file or directory\n", 255)
        A("crictl", ["ps", "-a", "-o", "json"], cri_fake.ps_json(live))
        A("crictl", ["pods", "-o", "json"], cri_fake.pods_json(
            [s for p in h.pods for s in p.sandboxes]))
        A("crictl", ["info", "-o", "json"], cri_fake.info_json(h))
        for c in live:
            A("crictl", ["inspect", "-o", "json", c.id], cri_fake.inspect_json(h, c))
            self.crictl_logs(A, c)
            if c.running():
                self.crictl_exec(A, c)
            else:
                A("crictl", ["exec", c.id, "**"], "", self.fatal(
                    'execing command in container: rpc error: code = Unknown desc = container is in CONTAINER_EXITED state'), 1)
        for c in h.containers:
            if c.removed:
                msg = ('getting the status of the container "%s": rpc error: code = NotFound desc = an error occurred when try to find container "%s": not found' % (c.id, c.id))
                A("crictl", ["inspect", "-o", "json", c.id], "", self.fatal(msg), 1)
                A("crictl", ["logs", "**"] if False else ["logs", "--timestamps", c.id], "",
                  self.fatal('rpc error: code = NotFound desc = an error occurred when try to find container "%s": not found' % c.id), 1)
        A("crictl", ["inspect", "**"], "", self.fatal(
            'getting the status of the container: rpc error: code = NotFound desc = an error occurred when try to find container: not found'), 1)
        A("crictl", ["**"], "", "Incorrect Usage: flag provided but not defined\n", 1)
        if h.cfg["host"].get("kubectl", True):
            kc = "*" + h.layout.kubeconfig
            A("kubectl", ["--kubeconfig", kc, "--request-timeout=5s", "get", "node", h.node_name,
                          "-o", "json"], kube_fake.node_json(h))
            A("kubectl", ["--kubeconfig", kc, "--request-timeout=5s", "get", "pods", "-A",
                          "--field-selector", "spec.nodeName=" + h.node_name, "-o", "json"],
              kube_fake.pods_list_json(h))
            A("kubectl", ["--kubeconfig", kc, "--request-timeout=5s", "get", "events", "-n", "default", "--field-selector",
                          "involvedObject.kind=Node,involvedObject.name=" + h.node_name, "-o", "json"],
              kube_fake.node_events_json(h))
            A("kubectl", ["--kubeconfig", kc, "--request-timeout=5s", "get", "node", "*", "-o", "json"],
              "", 'Error from server (NotFound): nodes "{6}" not found\n', 1, template=True)
            A("kubectl", ["**"], "", "error: unknown flag or command\nSee 'kubectl --help' for usage.\n", 1)
        self.nvidia_smi(A)
        for tool in sorted(tools):
            self.answer(tool, None, "", "%s: unrecognized option or arguments\n" % tool, 1)
        with open(os.path.join(self.bin, "answers.json"), "w") as f:
            json.dump({"answers": self.answers}, f, indent=1)
            f.write("\n")
        # Absolute interpreter: the collector may run tools with a minimal PATH.
        py = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
        with open(self.stub_path) as f:
            body = f.read().split("\n", 1)[1]
        with open(os.path.join(self.bin, "_stub"), "w") as f:
            f.write("#!%s\n%s" % (py, body))
        os.chmod(os.path.join(self.bin, "_stub"), 0o755)
        lay = h.layout
        for tool in sorted(tools):
            if tool in lay.absent or tool in lay.off_path:
                continue   # not on this platform's PATH (an off-path one sits under the root)
            os.symlink("_stub", os.path.join(self.bin, tool))
        with open(os.path.join(self.bin, "TOOLS"), "w") as f:
            f.write("\n".join(sorted(tools)) + "\n")
        m = self.h.collect_us * 1000
        for dp, dirs, files in os.walk(self.bin, topdown=False):
            for name in files + dirs:
                os.utime(os.path.join(dp, name), ns=(m, m), follow_symlinks=False)
        os.utime(self.bin, ns=(m, m))

    def nvidia_smi(self, A):
        h = self.h
        mode = h.smi_mode
        smi = h.cfg.get("nvidia_smi", {})
        v = h.cfg["versions"]
        if mode == "absent":
            return
        if mode == "no-devices":   # the driver is loaded, no GPU answers
            A("nvidia-smi", ["-L"], "No devices were found\n", "", 6)
            A("nvidia-smi", ["-q", "-x"], "No devices were found\n", "", 6)
            return
        if mode == "mismatch":
            msg = "Failed to initialize NVML: Driver/library version mismatch\nNVML library version: %s\n" % smi["lib_version"].rsplit(".", 1)[0]
            A("nvidia-smi", ["-L"], msg, "", 18)
            A("nvidia-smi", ["-q", "-x"], msg, "", 18)
            return
        if mode == "hang":
            A("nvidia-smi", ["-L"], "", "", 0, behaviour="hang")
            A("nvidia-smi", ["-q", "-x"], "", "", 0, behaviour="hang")
            return
        fabric = None
        if h.nvswitch:
            st = smi.get("fabric_state", "Completed")
            status = "Success" if st == "Completed" else "N/A"
            fabric = {g.index: (st, status) for g in h.gpus}
        procs = {}
        for w in h.cfg.get("workload", []):
            pass
        xml = nvidia_fake.smi_xml(h.gpus, v["driver"], v["cuda"], h.clock.ctime(h.collect_us + 2_000_000),
                                  smi.get("persistence", True), fabric, procs)
        lst = nvidia_fake.smi_list(h.gpus)
        if any(g.lost for g in h.gpus):
            lost = [g for g in h.gpus if g.lost]
            err = "".join("Unable to determine the device handle for GPU%s: GPU is lost.  Reboot the system to recover this GPU\n"
                          % g.smi_id[4:] for g in lost)
            A("nvidia-smi", ["-L"], lst, "", 15)
            A("nvidia-smi", ["-q", "-x"], xml, err, 15)
            return
        A("nvidia-smi", ["-L"], lst)
        A("nvidia-smi", ["-q", "-x"], xml)

    def systemctl_show_units(self, units):
        h = self.h
        blocks = []
        na = "n/a" if h.sysd >= 250 else ""
        for u in units:
            st = h.units.get(u)
            if st is None:
                blocks.append("NRestarts=0\nExecMainStartTimestamp=%s\nExecMainPID=0\nId=%s\n"
                              "LoadState=not-found\nActiveState=inactive\nSubState=dead\n"
                              "ActiveEnterTimestamp=%s\nActiveEnterTimestampMonotonic=0\n"
                              "NeedDaemonReload=no\n" % (na, u, na))
                continue
            b = h.boots[-1]
            enter = st.get("enter_us")
            blocks.append(
                "NRestarts=%d\nExecMainStartTimestamp=%s\nExecMainPID=%d\nId=%s\nLoadState=loaded\n"
                "ActiveState=%s\nSubState=%s\nActiveEnterTimestamp=%s\n"
                "ActiveEnterTimestampMonotonic=%d\nNeedDaemonReload=%s\n" % (
                    st.get("nrestarts", 0), h.clock.systemd_ts(st["exec_us"]),
                    st["pid"], u, st["state"], st["sub"],
                    h.clock.systemd_ts(enter) if enter else na,
                    (enter - b.start_us) if enter else 0,
                    st.get("need_reload", "no")))
        return "\n".join(blocks)

    def scope_show(self, c):
        h = self.h
        if c.spec.privileged:
            return "DevicePolicy=auto\nDeviceAllow=\nNeedDaemonReload=no\n"
        rows = ["DevicePolicy=strict", "DeviceAllow=char-pts rwm"]
        for k, a, b, acc in BASE_DEVICES[1:9]:
            rows.append("DeviceAllow=/dev/char/%s:%s %s" % (a, b, acc))
        for d in h.cdi_devices_for(c):
            rows.append("DeviceAllow=/dev/char/%d:%d rwm" % (d["major"], d["minor"]))
        rows += ["DeviceAllow=char-* m", "DeviceAllow=block-* m"]
        rows.append("NeedDaemonReload=%s" % ("yes" if c.pod.host.cfg["host"].get("scope_need_reload") else "no"))
        return "\n".join(rows) + "\n"

    def bpf_programs(self, c):
        """The device programs on the container's cgroup: {id: (name, rules)}.
        runc's program, and the one systemd builds from DeviceAllow; the
        NVIDIA hook (legacy) prepends the GPUs to each. After a daemon-reload
        systemd's is rebuilt from its own record, without the GPUs."""
        base = 2200 + jitter(c.id, hi=600)
        if c.spec.privileged:
            return {base: ("", [("a", "*", "*", "rwm")])}
        gpus = []
        if c.gpu_uuids:
            gpus = [("c", "195", "255", "rw"), ("c", str(UVM), "0", "rw"), ("c", str(UVM), "1", "rw")]
            gpus += [("c", "195", str(g.minor), "rw") for g in self.h.gpus if g.uuid in c.gpu_uuids]
        if c.devices_lost_at:
            return {base: ("", gpus + BASE_DEVICES), base + 951: ("sd_devices", BASE_DEVICES)}
        programs = {base: ("", gpus + BASE_DEVICES)}
        if c.gpu_uuids:
            programs[base + 3] = ("", gpus + BASE_DEVICES)
        return programs

    def bpftool(self, c):
        rows = ["ID       AttachType      AttachFlags     Name           "]
        for pid, (name, _) in sorted(self.bpf_programs(c).items()):
            rows.append("%-8d cgroup_device   multi           %-15s" % (pid, name))
        return "\n".join(rows) + "\n"

    @staticmethod
    def bpf_xlated(rules):
        """`bpftool prog dump xlated` of a device filter in runc's shape: the
        context loaded into r2 (type), r3 (access), r4, r5 (major, minor),
        then a block per rule, the first that matches allowing, deny last."""
        head = [("61", "r2 = *(u32 *)(r1 +0)"), ("54", "w2 &= 65535"), ("61", "r3 = *(u32 *)(r1 +0)"),
                ("74", "w3 >>= 16"), ("61", "r4 = *(u32 *)(r1 +4)"), ("61", "r5 = *(u32 *)(r1 +8)")]
        blocks = []
        for kind, major, minor, access in rules:
            b = []
            if kind != "a":
                b.append(("55", "if r2 != 0x%x goto NEXT" % (2 if kind == "c" else 1)))
            bits = sum({"m": 1, "r": 2, "w": 4}[ch] for ch in access)
            if bits != 7:
                b += [("bc", "w1 = w3"), ("54", "w1 &= %d" % bits), ("5d", "if r1 != r3 goto NEXT")]
            if major != "*":
                b.append(("55", "if r4 != 0x%x goto NEXT" % int(major)))
            if minor != "*":
                b.append(("55", "if r5 != 0x%x goto NEXT" % int(minor)))
            b += [("b4", "w0 = 1"), ("95", "exit")]
            blocks.append(b)
        out, at = list(head), len(head)
        for b in blocks:
            after = at + len(b)
            for i, (op, text) in enumerate(b):
                out.append((op, text.replace("NEXT", "pc+%d" % (after - (at + i) - 1))))
            at = after
        out += [("b4", "w0 = 0"), ("95", "exit")]
        return "".join("%4d: (%s) %s\n" % (i, op, text) for i, (op, text) in enumerate(out))

    def crictl_logs(self, A, c):
        h = self.h
        out, err = [], []
        for ns, stream, text in sorted(c.log):
            line = "%s %s\n" % (h.clock.rfc3339nano(ns, trim=False), text)
            (out if stream == "stdout" else err).append(line)
        A("crictl", ["logs", "--timestamps", c.id], "".join(out), "".join(err), 0)

    def crictl_exec(self, A, c):
        h = self.h
        argv = ["exec", c.id, "nvidia-smi", "-L"]
        runtime = h.runtime_for(c.pod)
        if not c.gpu_uuids or (runtime != "nvidia" and not h.cdi_devices_for(c)):
            A("crictl", argv, "", self.fatal(
                'execing command in container: Internal error occurred: error executing command in container: failed to exec in container: failed to start exec "%s": OCI runtime exec failed: exec failed: unable to start container process: exec: "nvidia-smi": executable file not found in $PATH: unknown'
                % hexid(c.id, "exec")), 1)
            return
        if c.devices_lost_at or c.exec_nvidia_smi == "unknown":
            A("crictl", argv, "Failed to initialize NVML: Unknown Error\n",
              self.fatal("execing command in container: command terminated with exit code 255"), 1)
            return
        if h.smi_mode == "hang":
            A("crictl", argv, "", "", 0, behaviour="hang")
            return
        lines = []
        i = 0
        for g in h.gpus:
            if g.uuid not in c.gpu_uuids:
                continue
            if g.lost:
                lines.append("Unable to determine the device handle for GPU%s: GPU is lost.  Reboot the system to recover this GPU" % g.smi_id[4:])
                continue
            lines.append("GPU %d: %s (UUID: %s)" % (i, g.m["name"], g.uuid))
            i += 1
        A("crictl", argv, "\n".join(lines) + "\n")

    def driver_container_shell(self):
        """The driver container's image has a shell and a C library: nvidia-smi
        there runs under chroot (collector/host_exec.h). This machine's are copied."""
        dr = os.path.join(self.root, "run/nvidia/driver")
        for src, dst in (("/bin/dash", "bin/sh"), ("/bin/cat", "bin/cat"),
                         ("/lib/x86_64-linux-gnu/libc.so.6", "lib/x86_64-linux-gnu/libc.so.6"),
                         ("/lib64/ld-linux-x86-64.so.2", "lib64/ld-linux-x86-64.so.2")):
            if os.path.exists(src):
                os.makedirs(os.path.dirname(os.path.join(dr, dst)), exist_ok=True)
                shutil.copy2(src, os.path.join(dr, dst))

    # ----------------------------------------------------------------- all
    def write(self):
        if os.path.exists(self.out):
            shutil.rmtree(self.out)
        os.makedirs(self.bin)
        self.build_tree()
        self.tree.write(self.root)
        if self.h.layout.gpu_operator:
            self.driver_container_shell()
        self.h.journal.write(self.root, self.h.seed)
        jdir = os.path.join(self.root, "var/log/journal", self.h.machine_id)
        m = self.h.journal.last_realtime() * 1000
        for d in (jdir, os.path.dirname(jdir)):
            os.utime(d, ns=(m, m))
        self.build_bin()
