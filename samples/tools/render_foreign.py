#!/usr/bin/env python3
"""render_foreign.py KIND FAKEHOST_DIR BUNDLE OUT

Lays out one scenario the way other tools and people capture a node, so that
`gpuforensics analyze` can be checked to find the same things in them as in
our own bundle (tests/import_test.sh). KIND is one of:

  sos          OUT/sosreport-<node>-<date>/ as `sos report -k crio.all=on
               -k crio.logs=on` lays it out (sos_commands/<plugin>/<command>,
               copied files at their paths), plus OUT.tar.xz of it
  evidence     OUT/ as a person following the seed incident's read-only
               capture list saves it: smi-host.txt, smi-plugin.txt, devs.txt,
               versions.txt, crictl-ps.txt, plugins-dir.txt, uptime.txt,
               plugin.log, journal-units.txt (all boots), kernel.txt
  bug-report   OUT (a file): nvidia-bug-report.log.gz with the sections of
               nvidia-bug-report.sh, one gzip member per section

FAKEHOST_DIR is what samples/tools/build_fakehost.py built for the scenario:
journal texts come from the real journalctl reading its journal files and
listings from the real ls on its device nodes; BUNDLE is the scenario's
collected bundle, for what only stubs answer (crictl, nvidia-smi, pod logs).
Needs root for nothing; needs journalctl, ls, tar, xz, gzip.
"""
import gzip
import json
import os
import subprocess
import sys
import tarfile
import tempfile
import xml.etree.ElementTree as ET
from datetime import datetime, timezone


class Bundle:
    def __init__(self, path):
        self.dir = tempfile.mkdtemp(prefix="gpuf-render-")
        subprocess.run(["tar", "--zstd", "-xf", path, "-C", self.dir], check=True)
        with open(os.path.join(self.dir, "manifest.json")) as f:
            self.manifest = json.load(f)
        self.collect_s = self.manifest["collection"]["started_at_unix_ns"] // 10**9

    def all(self, name):
        for a in self.manifest["artifacts"]:
            if a["name"] == name and a["outputs"]:
                out = next((o for o in a["outputs"] if o["stream"] in ("stdout", "content")), None)
                if out:
                    with open(os.path.join(self.dir, out["member"]), encoding="utf-8", errors="replace") as f:
                        yield a, f.read()

    def one(self, name):
        return next((text for _, text in self.all(name)), "")

    def zone(self):
        for line in self.one("host.localtime").splitlines():
            if line.startswith("/etc/localtime\t"):
                target = line.split("\t")[9]
                return target.split("zoneinfo/", 1)[1] if "zoneinfo/" in target else "UTC"
        return "UTC"


def run(argv, env_tz=None, cwd=None):
    env = dict(os.environ, LC_ALL="C")
    if env_tz:
        env["TZ"] = env_tz
    return subprocess.run(argv, env=env, cwd=cwd, check=True, capture_output=True, text=True).stdout


def journal(root, tz, *args):
    # Like sos and the bug report script, keep what journalctl says when it
    # fails (a boot the journal does not have).
    env = dict(os.environ, LC_ALL="C", TZ=tz)
    p = subprocess.run(["journalctl", "--root", root, "--no-pager", *args], env=env, capture_output=True, text=True)
    return p.stdout + p.stderr


def write(path, text, mtime=None):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)
    if mtime is not None:
        os.utime(path, (mtime, mtime))


def relative_age(seconds):
    # crictl's go-units HumanDuration, "ago" appended
    if seconds < 60:
        return "%d seconds ago" % seconds
    minutes = seconds // 60
    if minutes < 60:
        return "About a minute ago" if minutes == 1 else "%d minutes ago" % minutes
    hours = minutes // 60
    if hours < 48:
        return "About an hour ago" if hours == 1 else "%d hours ago" % hours
    return "%d days ago" % (hours // 24)


def crictl_table(bundle, only_plugin=False):
    ps = json.loads(bundle.one("runtime.crictl_ps") or '{"containers": []}')
    rows = [("CONTAINER", "IMAGE", "CREATED", "STATE", "NAME", "ATTEMPT", "POD ID", "POD")]
    state = {"CONTAINER_RUNNING": "Running", "CONTAINER_EXITED": "Exited", "CONTAINER_CREATED": "Created"}
    for c in ps["containers"]:
        name = c["metadata"]["name"]
        if only_plugin and "device-plugin" not in name:
            continue
        image = c["image"]["image"].replace("sha256:", "")[:13]
        age = bundle.collect_s - int(c["createdAt"]) // 10**9
        rows.append((c["id"][:13], image, relative_age(age), state.get(c["state"], "Unknown"), name,
                     str(c["metadata"]["attempt"]), c["podSandboxId"][:13],
                     c["labels"].get("io.kubernetes.pod.name", "")))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "".join("   ".join(cell.ljust(w) for cell, w in zip(r, widths)).rstrip() + "\n" for r in rows)


def cri_messages(cri_text, with_time):
    """A CRI log file's records as `crictl logs -t` (with_time) or `kubectl logs` prints them."""
    out = []
    for line in cri_text.splitlines():
        parts = line.split(" ", 3)
        if len(parts) < 4:
            continue
        out.append((parts[0] + " " if with_time else "") + parts[3])
    return "\n".join(out) + "\n"


def current_plugin_log(bundle):
    logs = sorted(bundle.all("plugin.log"), key=lambda a: a[0]["instance"])
    return logs[-1][1] if logs else ""


def dmesg_from_journal(root, tz):
    out = []
    for line in journal(root, tz, "-k", "-b", "0", "-o", "short-monotonic").splitlines():
        if not line.startswith("["):
            continue
        stamp, rest = line.split("]", 1)
        message = rest.split(": ", 1)[1] if ": " in rest else rest
        out.append("[%12.6f] %s" % (float(stamp[1:]), message))
    return "\n".join(out) + "\n"


def render_sos(host, bundle, out):
    root = os.path.join(host, "root")
    tz = bundle.zone()
    node = bundle.manifest["host"]["node_name"]
    day = datetime.fromtimestamp(bundle.collect_s, timezone.utc).strftime("%Y-%m-%d")
    top = os.path.join(out, "sosreport-%s-%s-abcdefg" % (node, day))
    sc = os.path.join(top, "sos_commands")
    write(os.path.join(sc, "date", "date"), run(["date", "-d", "@%d" % bundle.collect_s], env_tz=tz))
    write(os.path.join(sc, "date", "date_--utc"), run(["date", "--utc", "-d", "@%d" % bundle.collect_s]))
    write(os.path.join(sc, "host", "hostname"), bundle.one("host.hostname"))
    write(os.path.join(sc, "kernel", "uname_-a"), bundle.one("host.uname"))
    write(os.path.join(sc, "kernel", "dmesg"), dmesg_from_journal(root, tz))
    write(os.path.join(sc, "logs", "journalctl_--no-pager_--catalog_--boot"),
          journal(root, tz, "--catalog", "--boot", "0"))
    write(os.path.join(sc, "logs", "journalctl_--no-pager_--catalog_--boot_-1"),
          journal(root, tz, "--catalog", "--boot", "-1"))
    write(os.path.join(sc, "systemd", "journalctl_--list-boots"), journal(root, tz, "--list-boots"))
    write(os.path.join(sc, "nvidia", "nvidia-smi_--list-gpus"), bundle.one("host.nvidia_smi_list"))
    write(os.path.join(sc, "crio", "crictl_ps_-a"), crictl_table(bundle))
    for a, text in bundle.all("plugin.inspect"):
        write(os.path.join(sc, "crio", "crictl_inspect_" + a["instance"]), text)
    # -k crio.all=on -k crio.logs=on: `crictl logs -t` of every container,
    # exited ones too; a container's pod log file is named after its attempt.
    logs = {a["instance"].rsplit("/", 1)[-1]: text for a, text in bundle.all("plugin.log")}
    for a, text in bundle.all("plugin.inspect"):
        attempt = json.loads(text).get("status", {}).get("metadata", {}).get("attempt", 0)
        if "%d.log" % attempt in logs:
            write(os.path.join(sc, "crio", "containers", "crictl_logs_-t_" + a["instance"]),
                  cri_messages(logs["%d.log" % attempt], with_time=True))
    for name, path in (("boot.proc_stat", "proc/stat"), ("boot.boot_id", "proc/sys/kernel/random/boot_id"),
                       ("kernel.cmdline", "proc/cmdline"), ("kernel.devices", "proc/devices"),
                       ("driver.version", "proc/driver/nvidia/version"), ("host.os_release", "etc/os-release")):
        write(os.path.join(top, path), bundle.one(name))
    for a, text in bundle.all("driver.gpu_information"):
        write(os.path.join(top, a["instance"].lstrip("/")), text)
    for a, text in bundle.all("config.static_pod"):
        write(os.path.join(top, a["instance"].lstrip("/")), text)
    os.symlink("../usr/share/zoneinfo/" + tz, os.path.join(top, "etc", "localtime"))
    with tarfile.open(out.rstrip("/") + ".tar.xz", "w:xz") as tar:
        tar.add(top, arcname=os.path.basename(top))


def render_evidence(host, bundle, out):
    root = os.path.join(host, "root")
    tz = bundle.zone()
    at = bundle.collect_s
    ls_devs = run(["sh", "-c", "ls -l dev/nvidia* dev/char/*"], env_tz=tz, cwd=root)
    write(os.path.join(out, "devs.txt"), ls_devs.replace(" dev/", " /dev/"), at)
    write(os.path.join(out, "plugins-dir.txt"),
          run(["ls", "-l", os.path.join(root, "var/lib/kubelet/device-plugins")], env_tz=tz), at)
    # Named for where it ran: nothing in `nvidia-smi -L`'s text says host or container.
    write(os.path.join(out, "smi-host.txt"), bundle.one("host.nvidia_smi_list"), at)
    write(os.path.join(out, "smi-plugin.txt"), bundle.one("plugin.nvidia_smi_list"), at)
    versions = "".join(bundle.one(n) for n in ("versions.containerd", "versions.runc", "versions.nvidia_ctk"))
    write(os.path.join(out, "versions.txt"), versions, at)
    write(os.path.join(out, "crictl-ps.txt"), crictl_table(bundle, only_plugin=True), at)
    btime = int(next(l.split()[1] for l in bundle.one("boot.proc_stat").splitlines() if l.startswith("btime ")))
    write(os.path.join(out, "uptime.txt"), run(["date", "-d", "@%d" % btime, "+%Y-%m-%d %H:%M:%S"], env_tz=tz), at)
    write(os.path.join(out, "plugin.log"), cri_messages(current_plugin_log(bundle), with_time=False), at)
    # As people type it: every boot the journal holds, "-- Boot <id> --" between them.
    write(os.path.join(out, "journal-units.txt"),
          journal(root, tz, "-u", "kubelet", "-u", "containerd", "-u", "nvidia-persistenced"), at)
    write(os.path.join(out, "kernel.txt"), journal(root, tz, "-k", "-b", "0"), at)


def smi_query_text(xml_text):
    """`nvidia-smi -q` as text, from the same query's XML (the fields the bug report shows first);
    a failed query's error text as it is."""
    try:
        log = ET.fromstring(xml_text)
    except ET.ParseError:
        return xml_text
    lines = ["", "==============NVSMI LOG==============", "",
             "%-38s: %s" % ("Timestamp", log.findtext("timestamp", "")),
             "%-38s: %s" % ("Driver Version", log.findtext("driver_version", "")),
             "%-38s: %s" % ("CUDA Version", log.findtext("cuda_version", "")), "",
             "%-38s: %s" % ("Attached GPUs", log.findtext("attached_gpus", ""))]
    for gpu in log.findall("gpu"):
        lines.append("GPU " + gpu.get("id", ""))
        lines.append("    %-34s: %s" % ("Product Name", gpu.findtext("product_name", "")))
        lines.append("    %-34s: %s" % ("Product Brand", gpu.findtext("product_brand", "")))
        lines.append("    %-34s: %s" % ("GPU UUID", gpu.findtext("uuid", "")))
        lines.append("    %-34s: %s" % ("Minor Number", gpu.findtext("minor_number", "")))
        lines.append("")
    return "\n".join(lines) + "\n"


def render_bug_report(host, bundle, out):
    root = os.path.join(host, "root")
    tz = bundle.zone()
    rule = "____________________________________________\n\n"
    date = run(["date", "-d", "@%d" % bundle.collect_s], env_tz=tz).strip()
    sections = [
        "Start of NVIDIA bug report log file.  Please include this file, along\n"
        "with a detailed description of your problem, when reporting a graphics\n"
        "driver bug via the NVIDIA Linux forum (see forums.developer.nvidia.com)\n"
        "or by sending email to 'linux-bugs@nvidia.com'.\n\n"
        "nvidia-bug-report.sh Version: 34097204\n\n"
        "Date: %s\nuname: %s\ncommand line flags: \n" % (date, bundle.one("host.uname").strip())]
    for a, text in bundle.all("driver.gpu_information"):
        path = a["instance"].replace("/proc/driver/nvidia/", "/proc/driver/nvidia/./")
        sections.append("*** %s\n*** ls: -r--r--r-- 1 root root 0 %s %s\n%s" % (
            path, run(["date", "-d", "@%d" % bundle.collect_s, "+%Y-%m-%d %H:%M:%S.000000000 %z"], env_tz=tz).strip(),
            path, text))
    sections.append("*** /proc/driver/nvidia/version\n*** ls: -r--r--r-- 1 root root 0 %s /proc/driver/nvidia/version\n%s"
                    % (run(["date", "-d", "@%d" % bundle.collect_s, "+%Y-%m-%d %H:%M:%S.000000000 %z"],
                           env_tz=tz).strip(), bundle.one("driver.version")))
    sections.append("*** /proc/cmdline\n*** ls: -r--r--r-- 1 root root 0 - /proc/cmdline\n" +
                    bundle.one("kernel.cmdline"))
    sections.append("journalctl -b -0 _COMM=Xorg\n\n-- No entries --\n")
    driver_lines = ("_TRANSPORT=kernel", "+", "_SYSTEMD_UNIT=nvidia-persistenced.service", "+",
                    "UNIT=nvidia-persistenced.service")
    sections.append("journalctl -b -0\n\n" + journal(root, tz, "-b", "0", *driver_lines))
    sections.append("journalctl -b -1\n\n" + journal(root, tz, "-b", "-1", *driver_lines))
    sections.append("/usr/bin/dmesg\n\n" + dmesg_from_journal(root, tz))
    sections.append("/usr/bin/nvidia-smi --query\n\n" + smi_query_text(bundle.one("host.nvidia_smi_query_xml")))
    # One gzip member per section, appended, as the script writes it.
    with open(out, "wb") as f:
        for text in sections:
            f.write(gzip.compress((rule + text + "\n").encode(), mtime=0))
    os.utime(out, (bundle.collect_s, bundle.collect_s))


def main(argv):
    if len(argv) != 5 or argv[1] not in ("sos", "evidence", "bug-report"):
        sys.stderr.write(__doc__)
        return 2
    kind, host, bundle_path, out = argv[1:]
    bundle = Bundle(bundle_path)
    try:
        {"sos": render_sos, "evidence": render_evidence, "bug-report": render_bug_report}[kind](host, bundle, out)
    finally:
        subprocess.run(["rm", "-rf", bundle.dir], check=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
