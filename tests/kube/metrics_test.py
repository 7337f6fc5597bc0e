#!/usr/bin/env python3
"""metrics_test.py SOURCE_DIR KUBECTL_GPUFORENSICS GPUFORENSICS

`kubectl gpuforensics collect --metrics` end to end, with the real parts:
the seed incident's fake host is collected by the real `gpuforensics
collect` (run by the API stand-in for the pod's exec), the Node and the
service proxy come from the stand-in (fake_apiserver.py) through the real
kubectl, and the metrics store is a real Prometheus (Debian's) or
VictoriaMetrics on loopback, filled with the series kube-state-metrics
and the rule evaluator would have written during the incident:

  kube_node_status_allocatable{resource="nvidia_com_gpu"}  8, then 0 once the kubelet came back
  kube_node_status_capacity{resource="nvidia_com_gpu"}     likewise
  ALERTS{alertname="GPUUnschedulable",alertstate="firing"} from 10 min after the drop

The series are written at today's times (the store's clock) and the node's
clock is the scenario's (collect --fixed-time), 19 days and more behind:
the analyzer must put them on the node's clock by the offset it measured.
Then `gpuforensics analyze` must judge steps 10 to 12 and give the
detection delay. Also: --metrics URL with a token (curl; the token never on
a command line or in the bundle), a store that is down or answers garbage
(a clear line, the bundle still written), and a wrong token.

Without kubectl, openssl, prometheus/promtool or root the test is skipped (77).
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.dont_write_bytecode = True
import kubectl_plugin_test as plugin_test  # noqa: E402  (its Cluster and check)

check = plugin_test.check
SERVICE = "monitoring/prometheus-k8s:9090"
TOKEN = "s3cr3t-t0ken-for-the-store"
# The incident, on the node's clock (the scenario's story, UTC): the kubelet
# is back after the reboot and posts allocatable 0; the alert's `for: 10m`.
DROP = "2026-11-18T03:18:30Z"
ALERT = "2026-11-18T03:28:30Z"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def unix(text):
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def wait_ready(url, what, seconds=60):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return True
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(0.3)
    print(f"FAILED: {what} did not become ready at {url}")
    return False


def incident_series(node, collect_at, now):
    """(name, labels, [(server time s, value)]) of the day before the capture,
    shifted so that the capture's moment on the node is `now` on the store."""
    shift = now - collect_at
    start, end = collect_at - 26 * 3600, collect_at - 5
    times = list(range(start - start % 30, end, 30))
    drop, alert = unix(DROP), unix(ALERT)
    gpus = [(t + shift, 8 if t < drop else 0) for t in times]
    series = [
        ("kube_node_status_allocatable", {"node": node, "resource": "nvidia_com_gpu", "unit": "integer"}, gpus),
        ("kube_node_status_capacity", {"node": node, "resource": "nvidia_com_gpu", "unit": "integer"}, gpus),
        # Not the node's GPUs: another node, and the node's CPUs.
        ("kube_node_status_allocatable", {"node": "other-node", "resource": "nvidia_com_gpu", "unit": "integer"},
         [(t + shift, 8) for t in times]),
        ("kube_node_status_allocatable", {"node": node, "resource": "cpu", "unit": "core"},
         [(t + shift, 191.7) for t in times]),
        ("ALERTS", {"alertname": "GPUUnschedulable", "alertstate": "firing", "node": node, "severity": "critical"},
         [(t + shift, 1) for t in times if t >= alert]),
    ]
    return series


def openmetrics(series):
    lines, typed = [], set()
    for name, labels, points in series:
        if name not in typed:
            lines.append(f"# TYPE {name} gauge")
            typed.add(name)
        text = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
        lines += [f"{name}{{{text}}} {v} {t}" for t, v in points]
    return "\n".join(lines) + "\n# EOF\n"


class Prometheus:
    def __init__(self, tmp, series):
        self.dir = os.path.join(tmp, "prometheus")
        os.makedirs(self.dir)
        source = os.path.join(self.dir, "series.om")
        with open(source, "w") as f:
            f.write(openmetrics(sorted(series, key=lambda s: s[0])))
        made = subprocess.run(["promtool", "tsdb", "create-blocks-from", "openmetrics", source,
                               os.path.join(self.dir, "data")], capture_output=True, text=True)
        self.ok = check(made.returncode == 0, f"promtool made TSDB blocks of the incident ({made.stderr.strip()[-300:]})")
        config = os.path.join(self.dir, "prometheus.yml")
        with open(config, "w") as f:
            f.write("global:\n  scrape_interval: 30s\n")
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            ["prometheus", f"--config.file={config}", f"--storage.tsdb.path={self.dir}/data",
             f"--web.listen-address=127.0.0.1:{self.port}", "--storage.tsdb.retention.time=60d"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.dir, "log"), "w"))
        self.ok = self.ok and wait_ready(self.url + "/-/ready", "prometheus")

    def stop(self):
        self.process.terminate()
        self.process.wait()


class VictoriaMetrics:
    def __init__(self, tmp, series):
        self.dir = os.path.join(tmp, "victoria-metrics")
        os.makedirs(self.dir)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.process = subprocess.Popen(
            ["victoria-metrics", f"-storageDataPath={self.dir}/data", f"-httpListenAddr=127.0.0.1:{self.port}",
             "-retentionPeriod=100y", "-search.disableCache"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(self.dir, "log"), "w"))
        self.ok = wait_ready(self.url + "/health", "victoria-metrics")
        if not self.ok:
            return
        # Its import API takes Prometheus' text format with ms timestamps.
        lines = []
        for name, labels, points in series:
            text = ",".join(f'{k}="{v}"' for k, v in sorted(labels.items()))
            lines += [f"{name}{{{text}}} {v} {t * 1000}" for t, v in points]
        request = urllib.request.Request(self.url + "/api/v1/import/prometheus", data="\n".join(lines).encode(),
                                         method="POST")
        with urllib.request.urlopen(request, timeout=60) as r:
            self.ok = check(r.status == 204, "victoria-metrics took the incident's series")
        urllib.request.urlopen(self.url + "/internal/force_flush", timeout=30).read()

    def stop(self):
        self.process.terminate()
        self.process.wait()


class TokenGate:
    """A store behind a bearer token, as a Prometheus behind an authenticating
    proxy: requests without the token get 401, the others go to `target`.
    `garbage` answers HTML instead, as a misconfigured ingress would."""

    def __init__(self, target):
        gate = self
        self.target, self.seen, self.garbage = target, [], False

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self):
                gate.seen.append(self.headers.get("Authorization", ""))
                if gate.garbage:
                    return self.answer(200, b"<html>502 Bad Gateway</html>\xff\xfe", "text/html")
                if self.headers.get("Authorization") != "Bearer " + TOKEN:
                    return self.answer(401, b'{"status":"error","errorType":"unauthorized","error":"bad token"}',
                                       "application/json")
                with urllib.request.urlopen(gate.target + self.path, timeout=30) as r:
                    self.answer(r.status, r.read(), r.headers.get("Content-Type", ""))

            def answer(self, code, body, kind):
                self.send_response(code)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


CLUSTER_UID = "8f3c2a4e-1b7d-4c9a-9e2f-5d6b7c8a9f01"
# The seed's plugin, an ACK static pod, and what the API recorded of it.
PLUGIN_POD = "nvidia-device-plugin-{node}"
PLUGIN_EVENT = {"type": "Normal", "reason": "Started", "message": "Started container nvidia-device-plugin-ctr",
                "lastTimestamp": "2026-11-18T03:18:17Z", "count": 1, "source": {"component": "kubelet"}}


def start_cluster(tmp, name, host, node, collect_at, store_url):
    """A stand-in API server whose pod exec runs the real collect on the fake host."""
    pod = PLUGIN_POD.format(node=node)
    node_entry = {
        "name": node, "labels": {}, "ready": True, "exec": "command",
        "object_file": os.path.join(host, "api", "node.json"),
        "pods": [{"metadata": {"name": pod, "namespace": "kube-system", "labels": {"component": "nvidia-device-plugin"}},
                  "spec": {"nodeName": node}, "status": {"phase": "Running"}}],
        "pod_events": {f"kube-system/{pod}": [PLUGIN_EVENT]},
        "command": [GPUF, "collect", "--root", os.path.join(host, "root"), "--fixed-time", collect_at,
                    "--node-object", "-", "--output", "-"],
        "command_env": {"PATH": f"{host}/bin:{host}/sysbin", "NODE_NAME": "", "KUBECONFIG": ""}}
    return plugin_test.Cluster(tmp, name, [node_entry], services={SERVICE: store_url}, cluster_uid=CLUSTER_UID)


def analyze(bundle):
    ran = subprocess.run([GPUF, "analyze", bundle, "--format", "json"], capture_output=True, text=True)
    return json.loads(ran.stdout) if ran.stdout.startswith("{") else {"error": ran.stderr}


def steps_of(report):
    return {s["name"]: s for s in report.get("chain", [])}


def near(text, expected, seconds=90):
    """`text`, an RFC 3339 time, within `seconds` of `expected`: the offset is
    measured across the plugin's handing over, which takes a moment."""
    return text is not None and abs(unix(text.replace(".000000000", "")) - unix(expected)) <= seconds


def check_judged(report, what):
    steps = steps_of(report)
    ksm, store, alerting = (steps.get(n, {}) for n in ("kube-state-metrics", "metrics store", "alerting"))
    check(ksm.get("status") == "ok" and ksm.get("detail") == "exports nvidia_com_gpu allocatable 0, as the Node says",
          f"{what}: step 10 judged from kube-state-metrics' series ({ksm})")
    check(store.get("status") == "ok" and "nvidia_com_gpu allocatable dropped 8 -> 0 at 2026-11-18T03:1" in
          store.get("detail", ""), f"{what}: step 11 holds the drop on the node's clock ({store.get('detail')})")
    check(alerting.get("status") == "ok" and alerting.get("detail", "").startswith("GPUUnschedulable fired at ")
          and "10 min after the drop; firing at the capture" in alerting.get("detail", ""),
          f"{what}: step 12 says the alert fired 10 min after the drop ({alerting.get('detail')})")
    d = report.get("detection") or {}
    check(near(d.get("dropped_at"), DROP) and near(d.get("alert_at"), ALERT) and d.get("drop_to_alert_s") == 600,
          f"{what}: the detection delay, on the node's clock ({d})")
    check(d.get("cause_rule") == report["diagnosis"]["leader"] and d.get("cause_to_drop_s") is not None,
          f"{what}: the delay runs from the leading finding's first sign ({d.get('cause_rule')}, "
          f"{d.get('cause_to_drop_s')} s)")
    marks = [m for m in report["timeline"]["milestones"] if m["source"] == "metrics"]
    kinds = [m["milestone"] for m in marks]
    check(kinds == ["metric_dropped", "alert_firing"],
          f"{what}: the drop and the alert on the timeline, nothing of the other node or the CPUs ({kinds})")


def case_service_proxy(tmp, host, node, collect_at, prometheus):
    cluster = start_cluster(tmp, "proxy", host, node, collect_at, prometheus.url)
    try:
        code, out, err, _ = cluster.run([node, "--metrics-service", SERVICE, "--metrics-window", "24h"], timeout=300)
        bundle = out.strip()
        check(code == 0 and bundle.endswith(".tar.zst"), f"--metrics-service: the node collected ({err[-600:]})")
        raw = [r["path"] for r in cluster.requests() if "/services/" in r.get("path", "")]
        check(len(raw) == 5 and all(p.startswith("/api/v1/namespaces/monitoring/services/prometheus-k8s:9090/proxy/api/v1/query")
                                    for p in raw),
              f"--metrics-service: time() and four range queries through the API server's service proxy ({raw})")
        if code == 0:
            path = os.path.join(cluster.dir, "out", bundle)
            report = analyze(path)
            check_judged(report, "Prometheus through the service proxy")
            pod = PLUGIN_POD.format(node=node)
            said = [m["message"] for m in report["timeline"]["milestones"] if m["milestone"] == "cluster_event"]
            check(f"Normal Started pod/{pod}: Started container nvidia-device-plugin-ctr" in said,
                  f"the device plugin pod's own events are on the timeline ({said})")
            contexts = subprocess.run([GPUF, "sql", path, "SELECT name FROM artifacts WHERE context = 'cluster' "
                                       "ORDER BY name"], capture_output=True, text=True).stdout.split()[1:]
            check(contexts == ["k8s.cluster", "k8s.events", "k8s.metrics", "k8s.node", "k8s.node_pods"],
                  f"the Node, its events and pods, the cluster and the store's record came from the API ({contexts})")
            case_fleet(tmp, path, report)
    finally:
        cluster.stop()


def case_fleet(tmp, bundle, report):
    """The fleet summary gives the detection delay by cluster and cause."""
    fleet = os.path.join(tmp, "fleet.sqlite")
    again = os.path.join(tmp, "again.tar.zst")  # the node collected twice: counted once, by its latest
    shutil.copy(bundle, again)
    loaded = subprocess.run([GPUF, "analyze", "--db", fleet, bundle, again], capture_output=True, text=True)
    summary = subprocess.run([GPUF, "fleet", fleet, "--format", "json"], capture_output=True, text=True)
    doc = json.loads(summary.stdout) if summary.stdout.startswith("{") else {}
    groups = doc.get("detections", [])
    leader = report["diagnosis"]["leader"]
    check(loaded.returncode in (0, 1) and len(groups) == 1 and groups[0]["cluster_uid"] == CLUSTER_UID and
          groups[0]["cause_rule"] == leader and groups[0]["nodes"] == 1 and
          groups[0]["median_drop_to_alert_seconds"] == 600 and groups[0]["without_alert"] == 0 and
          abs(groups[0]["median_cause_to_drop_seconds"] - report["detection"]["cause_to_drop_s"]) < 0.001,
          f"fleet: the detection delay by cluster and cause ({groups}, {loaded.stderr.strip()[-200:]})")
    text = subprocess.run([GPUF, "fleet", fleet], capture_output=True, text=True).stdout
    check(f"{CLUSTER_UID} {leader}" in " ".join(text.split()), "fleet: the text summary names the cluster and cause")


def case_direct(tmp, host, node, collect_at, store, name):
    gate = TokenGate(store.url)
    cluster = start_cluster(tmp, name, host, node, collect_at, store.url)
    token_file = os.path.join(tmp, f"{name}-token")
    with open(token_file, "w") as f:
        f.write(TOKEN + "\n")
    # curl as the plugin runs it, its command lines logged: the token must be on none.
    wrapper_dir = os.path.join(tmp, f"{name}-bin")
    os.makedirs(wrapper_dir)
    argv_log = os.path.join(tmp, f"{name}-curl-argv")
    with open(os.path.join(wrapper_dir, "curl"), "w") as f:
        f.write(f'#!/bin/sh\nprintf "%s\\n" "$*" >> {argv_log}\nexec {shutil.which("curl")} "$@"\n')
    os.chmod(os.path.join(wrapper_dir, "curl"), 0o755)
    cluster.env["PATH"] = wrapper_dir + ":" + cluster.env["PATH"]
    try:
        code, out, err, _ = cluster.run([node, "--metrics", gate.url, "--metrics-token-file", token_file], timeout=60)
        check(code == 64 and "is plain http: give an https URL, or --metrics-insecure" in err,
              f"{name}: a plain-http store is refused without --metrics-insecure ({err.strip()[-200:]})")
        code, out, err, _ = cluster.run([node, "--metrics", gate.url, "--metrics-insecure", "--metrics-token-file",
                                         token_file], timeout=300)
        bundle = os.path.join(cluster.dir, "out", out.strip())
        check(code == 0 and os.path.isfile(bundle), f"{name}: collected with --metrics URL ({err[-600:]})")
        check(len(gate.seen) == 5 and set(gate.seen) == {"Bearer " + TOKEN},
              f"{name}: every query carried the token ({len(gate.seen)} requests)")
        argv = open(argv_log).read() if os.path.exists(argv_log) else ""
        check(argv.count("-q --silent") == 5 and TOKEN not in argv,
              f"{name}: curl's command lines hold no token")
        if code == 0:
            unpacked = subprocess.run(["sh", "-c", f"zstd -dc '{bundle}' | grep -c '{TOKEN}' || true"],
                                      capture_output=True, text=True).stdout.strip()
            check(unpacked == "0", f"{name}: the token is nowhere in the bundle")
            check_judged(analyze(bundle), name)
        # A wrong token, and an answer that is not the query API's: a line each, and the bundle.
        with open(token_file, "w") as f:
            f.write("wrong\n")
        code, out, err, _ = cluster.run([node, "--metrics", gate.url, "--metrics-insecure", "--metrics-token-file",
                                         token_file], timeout=300)
        check(code == 0 and f"metrics: from {gate.url} incomplete: time(): HTTP 401: bad token; nothing else asked"
              in err,
              f"{name}: a refused token is one line and the capture goes on ({err.strip()[-300:]})")
        if code == 0:
            steps = steps_of(analyze(os.path.join(cluster.dir, "out", out.strip())))
            check(steps.get("metrics store", {}).get("missing") ==
                  "kube_node_status_allocatable: the store did not answer (not asked: time() failed: HTTP 401: bad token)",
                  f"{name}: with the queries refused, steps 10 to 12 stay unknown with why ({steps.get('metrics store')})")
        gate.garbage = True
        code, out, err, _ = cluster.run([node, "--metrics", gate.url, "--metrics-insecure"], timeout=300)
        check(code == 0 and "time(): not a query API answer: <html>502 Bad Gateway</html>" in err,
              f"{name}: garbage from the store is one line and the capture goes on ({err.strip()[-300:]})")
    finally:
        gate.server.shutdown()
        cluster.stop()


def case_store_down(tmp, host, node, collect_at):
    cluster = start_cluster(tmp, "down", host, node, collect_at, f"http://127.0.0.1:{free_port()}")
    try:
        started = time.monotonic()
        code, out, err, _ = cluster.run([node, "--metrics-service", SERVICE], timeout=300)
        check(code == 0 and out.strip().endswith(".tar.zst") and "metrics: from service " + SERVICE +
              " through the API server incomplete: time(): Error from server (ServiceUnavailable)" in err and
              "nothing else asked" in err,
              f"a store that is down: one line, and the bundle ({err.strip()[-300:]})")
        check(time.monotonic() - started < 120, "a store that is down does not hold the capture up")
    finally:
        cluster.stop()


def main():
    with tempfile.TemporaryDirectory(prefix="gpuforensics-metrics-") as tmp:
        if not plugin_test.prepare_credentials(tmp):
            return 1
        host = os.path.join(tmp, "host")
        built = subprocess.run([sys.executable, os.path.join(SOURCE, "samples", "tools", "build_fakehost.py"),
                                os.path.join(SOURCE, "samples", "scenarios", "seed-incident"), host],
                               capture_output=True, text=True)
        if not check(built.returncode == 0, f"the seed incident's fake host ({built.stderr[-300:]})"):
            return 1
        collect_at = open(os.path.join(host, "collect.env")).read().split("COLLECT_AT=")[1].split("\n")[0]
        node = json.load(open(os.path.join(host, "api", "node.json")))["metadata"]["name"]
        series = incident_series(node, unix(datetime.fromisoformat(collect_at).astimezone(timezone.utc)
                                            .strftime("%Y-%m-%dT%H:%M:%SZ")), int(time.time()))
        prometheus = Prometheus(tmp, series)
        try:
            if prometheus.ok:
                case_service_proxy(tmp, host, node, collect_at, prometheus)
                case_direct(tmp, host, node, collect_at, prometheus, "prometheus")
        finally:
            prometheus.stop()
        victoria = VictoriaMetrics(tmp, series)
        try:
            if victoria.ok:
                case_direct(tmp, host, node, collect_at, victoria, "victoria-metrics")
        finally:
            victoria.stop()
        case_store_down(tmp, host, node, collect_at)
    print(f"{len(plugin_test.FAILURES)} failed" if plugin_test.FAILURES else "all passed")
    return 1 if plugin_test.FAILURES else 0


if __name__ == "__main__":
    SOURCE, PLUGIN, GPUF = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    plugin_test.PLUGIN = PLUGIN
    needs = ["kubectl", "openssl", "prometheus", "promtool", "victoria-metrics", "curl", "systemd-journal-remote"]
    missing = [n for n in needs if not shutil.which(n) and not os.path.exists("/lib/systemd/" + n)]
    if missing or os.geteuid() != 0:
        print(f"metrics_test: needs {', '.join(missing) or 'root'}: skipped", file=sys.stderr)
        sys.exit(77)
    sys.exit(main())
