#!/usr/bin/env python3
"""kubectl_plugin_test.py SOURCE_DIR KUBECTL_GPUFORENSICS

`kubectl gpuforensics collect` against the recorded-API stand-in
(fake_apiserver.py), driven through the real kubectl on PATH: kubectl 1.20
(Debian's kubernetes-client) speaks SPDY/3.1 for exec, newer ones try a
WebSocket first and fall back to SPDY when the upgrade is refused; the
stand-in serves both, over TLS, and asks for the bearer token that an exec
credential plugin in the kubeconfig hands kubectl.

Each case checks the exact requests (the pod created, its polling, the exec
stream's command, the delete) and that no pod is left in the cluster after
success, a failing collect, a node that is not Ready, an image that cannot
be pulled, the per-node deadline, Ctrl-C, and a bundle that does not verify.
Without kubectl, openssl or python3 the test is skipped (77).
"""
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import ssl

HERE = os.path.dirname(os.path.abspath(__file__))
NS = "gpuforensics"
SELECTOR = "nvidia.com/gpu.present=true"
CRED_PLUGIN = """#!/bin/sh
echo '{"apiVersion":"client.authentication.k8s.io/v1beta1","kind":"ExecCredential","status":{"token":"t0k3n"}}'
"""
FAILURES = []


def check(condition, what):
    print(("ok: " if condition else "FAILED: ") + what)
    if not condition:
        FAILURES.append(what)
    return condition


class Cluster:
    """One stand-in API server with a scenario, and a kubeconfig for it."""

    def __init__(self, tmp, name, nodes, websocket=True, services=None, cluster_uid=None):
        self.dir = os.path.join(tmp, name)
        os.makedirs(os.path.join(self.dir, "out"))
        self.log = os.path.join(self.dir, "requests.jsonl")
        scenario = os.path.join(self.dir, "scenario.json")
        with open(scenario, "w") as f:
            json.dump({"token": "t0k3n", "websocket": websocket, "nodes": nodes, "services": services or {},
                       "cluster_uid": cluster_uid}, f)
        port_file = os.path.join(self.dir, "port")
        self.server = subprocess.Popen(
            [sys.executable, os.path.join(HERE, "fake_apiserver.py"), scenario, self.log, port_file,
             os.path.join(tmp, "cert.pem"), os.path.join(tmp, "key.pem")])
        for _ in range(300):
            if os.path.exists(port_file):
                break
            time.sleep(0.1)
        self.port = int(open(port_file).read())
        self.kubeconfig = os.path.join(self.dir, "kubeconfig")
        with open(self.kubeconfig, "w") as f:
            f.write(f"""apiVersion: v1
kind: Config
clusters: [{{name: fake, cluster: {{server: "https://127.0.0.1:{self.port}", certificate-authority: "{tmp}/cert.pem"}}}}]
users: [{{name: dev, user: {{exec: {{apiVersion: client.authentication.k8s.io/v1beta1, command: "{tmp}/cred.sh"}}}}}}]
contexts: [{{name: fake, context: {{cluster: fake, user: dev, namespace: {NS}}}}}]
current-context: fake
""")
        self.env = dict(os.environ, KUBECONFIG=self.kubeconfig, HOME=self.dir, TMPDIR=self.dir)
        self.tls = ssl.create_default_context(cafile=os.path.join(tmp, "cert.pem"))

    def start(self, args):
        return subprocess.Popen([PLUGIN, "collect"] + args, cwd=os.path.join(self.dir, "out"), env=self.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def run(self, args, timeout=120):
        started = time.monotonic()
        p = self.start(args)
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out, err, time.monotonic() - started

    def requests(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log) as f:
            return [json.loads(line) for line in f]

    def pods_left(self):
        with urllib.request.urlopen(f"https://127.0.0.1:{self.port}/_fake/pods", context=self.tls) as r:
            return json.load(r)

    def stop(self):
        self.server.terminate()
        self.server.wait()


def expected_pod(node, run_id, image, lifetime, namespace=None):
    """What the pod must be, stated here independently of the plugin (kubectl
    adds the namespace to what it sends)."""
    pod = {
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": f"gpuforensics-{node}-{run_id}",
                     "labels": {"app.kubernetes.io/name": "gpuforensics-collect",
                                "app.kubernetes.io/managed-by": "kubectl-gpuforensics",
                                "gpuforensics.io/run": run_id}},
        "spec": {
            "nodeName": node, "restartPolicy": "Never", "activeDeadlineSeconds": lifetime,
            "terminationGracePeriodSeconds": 1, "tolerations": [{"operator": "Exists"}], "hostPID": True,
            "automountServiceAccountToken": False, "enableServiceLinks": False,
            "containers": [{
                "name": "collect", "image": image, "imagePullPolicy": "IfNotPresent",
                "command": ["sleep", str(lifetime)],
                "env": [{"name": "NODE_NAME", "valueFrom": {"fieldRef": {"fieldPath": "spec.nodeName"}}}],
                "securityContext": {"privileged": True},
                "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"memory": "512Mi"}},
                "volumeMounts": [{"name": "host", "mountPath": "/host", "readOnly": True,
                                  "mountPropagation": "HostToContainer"}]}],
            "volumes": [{"name": "host", "hostPath": {"path": "/", "type": "Directory"}}]}}
    if namespace:
        pod["metadata"]["namespace"] = namespace
    return pod


def dropped(raw, typed, path=""):
    """The first field path of `raw` that `typed` lacks or holds differently, or None."""
    if isinstance(raw, dict):
        if not isinstance(typed, dict):
            return path
        for key, value in raw.items():
            found = dropped(value, typed[key], f"{path}.{key}") if key in typed else f"{path}.{key}"
            if found:
                return found
        return None
    if isinstance(raw, list):
        if not isinstance(typed, list) or len(typed) != len(raw):
            return path
        for i, (r, t) in enumerate(zip(raw, typed)):
            found = dropped(r, t, f"{path}[{i}]")
            if found:
                return found
        return None
    return None if raw == typed else path


def pod_requests(requests, pod):
    """The requests about one pod, as (method, what) in order."""
    prefix = f"/api/v1/namespaces/{NS}/pods"
    out = []
    for r in requests:
        if r["method"] == "POST" and r["path"] == prefix and r["body"]["metadata"]["name"] == pod:
            out.append(("POST", "create"))
        elif r["path"] == f"{prefix}/{pod}":
            out.append((r["method"], "pod"))
        elif r["path"] == f"{prefix}/{pod}/exec":
            out.append((r["method"], "exec " + r["upgrade"].lower()))
    return out


def collapse(steps):
    """Repeated polls of the pod count once: how many depends on the machine's speed."""
    out = []
    for s in steps:
        if not out or s != out[-1] or s != ("GET", "pod"):
            out.append(s)
    return out


def exec_steps(version_minor):
    """kubectl 1.30+ asks for a WebSocket first (GET), older ones only SPDY (POST)."""
    return [("GET", "exec websocket")] if version_minor >= 30 else [("POST", "exec spdy/3.1")]


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def created(requests):
    """The pods created, as their bodies (exec over SPDY is a POST too)."""
    return [r["body"] for r in requests if r["method"] == "POST" and r["path"] == f"/api/v1/namespaces/{NS}/pods"]


def run_id_of(requests):
    bodies = created(requests)
    return bodies[0]["metadata"]["labels"]["gpuforensics.io/run"] if bodies else None


def swept(requests, run_id):
    return any(r["method"] == "GET" and r["path"] == f"/api/v1/namespaces/{NS}/pods" and
               r["query"].get("labelSelector") == [f"gpuforensics.io/run={run_id}"] for r in requests)


# A GPU Operator's device plugin pod on gpu-a, and its DaemonSet mid-rollout, as the API serves them.
PLUGIN_POD = {"metadata": {"name": "nvidia-device-plugin-daemonset-7xk2p", "namespace": "gpu-operator",
                           "labels": {"app": "nvidia-device-plugin-daemonset"},
                           "ownerReferences": [{"apiVersion": "apps/v1", "kind": "DaemonSet",
                                                "name": "nvidia-device-plugin-daemonset", "uid": "5c2e",
                                                "controller": True, "blockOwnerDeletion": True}]},
              "spec": {"nodeName": "gpu-a"}, "status": {"phase": "Running"}}
PLUGIN_DAEMONSET = {"apiVersion": "apps/v1", "kind": "DaemonSet",
                    "metadata": {"name": "nvidia-device-plugin-daemonset", "namespace": "gpu-operator",
                                 "generation": 4},
                    "spec": {"updateStrategy": {"type": "RollingUpdate"}},
                    "status": {"desiredNumberScheduled": 10, "numberAvailable": 8, "numberUnavailable": 2,
                               "observedGeneration": 4, "updatedNumberScheduled": 3}}


def case_selector_success(tmp, minor):
    """Two GPU nodes by selector, one CPU node left alone: both bundles streamed back, verified, named."""
    c = Cluster(tmp, "success", [
        {"name": "gpu-a", "labels": {"nvidia.com/gpu.present": "true"}, "bundle": SAMPLE, "pending_polls": 1,
         "stderr": "gpuforensics collect: triage for node gpu-a\n"
                   "  PCI devices:                          ok (8 NVIDIA GPU functions on the PCI bus)\n"
                   "  device plugin NVML init:              failed (Failed to initialize NVML: Unknown Error)\n",
         "events": [{"type": "Warning", "reason": "Rebooted", "lastTimestamp": "2026-11-18T03:18:07Z",
                     "message": "Node gpu-a has been rebooted, boot id: 7b1bf526-3714-2aab-7cef-3ab192ed85ab"},
                    {"type": "Normal", "reason": "NodeNotReady", "lastTimestamp": "2026-11-18T03:21:05Z",
                     "message": "Node gpu-a status is now: NodeNotReady"}],
         "pods": [PLUGIN_POD], "daemonsets": {"gpu-operator/nvidia-device-plugin-daemonset": PLUGIN_DAEMONSET},
         "pod_events": {"gpu-operator/nvidia-device-plugin-daemonset-7xk2p": [
             {"type": "Warning", "reason": "BackOff", "lastTimestamp": "2026-11-18T03:19:40Z", "count": 4,
              "message": "Back-off restarting failed container nvidia-device-plugin-ctr in pod "
                         "nvidia-device-plugin-daemonset-7xk2p_gpu-operator(3f5c)"}],
             "gpu-operator/nvidia-device-plugin-daemonset": [
                 {"involvedKind": "DaemonSet", "type": "Normal", "reason": "SuccessfulDelete",
                  "lastTimestamp": "2026-11-18T03:19:02Z", "count": 1,
                  "message": "Deleted pod: nvidia-device-plugin-daemonset-q2w9c"}]}},
        {"name": "gpu-b", "labels": {"nvidia.com/gpu.present": "true"}, "bundle": SAMPLE},
        {"name": "cpu-a", "labels": {}, "bundle": SAMPLE}])
    try:
        rc, out, err, _ = c.run(["--selector", SELECTOR, "--jobs", "2", "--image", "registry.example/gc:1"])
        requests = c.requests()
        run_id = run_id_of(requests)
        check(rc == 0, f"selector: exit 0 (got {rc}; stderr {err!r})")
        bundles = sorted(os.listdir(os.path.join(c.dir, "out")))
        check(len(bundles) == 2 and bundles[0].startswith("gpuforensics-gpu-a-") and
              bundles[1].startswith("gpuforensics-gpu-b-") and all(b.endswith(".tar.zst") for b in bundles),
              f"selector: one bundle per GPU node, named by node and time ({bundles})")
        check(all(sha256(os.path.join(c.dir, "out", b)) == sha256(SAMPLE) for b in bundles),
              "selector: each bundle is the node's bytes exactly")
        check(sorted(out.splitlines()) == [f"./{b}" for b in bundles], f"selector: stdout lists the bundles ({out!r})")
        check(err.endswith("kubectl gpuforensics collect: 2 of 2 nodes collected\n"), f"selector: summary ({err!r})")
        check(f"gpu-a: wrote ./{bundles[0]} (" in err and " members verified)\n" in err,
              "selector: each node's result on stderr")
        check(f"gpu-a: chain: BROKEN at device plugin NVML init (Failed to initialize NVML: Unknown Error)\n" in err
              and f"gpu-a: next: gpuforensics analyze ./{bundles[0]}\n" in err,
              f"selector: the collector's verdict and the next command are relayed ({err!r})")
        check(f"gpu-b: next: gpuforensics analyze ./{bundles[1]}\n" in err and "gpu-b: chain:" not in err,
              "selector: a collector that printed no triage gets no verdict line, only the next command")
        node_list = [r for r in requests if r["path"] == "/api/v1/nodes"]
        check(len(node_list) == 1 and node_list[0]["query"]["labelSelector"] == [SELECTOR],
              "selector: the nodes are listed once, by the selector")
        posts = created(requests)
        check(len(posts) == 2, "selector: two pods created, none for the CPU node")
        for node in ("gpu-a", "gpu-b"):
            pod = f"gpuforensics-{node}-{run_id}"
            body = next((b for b in posts if b["spec"]["nodeName"] == node), None)
            check(body == expected_pod(node, run_id, "registry.example/gc:1", 360, NS),
                  f"selector: the pod for {node} is exactly the reviewed spec")
            steps = collapse(pod_requests(requests, pod))
            want = [("POST", "create"), ("GET", "pod")] + [("GET", "pod")] + exec_steps(minor) + [("DELETE", "pod")]
            check(steps == collapse(want), f"selector: {node}: create, poll until Running, exec, delete ({steps})")
            execs = [r for r in requests if r["path"] == f"/api/v1/namespaces/{NS}/pods/{pod}/exec"]
            check(execs and execs[-1]["query"] == {
                "command": ["gpuforensics-collect", "collect", "--root", "/host", "--exec", "chroot",
                            "--output", "-", "--deadline", "120", "--node-object", "-"],
                "container": ["collect"], "stdin": ["true"], "stdout": ["true"], "stderr": ["true"]},
                f"selector: {node}: exec runs collect with the bundle on stdout, the Node on stdin, no tty")
            check(any(r["method"] == "GET" and r["path"] == f"/api/v1/nodes/{node}" for r in requests),
                  f"selector: {node}: the Node is read by its name before the exec")
            given = [r for r in requests if r["path"] == f"/api/v1/namespaces/{NS}/pods/{pod}/exec/stdin"]
            list_given = json.loads(given[-1]["stdin"]) if given else {}
            items = list_given.get("items", [{}])
            check(given and given[-1]["stdin_closed"] and list_given.get("kind") == "List" and
                  items[0].get("kind") == "Node" and items[0].get("metadata", {}).get("name") == node,
                  f"selector: {node}: collect's stdin is a List of that Node's JSON first, then closed "
                  f"({given[-1:]!r})")
            event_lists = [i for i in items if i.get("kind") == "EventList"]
            event_list = event_lists[0] if len(event_lists) == 1 else {}
            reasons = [e["reason"] for e in event_list.get("items", [])]
            check(reasons == (["Rebooted", "NodeNotReady", "BackOff", "SuccessfulDelete"] if node == "gpu-a" else []),
                  f"selector: {node}: the EventList of the Node's events, then its plugin pod's and DaemonSet's, "
                  f"follows it ({reasons})")
            kinds = [i.get("kind") for i in items]
            want_kinds = ["Node", "EventList", "PodList"] + (["DaemonSet"] if node == "gpu-a" else [])
            check(kinds == want_kinds, f"selector: {node}: the List holds the Node, its events, its pods and "
                                       f"its plugin's DaemonSet where it has one ({kinds})")
            event_reads = [r for r in requests if r["path"] == "/api/v1/namespaces/default/events" and
                           r["query"].get("fieldSelector") == [f"involvedObject.kind=Node,involvedObject.name={node}"]]
            check(len(event_reads) == 1, f"selector: {node}: its events are listed once, by field selector")
            deletes = [r for r in requests if r["method"] == "DELETE" and r["path"].endswith("/" + pod)]
            check(deletes and deletes[0]["body"] == {"propagationPolicy": "Background"},
                  f"selector: {node}: the pod is deleted without waiting")
        check(swept(requests, run_id), "selector: the run's label is swept at the end")
        check(all(r.get("refused") is None for r in requests), "selector: every request carried the exec plugin's token")
        check(c.pods_left() == [], "selector: no pod left")
        rc, out, err, _ = c.run(["--selector", "nosuch=label"])
        check(rc == 2 and err == "kubectl gpuforensics collect: no node matches --selector nosuch=label\n",
              f"selector: one that matches nothing is exit 2 ({rc}, {err!r})")
    finally:
        c.stop()


def case_output_name(tmp, minor):
    """-o names one node's bundle; for several nodes, over an existing file, or as a format without --dry-run,
    it is refused, never ignored."""
    c = Cluster(tmp, "named", [{"name": "gpu-a", "bundle": SAMPLE}, {"name": "gpu-b", "bundle": SAMPLE}])
    try:
        rc, out, err, _ = c.run(["node/gpu-a", "-o", "CASE-123456-gpu-a.tar.zst", "--image", "registry.example/gc:1"])
        check(rc == 0, f"-o: exit 0 (got {rc}; stderr {err!r})")
        check(os.listdir(os.path.join(c.dir, "out")) == ["CASE-123456-gpu-a.tar.zst"],
              f"-o: the bundle has the name given, and nothing else is written ({os.listdir(os.path.join(c.dir, 'out'))})")
        check(sha256(os.path.join(c.dir, "out", "CASE-123456-gpu-a.tar.zst")) == sha256(SAMPLE),
              "-o: the bundle is the node's bytes exactly")
        check(out == "CASE-123456-gpu-a.tar.zst\n", f"-o: stdout names it ({out!r})")
        refused = [
            (["node/gpu-a", "-o", "CASE-123456-gpu-a.tar.zst"], "exists: a bundle is written to a new file only"),
            (["node/gpu-a", "node/gpu-b", "-o", "both.tar.zst"], "-o names one node's bundle; for several nodes, "
                                                                  "--output-dir DIR"),
            (["node/gpu-a", "-o", "json"], "-o json shapes a --dry-run's pods; a bundle's name ends in .tar.zst"),
            (["node/gpu-a", "-o", "no/such/dir/b.tar.zst"], "'no/such/dir' is not a directory"),
        ]
        for args, words in refused:
            rc, out, err, _ = c.run(args)
            check(rc == 64 and words in err and out == "", f"-o refused, a usage error: {args} ({rc}, {err!r})")
        check(len(created(c.requests())) == 1, "-o: a refused run creates no pod")
    finally:
        c.stop()


def case_failures(tmp, minor):
    """collect failing, a node not Ready, an image that cannot be pulled, a missing node, a damaged bundle."""
    damaged = os.path.join(tmp, "damaged.tar.zst")
    with open(SAMPLE, "rb") as f:
        data = f.read()
    with open(damaged, "wb") as f:
        f.write(data[:len(data) // 2])
    c = Cluster(tmp, "failures", [
        {"name": "gpu-fail", "exec": "fail", "exit_code": 74,
         # what the pod printed reaches the terminal neutralised: no title set, no screen cleared
         "stderr": "gpuforensics collect: creating a staging directory in '/tmp': No space left on device"
                   "\x1b]0;owned\x07\n"},
        {"name": "gpu-down", "ready": False},
        {"name": "gpu-pull", "start": "image-pull-error"},
        {"name": "gpu-damaged", "bundle": damaged}])
    try:
        rc, out, err, _ = c.run(["node/gpu-fail", "gpu-down", "node/gpu-pull", "nosuch", "gpu-damaged",
                                 "--namespace", NS, "--image", "registry.example/gc:1"])
        requests = c.requests()
        run_id = run_id_of(requests)
        check(rc == 1, f"failures: exit 1 when a node is not collected (got {rc})")
        check(out == "", "failures: no bundle path on stdout")
        lines = set(err.splitlines())
        want = {
            "gpu-fail: FAILED: collect failed in pod gpuforensics-gpu-fail-%s: gpuforensics collect: creating a "
            "staging directory in '/tmp': No space left on device\\x1B]0;owned\\x07" % run_id,
            "gpu-down: FAILED: node is not Ready (Unknown: Kubelet stopped posting node status.); no pod started",
            "gpu-pull: FAILED: pod gpuforensics-gpu-pull-%s cannot run: ImagePullBackOff: Back-off pulling image "
            "\"registry.example/gc:1\"" % run_id,
            "nosuch: FAILED: Error from server (NotFound): nodes \"nosuch\" not found",
            "kubectl gpuforensics collect: 0 of 5 nodes collected",
        }
        for line in sorted(want):
            check(line in lines, f"failures: stderr says {line!r}")
        damaged_lines = [l for l in err.splitlines() if l.startswith("gpu-damaged: ")]
        check(len(damaged_lines) == 2 and damaged_lines[0].startswith("gpu-damaged: FAILED: the bundle did not verify: ")
              and damaged_lines[1].startswith("gpu-damaged: kept what came back as ./gpuforensics-gpu-damaged-")
              and damaged_lines[1].endswith(".tar.zst.partial"), f"failures: a damaged bundle is reported and kept ({damaged_lines})")
        left = os.listdir(os.path.join(c.dir, "out"))
        check(len(left) == 1 and left[0].endswith(".tar.zst.partial") and "gpu-damaged" in left[0],
              f"failures: nothing written but the damaged bundle ({left})")
        posted = sorted(b["spec"]["nodeName"] for b in created(requests))
        check(posted == ["gpu-damaged", "gpu-fail", "gpu-pull"], f"failures: no pod for the node not Ready nor the missing one ({posted})")
        for node in ("gpu-fail", "gpu-pull", "gpu-damaged"):
            steps = pod_requests(requests, f"gpuforensics-{node}-{run_id}")
            check(steps and steps[-1] == ("DELETE", "pod"), f"failures: {node}: its pod is deleted last ({steps})")
        check(swept(requests, run_id), "failures: the run's label is swept at the end")
        check(c.pods_left() == [], "failures: no pod left")
    finally:
        c.stop()


def case_deadline_and_interrupt(tmp, minor):
    """An exec that never ends: the per-node deadline cuts it; so does Ctrl-C. The pod goes either way."""
    c = Cluster(tmp, "deadline", [{"name": "gpu-hang", "exec": "hang"}])
    try:
        rc, out, err, seconds = c.run(["gpu-hang", "--deadline", "8"])
        requests = c.requests()
        run_id = run_id_of(requests)
        check(rc == 1, f"deadline: exit 1 (got {rc})")
        check(f"gpu-hang: FAILED: deadline passed while collecting\n" in err, f"deadline: reported ({err!r})")
        check(seconds < 8 + 15, f"deadline: ended at the node's deadline ({seconds:.1f} s)")
        execs = [r for r in requests if r["path"].endswith("/exec")]
        command = execs[-1]["query"]["command"] if execs else []
        check("--deadline" in command and command[command.index("--deadline") + 1] == "5",
              "deadline: collect in the pod gets what is left of the node's deadline, at least 5 s")
        steps = pod_requests(requests, f"gpuforensics-gpu-hang-{run_id}")
        check(steps and steps[-1] == ("DELETE", "pod"), "deadline: the pod is deleted")
        check(os.listdir(os.path.join(c.dir, "out")) == [], "deadline: no partial bundle left")
        check(c.pods_left() == [], "deadline: no pod left")
    finally:
        c.stop()

    c = Cluster(tmp, "interrupt", [{"name": "gpu-hang", "exec": "hang"}, {"name": "gpu-wait", "exec": "hang"}])
    try:
        p = c.start(["gpu-hang", "gpu-wait", "--jobs", "1"])
        for _ in range(600):
            if any(r["path"].endswith("/exec") for r in c.requests()):
                break
            time.sleep(0.1)
        time.sleep(0.5)
        p.send_signal(signal.SIGINT)
        started = time.monotonic()
        out, err = p.communicate(timeout=60)
        seconds = time.monotonic() - started
        requests = c.requests()
        run_id = run_id_of(requests)
        check(p.returncode == -signal.SIGINT, f"interrupt: ends by SIGINT after cleaning up (got {p.returncode})")
        check(seconds < 20, f"interrupt: ends promptly ({seconds:.1f} s)")
        check("gpu-hang: FAILED: interrupted while collecting\n" in err, f"interrupt: the node in progress says so ({err!r})")
        check("gpu-wait: FAILED: interrupted\n" in err, "interrupt: the node not started says so")
        check([b["spec"]["nodeName"] for b in created(requests)] == ["gpu-hang"],
              "interrupt: no pod started after Ctrl-C")
        steps = pod_requests(requests, f"gpuforensics-gpu-hang-{run_id}")
        check(steps and steps[-1] == ("DELETE", "pod"), f"interrupt: the pod is deleted ({steps})")
        check(swept(requests, run_id), "interrupt: the run's label is swept")
        check(c.pods_left() == [], "interrupt: no pod left")
        check(os.listdir(os.path.join(c.dir, "out")) == [], "interrupt: no partial bundle left")
    finally:
        c.stop()


def case_spdy_fallback(tmp, minor):
    """A server that refuses the WebSocket upgrade still gets the bundle, over SPDY."""
    c = Cluster(tmp, "spdy", [{"name": "gpu-a", "bundle": SAMPLE, "events_forbidden": True}], websocket=False)
    try:
        rc, out, err, _ = c.run(["gpu-a", "--kubeconfig", c.kubeconfig])
        execs = [(r["method"], r["upgrade"].lower()) for r in c.requests() if r["path"].endswith("/exec")]
        want = ([("GET", "websocket")] if minor >= 30 else []) + [("POST", "spdy/3.1")]
        check(rc == 0 and execs == want, f"spdy: exec over SPDY/3.1 ({execs}, exit {rc}, {err!r})")
        bundles = os.listdir(os.path.join(c.dir, "out"))
        check(len(bundles) == 1 and sha256(os.path.join(c.dir, "out", bundles[0])) == sha256(SAMPLE),
              "spdy: the bundle arrives whole")
        given = [r for r in c.requests() if r["path"].endswith("/exec/stdin")]
        handed = json.loads(given[-1]["stdin"]) if given else {}
        kinds = [i.get("kind") for i in handed.get("items", [])]
        check(given and given[-1]["stdin_closed"] and kinds == ["Node", "PodList"] and
              handed["items"][0].get("metadata", {}).get("name") == "gpu-a",
              f"spdy: collect's stdin is the Node and its pods, no EventList, where events may not be listed "
              f"({given[-1:]!r})")
        check(rc == 0 and any(r["path"] == "/api/v1/namespaces/default/events" for r in c.requests()),
              "spdy: the events were asked for and refused, and the collection went on")
        check(c.pods_left() == [], "spdy: no pod left")
    finally:
        c.stop()


def case_node_unreadable(tmp, minor):
    """The Node named at the start cannot be read again before the exec: collect runs without it, as before."""
    c = Cluster(tmp, "unreadable", [{"name": "gpu-a", "bundle": SAMPLE, "node_reads": 1}])
    try:
        rc, out, err, _ = c.run(["gpu-a"])
        requests = c.requests()
        reads = [r for r in requests if r["path"] == "/api/v1/nodes/gpu-a"]
        check(len(reads) == 2, f"unreadable: the Node is asked for twice, by name ({len(reads)})")
        execs = [r for r in requests if r["path"].endswith("/exec")]
        check(execs and "stdin" not in execs[-1]["query"] and "--node-object" not in execs[-1]["query"]["command"],
              f"unreadable: exec without stdin and without --node-object ({execs[-1:]!r})")
        check(not any(r["path"].endswith("/exec/stdin") for r in requests), "unreadable: nothing sent on stdin")
        bundles = os.listdir(os.path.join(c.dir, "out"))
        check(rc == 0 and len(bundles) == 1, f"unreadable: the node is still collected (exit {rc}, {err!r})")
        check(c.pods_left() == [], "unreadable: no pod left")
    finally:
        c.stop()


def case_dry_run(tmp):
    """--dry-run prints the pod spec, asks the cluster nothing for named nodes, and kubectl reads it as typed."""
    env = dict(os.environ, KUBECONFIG=os.path.join(tmp, "none"), HOME=tmp)
    yaml_run = subprocess.run([PLUGIN, "collect", "node/gpu-a", "--dry-run", "-o", "yaml", "--image", "r/gc:1"],
                              capture_output=True, text=True, env=env)
    json_run = subprocess.run([PLUGIN, "collect", "node/gpu-a", "--dry-run", "-o", "json", "--image", "r/gc:1"],
                              capture_output=True, text=True, env=env)
    check(yaml_run.returncode == 0 and json_run.returncode == 0, "dry-run: exit 0 without a cluster")
    printed = json.loads(json_run.stdout)
    run_id = printed["metadata"]["labels"]["gpuforensics.io/run"]
    check(printed == expected_pod("gpu-a", run_id, "r/gc:1", 360), "dry-run: -o json is the pod spec")
    path = os.path.join(tmp, "dry-run.yaml")
    with open(path, "w") as f:
        f.write(yaml_run.stdout)
    offline = dict(env, KUBECONFIG=os.path.join(tmp, "offline-kubeconfig"))
    with open(offline["KUBECONFIG"], "w") as f:
        f.write("apiVersion: v1\nkind: Config\nclusters: [{name: none, cluster: {server: 'https://127.0.0.1:9'}}]\n"
                "users: [{name: none, user: {token: none}}]\ncontexts: [{name: none, context: {cluster: none, user: none}}]\n"
                "current-context: none\n")
    parsed = subprocess.run([KUBECTL, "label", "--local", "-f", path, "x=y", "-o", "json"],
                            capture_output=True, text=True, env=offline)
    untyped = json.loads(parsed.stdout) if parsed.returncode == 0 else {}
    untyped.get("metadata", {}).get("labels", {}).pop("x", None)
    yaml_id = untyped.get("metadata", {}).get("labels", {}).get("gpuforensics.io/run", "")
    check(untyped == expected_pod("gpu-a", yaml_id, "r/gc:1", 360), f"dry-run: kubectl reads -o yaml as the same pod ({parsed.stderr})")
    typed_run = subprocess.run([KUBECTL, "set", "serviceaccount", "--local", "-f", path, "default", "-o", "json"],
                               capture_output=True, text=True, env=offline)
    typed = json.loads(typed_run.stdout) if typed_run.returncode == 0 else {}
    field = dropped(untyped, typed) if typed_run.returncode == 0 else typed_run.stderr.strip()
    check(field is None, f"dry-run: every field survives decoding into a v1 Pod ({field})")


def prepare_credentials(tmp):
    """The stand-in's TLS certificate and key, and the exec credential plugin, in `tmp`."""
    made = subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                           "-nodes", "-keyout", os.path.join(tmp, "key.pem"), "-out", os.path.join(tmp, "cert.pem"),
                           "-days", "2", "-subj", "/CN=fake-apiserver", "-addext", "subjectAltName=IP:127.0.0.1"],
                          capture_output=True, text=True)
    if made.returncode != 0:
        print(made.stderr, file=sys.stderr)
        return False
    with open(os.path.join(tmp, "cred.sh"), "w") as f:
        f.write(CRED_PLUGIN)
    os.chmod(os.path.join(tmp, "cred.sh"), 0o755)
    return True


def kubectl_minor():
    out = subprocess.run([KUBECTL, "version", "--client", "-o", "json"], capture_output=True, text=True).stdout
    try:
        return int("".join(ch for ch in json.loads(out)["clientVersion"]["minor"] if ch.isdigit()))
    except (ValueError, KeyError):
        return 0


def main():
    with tempfile.TemporaryDirectory() as tmp:
        if not prepare_credentials(tmp):
            return 1
        minor = kubectl_minor()
        print(f"kubectl 1.{minor}")
        case_dry_run(tmp)
        case_selector_success(tmp, minor)
        case_failures(tmp, minor)
        case_output_name(tmp, minor)
        case_spdy_fallback(tmp, minor)
        case_node_unreadable(tmp, minor)
        case_deadline_and_interrupt(tmp, minor)
    print(f"{len(FAILURES)} failed" if FAILURES else "all passed")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    SOURCE, PLUGIN = sys.argv[1], os.path.abspath(sys.argv[2])
    SAMPLE = os.path.join(SOURCE, "samples", "seed-incident.tar.zst")
    KUBECTL = shutil.which("kubectl")
    if not KUBECTL or not shutil.which("openssl"):
        print("kubectl_plugin_test: needs kubectl and openssl: skipped", file=sys.stderr)
        sys.exit(77)
    sys.exit(main())
