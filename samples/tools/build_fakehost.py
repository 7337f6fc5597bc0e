#!/usr/bin/env python3
"""build_fakehost.py SCENARIO_DIR OUT_DIR

Builds the fake host of one scenario:
  OUT_DIR/root   host files, device nodes, unix sockets, journal files
  OUT_DIR/bin    stub tools (tests/fakehost/stub) and their answer book
  OUT_DIR/sysbin symlinks to this machine's tools minus the stubbable ones,
                 so PATH=OUT_DIR/bin:OUT_DIR/sysbin hides tools the scenario
                 lacks (e.g. kubectl) even where the build machine has them
  OUT_DIR/api/node.json  the Node as the API serves it (tests/kube/ serve it)
  OUT_DIR/collect.env  COLLECT_AT=<RFC3339> and PATH_PREFIX for scripts; on a
                 platform whose hosts have no kubectl, NODE_OBJECT=api/node.json:
                 the Node as `kubectl gpuforensics collect` reads it from the
                 API and pipes it to collect (--node-object -)

Needs root (mknod), python3 >= 3.11 and systemd-journal-remote. The same
inputs give the same files, modes and mtimes (journal files included).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True  # keep the source tree clean

from fakehost import kube_fake  # noqa: E402
from fakehost.host_output import Output  # noqa: E402
from fakehost.scenario_engine import Host  # noqa: E402

STUB = os.path.normpath(os.path.join(HERE, "..", "..", "tests", "fakehost", "stub"))
STUBBABLE = {"uname", "dmesg", "containerd", "runc", "nvidia-ctk", "nvidia-container-cli",
             "kubelet", "systemctl", "crictl", "kubectl", "nvidia-smi", "bpftool",
             "ctr", "crio", "crun"}  # no fake host answers ctr: this machine's would reach its own containerd


def sysbin(out):
    d = os.path.join(out, "sysbin")
    os.makedirs(d, exist_ok=True)
    seen = set()
    for p in ("/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"):
        if not os.path.isdir(p):
            continue
        for name in sorted(os.listdir(p)):
            if name in seen or name in STUBBABLE:
                continue
            full = os.path.join(p, name)
            if os.path.isfile(full) and os.access(full, os.X_OK):
                seen.add(name)
                os.symlink(full, os.path.join(d, name))


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    scen, out = argv[1], argv[2]
    host = Host(scen)
    host.simulate()
    o = Output(host, os.path.abspath(out), STUB)
    o.write()
    sysbin(os.path.abspath(out))
    node_object = "kubectl" in host.layout.absent and host.cfg["host"].get("kubectl", True)
    os.makedirs(os.path.join(out, "api"), exist_ok=True)
    with open(os.path.join(out, "api", "node.json"), "w") as f:
        f.write(kube_fake.node_json(host))
    with open(os.path.join(out, "collect.env"), "w") as f:
        f.write("COLLECT_AT=%s\n" % host.cfg["scenario"]["collect_at"])
        f.write("SCENARIO=%s\n" % host.name)
        if node_object:
            f.write("NODE_OBJECT=api/node.json\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
