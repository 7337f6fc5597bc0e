#!/usr/bin/env python3
"""A recorded-API stand-in for the Kubernetes API server, on loopback.

No real API server can run on the test machine (no etcd, no
kube-apiserver), so the real kubectl talks to this one through a
kubeconfig. It serves only what kubectl-gpuforensics makes kubectl ask:

  discovery   GET /api, /apis, /api/v1 (the legacy forms, which every
              kubectl since 1.20 reads)
  nodes       GET /api/v1/nodes[?labelSelector=...], /api/v1/nodes/NAME
  events      GET /api/v1/namespaces/default/events?fieldSelector=involvedObject.kind=Node,involvedObject.name=NAME,
              and GET /api/v1/namespaces/NS/events?fieldSelector=involvedObject.kind=Pod,involvedObject.name=POD
  node pods   GET /api/v1/pods?fieldSelector=spec.nodeName=NAME (kubectl get pods -A)
  namespace   GET /api/v1/namespaces/kube-system, whose uid names the cluster
  daemonsets  GET /apis/apps/v1/namespaces/NS/daemonsets/NAME (the device plugin's), with apps/v1 discovery
  pods        POST, GET (one or a list by labelSelector), DELETE
  services    GET /api/v1/namespaces/NS/services/NAME[:PORT]/proxy/PATH, the API
              server's service proxy, relayed to the URL the scenario gives
              the service (a real Prometheus on loopback)
  exec        /api/v1/namespaces/NS/pods/NAME/exec (stdin read to its end
              and logged when asked for), over WebSocket
              (v5.channel.k8s.io, what kubectl 1.30+ asks first) or over
              SPDY/3.1 (v4.channel.k8s.io, what kubectl 1.20 only speaks
              and what newer ones fall back to when the WebSocket upgrade
              is refused)

and records every request, one JSON object a line, in the log file, so a
test can check the exact requests and what is left in the cluster. Every
request must carry the bearer token of the scenario: kubectl obtains it
from an exec credential plugin, as from a cloud provider's.

The scenario (a JSON file) names the nodes and how each behaves:

  {"token": "t0k3n", "websocket": true,
   "nodes": [{"name": "gpu-a", "labels": {...}, "ready": true,
              "pending_polls": 1,          # GETs of its pod that still say Pending
              "start": "run" | "image-pull-error",
              "exec": "bundle" | "fail" | "hang" | "command",
              "bundle": "/path/to/bundle.tar.zst",
              "command": ["gpuforensics", "collect", ...],  # run with exec's stdin; its stdout streamed
              "command_env": {"PATH": "..."},               # added to this process's environment
              "object_file": "/path/to/node.json",          # the Node served, in place of a made-up one
              "pods": [{"metadata": {"name": "nvidia-device-plugin-x", "namespace": "gpu-operator"}, ...}],
              "pod_events": {"gpu-operator/nvidia-device-plugin-x": [{"type": "Warning", "reason": "BackOff", ...}]},
                                          # events of a pod, or of a DaemonSet with "involvedKind": "DaemonSet"
              "daemonsets": {"gpu-operator/nvidia-device-plugin-daemonset": {"kind": "DaemonSet", ...}},
              "stderr": "what collect says on stderr",
              "exit_code": 74,
              "node_reads": 1,             # GETs of the Node answered; later ones Forbidden
              "events": [{"type": "Warning", "reason": "Rebooted", "message": "...",
                          "lastTimestamp": "2026-11-18T03:18:07Z"}],  # about the Node; none when absent
              "events_forbidden": true}],  # listing events is refused, as for a user without that verb
   "services": {"monitoring/prometheus:9090": "http://127.0.0.1:39090"},
   "cluster_uid": "8f3c2a4e-..."}  # kube-system's uid; without it, reading the namespace is Forbidden

usage: fake_apiserver.py SCENARIO LOG PORT_FILE CERT KEY
Serves HTTPS with CERT (kubectl sends no credentials over plain HTTP).
Writes the port it listens on to PORT_FILE once it accepts connections.
GET /_fake/pods answers the pods that exist now (no token needed).
"""
import base64
import hashlib
import json
import os
import socket
import ssl
import struct
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

LOCK = threading.Lock()
PODS = {}  # (namespace, name) -> pod object
RESOURCE_VERSION = [100]


def load_scenario(path):
    with open(path) as f:
        scenario = json.load(f)
    scenario["by_name"] = {n["name"]: n for n in scenario["nodes"]}
    return scenario


def next_resource_version():
    RESOURCE_VERSION[0] += 1
    return str(RESOURCE_VERSION[0])


def status(code, reason, message):
    return {"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
            "message": message, "reason": reason, "code": code}


def node_object(node):
    if node.get("object_file"):
        with open(node["object_file"]) as f:
            return json.load(f)
    ready = "True" if node.get("ready", True) else "Unknown"
    condition = {"type": "Ready", "status": ready,
                 "reason": "KubeletReady" if ready == "True" else "NodeStatusUnknown",
                 "message": "kubelet is posting ready status" if ready == "True"
                 else "Kubelet stopped posting node status.",
                 "lastHeartbeatTime": "2026-11-18T09:58:00Z",
                 "lastTransitionTime": "2026-11-18T09:40:00Z"}
    return {"kind": "Node", "apiVersion": "v1",
            "metadata": {"name": node["name"], "labels": node.get("labels", {}),
                         "resourceVersion": "7"},
            "spec": {}, "status": {"conditions": [condition]}}


def matches(labels, selector):
    """Equality-based label selectors: a=b,c=d (all that kubectl passes here)."""
    if not selector:
        return True
    for term in selector.split(","):
        key, _, value = term.partition("=")
        if labels.get(key) != value:
            return False
    return True


API_RESOURCES = {
    "kind": "APIResourceList", "groupVersion": "v1",
    "resources": [
        {"name": "nodes", "singularName": "node", "namespaced": False, "kind": "Node",
         "verbs": ["get", "list", "watch"], "shortNames": ["no"]},
        {"name": "pods", "singularName": "pod", "namespaced": True, "kind": "Pod",
         "verbs": ["create", "delete", "deletecollection", "get", "list", "watch"], "shortNames": ["po"]},
        {"name": "pods/exec", "singularName": "", "namespaced": True, "kind": "PodExecOptions",
         "verbs": ["create", "get"]},
        {"name": "events", "singularName": "event", "namespaced": True, "kind": "Event",
         "verbs": ["create", "delete", "get", "list", "watch"], "shortNames": ["ev"]},
        {"name": "namespaces", "singularName": "namespace", "namespaced": False, "kind": "Namespace",
         "verbs": ["create", "delete", "get", "list", "watch"], "shortNames": ["ns"]},
    ]}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "fake-apiserver"

    def log_message(self, *args):
        pass

    # --- plumbing -------------------------------------------------------

    def record(self, **extra):
        entry = {"method": self.command, "path": self.url.path,
                 "query": {k: v for k, v in urllib.parse.parse_qs(self.url.query).items()}}
        entry.update(extra)
        with LOCK, open(self.server.log_path, "a") as log:
            log.write(json.dumps(entry, sort_keys=True) + "\n")

    def send_json(self, code, obj):
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def read_body(self):
        length = int(self.headers.get("Content-Length", "0"))
        return self.rfile.read(length) if length else b""

    def authorized(self):
        return self.headers.get("Authorization") == "Bearer " + self.server.scenario["token"]

    def route(self):
        self.url = urllib.parse.urlsplit(self.path)
        if self.url.path == "/_fake/pods":
            with LOCK:
                self.send_json(200, sorted(f"{ns}/{name}" for ns, name in PODS))
            return
        body = self.read_body() if self.command in ("POST", "PUT", "DELETE") and \
            "upgrade" not in self.headers.get("Connection", "").lower() else b""
        if not self.authorized():
            self.record(refused="unauthorized")
            self.send_json(401, status(401, "Unauthorized", "Unauthorized"))
            return
        parts = [p for p in self.url.path.split("/") if p]
        query = urllib.parse.parse_qs(self.url.query)
        try:
            self.dispatch(parts, query, body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    do_GET = do_POST = do_DELETE = do_PUT = route

    def dispatch(self, parts, query, body):
        if parts == ["api"]:
            self.record()
            return self.send_json(200, {"kind": "APIVersions", "versions": ["v1"],
                                        "serverAddressByClientCIDRs": [
                                            {"clientCIDR": "0.0.0.0/0", "serverAddress": "127.0.0.1"}]})
        if parts == ["apis"]:
            self.record()
            apps = {"groupVersion": "apps/v1", "version": "v1"}
            return self.send_json(200, {"kind": "APIGroupList", "apiVersion": "v1", "groups": [
                {"name": "apps", "versions": [apps], "preferredVersion": apps}]})
        if parts == ["apis", "apps", "v1"]:
            self.record()
            return self.send_json(200, {"kind": "APIResourceList", "groupVersion": "apps/v1", "resources": [
                {"name": "daemonsets", "singularName": "daemonset", "namespaced": True, "kind": "DaemonSet",
                 "verbs": ["get", "list", "watch"], "shortNames": ["ds"]}]})
        if parts[:4] == ["apis", "apps", "v1", "namespaces"] and len(parts) == 7 and parts[5] == "daemonsets":
            self.record()
            for node in self.server.scenario["nodes"]:
                found = node.get("daemonsets", {}).get(f"{parts[4]}/{parts[6]}")
                if found:
                    return self.send_json(200, found)
            return self.send_json(404, status(404, "NotFound", f'daemonsets.apps "{parts[6]}" not found'))
        if parts == ["api", "v1"]:
            self.record()
            return self.send_json(200, API_RESOURCES)
        if parts[:3] == ["api", "v1", "nodes"]:
            return self.nodes(parts[3:], query)
        if parts == ["api", "v1", "namespaces", "default", "events"]:
            return self.events(query)
        if parts[:3] == ["api", "v1", "namespaces"] and len(parts) == 5 and parts[4] == "events":
            return self.pod_events(parts[3], query)
        if parts == ["api", "v1", "pods"]:
            return self.node_pods(query)
        if parts == ["api", "v1", "namespaces", "kube-system"]:
            self.record()
            uid = self.server.scenario.get("cluster_uid")
            if not uid:
                return self.send_json(403, status(403, "Forbidden", 'namespaces "kube-system" is forbidden: User '
                                                  '"tester" cannot get resource "namespaces" in API group ""'))
            return self.send_json(200, {"kind": "Namespace", "apiVersion": "v1",
                                        "metadata": {"name": "kube-system", "uid": uid,
                                                     "creationTimestamp": "2026-03-09T07:00:02Z"},
                                        "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Active"}})
        if parts[:3] == ["api", "v1", "namespaces"] and len(parts) >= 7 and parts[4] == "services" \
                and parts[6] == "proxy":
            return self.service_proxy(parts[3], parts[5], "/" + "/".join(parts[7:]))
        if parts[:3] == ["api", "v1", "namespaces"] and len(parts) >= 5 and parts[4] == "pods":
            return self.pods(parts[3], parts[5:], query, body)
        self.record()
        self.send_json(404, status(404, "NotFound", "the server could not find the requested resource"))

    # --- nodes ------------------------------------------------------------

    def nodes(self, rest, query):
        self.record()
        nodes = self.server.scenario["nodes"]
        if not rest:
            selector = query.get("labelSelector", [""])[0]
            items = [node_object(n) for n in nodes if matches(n.get("labels", {}), selector)]
            return self.send_json(200, {"kind": "NodeList", "apiVersion": "v1",
                                        "metadata": {"resourceVersion": "7"}, "items": items})
        node = self.server.scenario["by_name"].get(rest[0])
        if not node:
            return self.send_json(404, status(404, "NotFound", f'nodes "{rest[0]}" not found'))
        with LOCK:
            node["reads"] = node.get("reads", 0) + 1
            refused = node["reads"] > node.get("node_reads", 1 << 30)
        if refused:
            return self.send_json(403, status(403, "Forbidden", f'nodes "{rest[0]}" is forbidden: the stand-in '
                                              f'answers {node["node_reads"]} read(s) of it'))
        return self.send_json(200, node_object(node))

    # --- the node's pods and their events ------------------------------------

    def node_pods(self, query):
        self.record()
        fields = dict(f.split("=", 1) for f in query.get("fieldSelector", [""])[0].split(",") if "=" in f)
        node = self.server.scenario["by_name"].get(fields.get("spec.nodeName", ""), {})
        return self.send_json(200, {"kind": "PodList", "apiVersion": "v1", "metadata": {"resourceVersion": "9"},
                                    "items": node.get("pods", [])})

    def pod_events(self, namespace, query):
        self.record()
        fields = dict(f.split("=", 1) for f in query.get("fieldSelector", [""])[0].split(",") if "=" in f)
        said = []
        for node in self.server.scenario["nodes"]:
            said += node.get("pod_events", {}).get(f"{namespace}/{fields.get('involvedObject.name', '')}", [])
        said = [e for e in said if e.get("involvedKind", "Pod") == fields.get("involvedObject.kind", "Pod")]
        said = [{k: v for k, v in e.items() if k != "involvedKind"} for e in said]
        name, kind = fields.get("involvedObject.name", ""), fields.get("involvedObject.kind", "Pod")
        items = [dict(e, apiVersion="v1", kind="Event", firstTimestamp=e["lastTimestamp"],
                      involvedObject={"kind": kind, "namespace": namespace, "name": name, "uid": name},
                      metadata={"name": f"{name}.{n:016x}", "namespace": namespace})
                 for n, e in enumerate(said)]
        return self.send_json(200, {"kind": "EventList", "apiVersion": "v1", "metadata": {"resourceVersion": "9"},
                                    "items": items})

    # --- services/proxy -----------------------------------------------------

    def service_proxy(self, namespace, service, path):
        """The API server relays the request to the service and its answer back, status and body."""
        self.record()
        target = self.server.scenario.get("services", {}).get(f"{namespace}/{service}")
        if not target:
            return self.send_json(404, status(404, "NotFound", f'services "{service.split(":")[0]}" not found'))
        url = target + path + ("?" + self.url.query if self.url.query else "")
        try:
            with urllib.request.urlopen(url, timeout=30) as answer:
                code, body, kind = answer.status, answer.read(), answer.headers.get("Content-Type", "")
        except urllib.error.HTTPError as e:
            code, body, kind = e.code, e.read(), e.headers.get("Content-Type", "")
        except OSError as e:
            return self.send_json(503, status(503, "ServiceUnavailable", f"error trying to reach service: {e}"))
        self.send_response(code)
        self.send_header("Content-Type", kind or "application/octet-stream")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    # --- events -------------------------------------------------------------

    def events(self, query):
        self.record()
        fields = dict(f.split("=", 1) for f in query.get("fieldSelector", [""])[0].split(",") if "=" in f)
        node = self.server.scenario["by_name"].get(fields.get("involvedObject.name", ""))
        if node and node.get("events_forbidden"):
            return self.send_json(403, status(403, "Forbidden", 'events is forbidden: User "tester" cannot list '
                                              'resource "events" in API group "" in the namespace "default"'))
        said = node.get("events", []) if node and fields.get("involvedObject.kind") == "Node" else []
        items = [{"apiVersion": "v1", "kind": "Event", "count": 1, "type": e["type"], "reason": e["reason"],
                  "message": e["message"], "firstTimestamp": e["lastTimestamp"], "lastTimestamp": e["lastTimestamp"],
                  "involvedObject": {"kind": "Node", "name": node["name"], "uid": node["name"]},
                  "metadata": {"name": f'{node["name"]}.{n:016x}', "namespace": "default"},
                  "source": {"component": "kubelet", "host": node["name"]}} for n, e in enumerate(said)]
        return self.send_json(200, {"kind": "EventList", "apiVersion": "v1",
                                    "metadata": {"resourceVersion": "7"}, "items": items})

    # --- pods ---------------------------------------------------------------

    def pods(self, namespace, rest, query, body):
        if not rest and self.command == "POST":
            return self.create_pod(namespace, body)
        if not rest and self.command == "GET":
            self.record()
            selector = query.get("labelSelector", [""])[0]
            with LOCK:
                items = [p for (ns, _), p in sorted(PODS.items())
                         if ns == namespace and matches(p["metadata"].get("labels", {}), selector)]
            return self.send_json(200, {"kind": "PodList", "apiVersion": "v1",
                                        "metadata": {"resourceVersion": next_resource_version()},
                                        "items": items})
        name = rest[0] if rest else ""
        if len(rest) == 2 and rest[1] == "exec":
            return self.exec(namespace, name, query)
        if len(rest) == 1 and self.command == "GET":
            self.record()
            with LOCK:
                pod = PODS.get((namespace, name))
                if pod:
                    self.advance(pod)
            if not pod:
                return self.send_json(404, status(404, "NotFound", f'pods "{name}" not found'))
            return self.send_json(200, pod)
        if len(rest) == 1 and self.command == "DELETE":
            self.record(body=json.loads(body) if body else None)
            with LOCK:
                pod = PODS.pop((namespace, name), None)
            if not pod:
                return self.send_json(404, status(404, "NotFound", f'pods "{name}" not found'))
            return self.send_json(200, pod)
        self.record()
        self.send_json(405, status(405, "MethodNotAllowed", "not served by the stand-in"))

    def create_pod(self, namespace, body):
        pod = json.loads(body)
        self.record(body=pod)
        name = pod["metadata"]["name"]
        with LOCK:
            if (namespace, name) in PODS:
                return self.send_json(409, status(409, "AlreadyExists", f'pods "{name}" already exists'))
            pod["metadata"].update({"namespace": namespace, "uid": f"uid-{name}",
                                    "resourceVersion": next_resource_version(),
                                    "creationTimestamp": "2026-11-18T10:00:00Z"})
            pod["status"] = {"phase": "Pending"}
            node = self.server.scenario["by_name"].get(pod["spec"].get("nodeName", ""), {})
            pod["_polls"] = node.get("pending_polls", 0)
            PODS[(namespace, name)] = pod
            reply = {k: v for k, v in pod.items() if k != "_polls"}
        self.send_json(201, reply)

    def advance(self, pod):
        """Pending for the node's first pending_polls GETs, then how its start goes."""
        node = self.server.scenario["by_name"].get(pod["spec"].get("nodeName", ""), {})
        if not node.get("ready", True):
            return  # no kubelet picks the pod up
        if pod["_polls"] > 0:
            pod["_polls"] -= 1
            return
        container = pod["spec"]["containers"][0]
        if node.get("start", "run") == "image-pull-error":
            pod["status"] = {"phase": "Pending", "containerStatuses": [{
                "name": container["name"], "ready": False, "restartCount": 0, "image": container["image"],
                "imageID": "", "state": {"waiting": {
                    "reason": "ImagePullBackOff",
                    "message": f'Back-off pulling image "{container["image"]}"'}}}]}
            return
        pod["status"] = {"phase": "Running", "podIP": "10.0.0.7", "containerStatuses": [{
            "name": container["name"], "ready": True, "restartCount": 0, "image": container["image"],
            "imageID": "", "started": True, "state": {"running": {"startedAt": "2026-11-18T10:00:02Z"}}}]}

    # --- exec ---------------------------------------------------------------

    def exec(self, namespace, name, query):
        upgrade = self.headers.get("Upgrade", "")
        protocols = self.headers.get("Sec-WebSocket-Protocol", "") or self.headers.get("X-Stream-Protocol-Version", "")
        self.record(upgrade=upgrade, protocols=protocols)
        with LOCK:
            pod = PODS.get((namespace, name))
            phase = pod["status"]["phase"] if pod else None
            node = self.server.scenario["by_name"].get(pod["spec"]["nodeName"], {}) if pod else {}
        if not pod:
            return self.send_json(404, status(404, "NotFound", f'pods "{name}" not found'))
        if phase != "Running":
            return self.send_json(400, status(400, "BadRequest",
                                              f"pod {name} does not have a host assigned"))
        if upgrade.lower() == "websocket":
            if not self.server.scenario.get("websocket", True):
                return self.send_json(400, status(400, "BadRequest", "websocket upgrade refused by the stand-in"))
            stream = WebSocketStreams(self)
        elif upgrade.lower() == "spdy/3.1":
            stream = SpdyStreams(self)
        else:
            return self.send_json(400, status(400, "BadRequest", "Upgrade request required"))
        self.close_connection = True
        def record_stdin(text, closed):
            entry = {"method": "STDIN", "path": self.url.path + "/stdin", "stdin": text, "stdin_closed": closed}
            with LOCK, open(self.server.log_path, "a") as log:
                log.write(json.dumps(entry, sort_keys=True) + "\n")

        try:
            stream.start()
            run_exec(node, stream, query.get("stdin") == ["true"], record_stdin)
        except (BrokenPipeError, ConnectionResetError, OSError, EOFError):
            pass


def read_stdin(stream, timeout=10):
    """Everything kubectl sends on stdin, up to its end (kubectl exec -i)."""
    deadline = time.monotonic() + timeout
    while not stream.stdin_closed and not stream.conn.eof and time.monotonic() < deadline:
        stream.pump(0.2)
    return bytes(stream.stdin)


def run_exec(node, stream, wants_stdin, record):
    """What the collect command in the pod answers, as the scenario says.
    What it was given on stdin is recorded, as {"stdin": text, "stdin_closed": bool}."""
    if wants_stdin:
        given = read_stdin(stream)
        record(given.decode("utf-8", "replace"), stream.stdin_closed)
    behaviour = node.get("exec", "bundle")
    if behaviour == "hang":
        while not stream.conn.eof:  # until kubectl goes away
            stream.pump(0.2)
        return
    if node.get("stderr"):
        stream.send("stderr", node["stderr"].encode())
    if behaviour == "command":
        ran = subprocess.run(node["command"], input=given if wants_stdin else b"", capture_output=True,
                             env=dict(os.environ, **node.get("command_env", {})), timeout=120)
        stream.send("stderr", ran.stderr)
        for at in range(0, len(ran.stdout), 32768):
            stream.send("stdout", ran.stdout[at:at + 32768])
            stream.pump(0)
        if ran.returncode == 0:
            stream.finish({"metadata": {}, "status": "Success"})
            return
        behaviour, node = "fail", dict(node, exit_code=ran.returncode)
    if behaviour == "bundle":
        with open(node["bundle"], "rb") as f:
            while True:
                chunk = f.read(32768)
                if not chunk:
                    break
                stream.send("stdout", chunk)
                stream.pump(0)
        stream.finish({"metadata": {}, "status": "Success"})
        return
    code = node.get("exit_code", 1)
    stream.finish({"metadata": {}, "status": "Failure",
                   "message": f"command terminated with non-zero exit code: exit status {code}",
                   "reason": "NonZeroExitCode",
                   "details": {"causes": [{"reason": "ExitCode", "message": str(code)}]}})


class Conn:
    """The upgraded connection, read and written from one thread only (TLS
    does not take a reader and a writer at once): reads wait at most the
    given time and keep what arrived in a buffer for the frame parsers."""

    def __init__(self, sock):
        self.sock = sock
        self.buf = b""
        self.eof = False

    def fill(self, timeout):
        if self.eof:
            return False
        self.sock.settimeout(max(timeout, 0.001))
        try:
            data = self.sock.recv(65536)
        except (socket.timeout, ssl.SSLWantReadError):
            return False
        except OSError:
            data = b""
        finally:
            self.sock.settimeout(30)
        if not data:
            self.eof = True
            return False
        self.buf += data
        return True

    def take(self, n):
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def send(self, data):
        self.sock.sendall(data)


# --- WebSocket (RFC 6455), remote command protocol v5 -------------------------

WS_CHANNELS = {"stdout": 1, "stderr": 2, "error": 3}


class WebSocketStreams:
    def __init__(self, handler):
        self.h = handler
        self.conn = Conn(handler.connection)
        self.stdin = bytearray()
        self.stdin_closed = False

    def start(self):
        key = self.h.headers["Sec-WebSocket-Key"]
        accept = base64.b64encode(hashlib.sha1((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").encode()).digest())
        offered = [p.strip() for p in self.h.headers.get("Sec-WebSocket-Protocol", "").split(",")]
        chosen = "v5.channel.k8s.io" if "v5.channel.k8s.io" in offered else "v4.channel.k8s.io"
        self.conn.send(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                        f"Sec-WebSocket-Accept: {accept.decode()}\r\n"
                        f"Sec-WebSocket-Protocol: {chosen}\r\n\r\n").encode())

    def frame(self, opcode, payload):
        head = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            head += bytes([n])
        elif n < 65536:
            head += bytes([126]) + struct.pack(">H", n)
        else:
            head += bytes([127]) + struct.pack(">Q", n)
        self.conn.send(head + payload)

    def parse_one(self):
        """One complete client frame from the buffer (masked), or None."""
        buf = self.conn.buf
        if len(buf) < 2:
            return None
        n, pos = buf[1] & 0x7F, 2
        if n == 126:
            if len(buf) < 4:
                return None
            n, pos = struct.unpack(">H", buf[2:4])[0], 4
        elif n == 127:
            if len(buf) < 10:
                return None
            n, pos = struct.unpack(">Q", buf[2:10])[0], 10
        masked = buf[1] & 0x80
        if len(buf) < pos + (4 if masked else 0) + n:
            return None
        mask = buf[pos:pos + 4] if masked else b"\0\0\0\0"
        pos += 4 if masked else 0
        data = bytes(c ^ mask[i % 4] for i, c in enumerate(buf[pos:pos + n]))
        self.conn.take(pos + n)
        return buf[0] & 0x0F, data

    def pump(self, timeout):
        """Pings get pongs; a close frame ends the connection. Binary frames
        on channel 0 are stdin; v5's close signal (channel 255, then 0) ends it."""
        self.conn.fill(timeout)
        while (frame := self.parse_one()) is not None:
            opcode, data = frame
            if opcode == 0x9:
                self.frame(0xA, data)
            elif opcode == 0x8:
                self.conn.eof = True
            elif opcode == 0x2 and data[:1] == b"\x00":
                self.stdin += data[1:]
            elif opcode == 0x2 and data[:2] == b"\xff\x00":
                self.stdin_closed = True

    def send(self, channel, data):
        self.frame(0x2, bytes([WS_CHANNELS[channel]]) + data)

    def finish(self, exec_status):
        self.send("error", json.dumps(exec_status).encode())
        self.frame(0x8, struct.pack(">H", 1000))
        deadline = time.monotonic() + 5
        while not self.conn.eof and time.monotonic() < deadline:
            self.pump(0.2)


# --- SPDY/3.1, remote command protocol v4 -------------------------------------

# The SPDY/3 header compression dictionary (draft-mbelshe-httpbis-spdy-00,
# section 2.6.10.1): length-prefixed header words, then a run of common values.
SPDY_WORDS = [
    "options", "head", "post", "put", "delete", "trace", "accept", "accept-charset", "accept-encoding",
    "accept-language", "accept-ranges", "age", "allow", "authorization", "cache-control", "connection",
    "content-base", "content-encoding", "content-language", "content-length", "content-location",
    "content-md5", "content-range", "content-type", "date", "etag", "expect", "expires", "from", "host",
    "if-match", "if-modified-since", "if-none-match", "if-range", "if-unmodified-since", "last-modified",
    "location", "max-forwards", "pragma", "proxy-authenticate", "proxy-authorization", "range", "referer",
    "retry-after", "server", "te", "trailer", "transfer-encoding", "upgrade", "user-agent", "vary", "via",
    "warning", "www-authenticate", "method", "get", "status", "200 OK", "version", "HTTP/1.1", "url",
    "public", "set-cookie", "keep-alive", "origin"]
SPDY_TAIL = (
    "100101201202205206300302303304305306307402405406407408409410411412413414415416417502504505"
    "203 Non-Authoritative Information204 No Content301 Moved Permanently400 Bad Request401 Unauthorized"
    "403 Forbidden404 Not Found500 Internal Server Error501 Not Implemented503 Service Unavailable"
    "Jan Feb Mar Apr May Jun Jul Aug Sept Oct Nov Dec 00:00:00 Mon, Tue, Wed, Thu, Fri, Sat, Sun, GMT"
    "chunked,text/html,image/png,image/jpg,image/gif,application/xml,application/xhtml+xml,text/plain,"
    "text/javascript,publicprivatemax-age=gzip,deflate,sdchcharset=utf-8charset=iso-8859-1,utf-,*,enq=0.")
SPDY_DICTIONARY = b"".join(struct.pack(">I", len(w)) + w.encode() for w in SPDY_WORDS) + SPDY_TAIL.encode()
SYN_STREAM, SYN_REPLY, PING, GOAWAY, HEADERS = 1, 2, 6, 7, 8


class SpdyStreams:
    """The server side of kubectl's SPDY connection: the client opens one
    stream per channel (error first, then stdout and stderr) and waits for
    each SYN_REPLY; the server writes DATA and ends each with FIN."""

    def __init__(self, handler):
        self.h = handler
        self.conn = Conn(handler.connection)
        self.inflate = zlib.decompressobj(zdict=SPDY_DICTIONARY)
        self.deflate = zlib.compressobj(9, zlib.DEFLATED, 15, 8, zlib.Z_DEFAULT_STRATEGY, zdict=SPDY_DICTIONARY)
        self.streams = {}  # stream type -> id
        self.stdin = bytearray()
        self.stdin_closed = False

    def start(self):
        self.conn.send(b"HTTP/1.1 101 Switching Protocols\r\nConnection: Upgrade\r\nUpgrade: SPDY/3.1\r\n"
                       b"X-Stream-Protocol-Version: v4.channel.k8s.io\r\n\r\n")
        deadline = time.monotonic() + 10
        while not {"error", "stdout", "stderr"} <= set(self.streams):
            if self.conn.eof or time.monotonic() > deadline:
                raise EOFError("the client opened no streams")
            self.pump(0.2)

    def headers_block(self, pairs):
        raw = struct.pack(">I", len(pairs))
        for name, value in pairs:
            raw += struct.pack(">I", len(name)) + name.encode() + struct.pack(">I", len(value)) + value.encode()
        return self.deflate.compress(raw) + self.deflate.flush(zlib.Z_SYNC_FLUSH)

    def parse_headers(self, block):
        raw = self.inflate.decompress(block)
        count, = struct.unpack(">I", raw[:4])
        pos, headers = 4, {}
        for _ in range(count):
            n, = struct.unpack(">I", raw[pos:pos + 4])
            name = raw[pos + 4:pos + 4 + n].decode()
            pos += 4 + n
            n, = struct.unpack(">I", raw[pos:pos + 4])
            headers[name] = raw[pos + 4:pos + 4 + n].decode()
            pos += 4 + n
        return headers

    def control(self, frame_type, flags, payload):
        self.conn.send(struct.pack(">HHI", 0x8000 | 3, frame_type, (flags << 24) | len(payload)) + payload)

    def pump(self, timeout):
        self.conn.fill(timeout)
        while len(self.conn.buf) >= 8:
            first, word = struct.unpack(">II", self.conn.buf[:8])
            length = word & 0xFFFFFF
            if len(self.conn.buf) < 8 + length:
                return
            payload = self.conn.take(8 + length)[8:]
            if not first & 0x80000000:
                # Data from the client: only its stdin stream sends any; FIN ends it.
                if first == self.streams.get("stdin"):
                    self.stdin += payload
                    self.stdin_closed = self.stdin_closed or bool(word >> 24 & 1)
                continue
            frame_type = first & 0xFFFF
            if frame_type == SYN_STREAM:
                stream_id = struct.unpack(">I", payload[:4])[0] & 0x7FFFFFFF
                headers = self.parse_headers(payload[10:])
                self.streams[headers.get("streamtype", "")] = stream_id
                if headers.get("streamtype") == "stdin" and word >> 24 & 1:
                    self.stdin_closed = True
                # SYN_REPLY carries a header block of its own (empty).
                self.control(SYN_REPLY, 0, struct.pack(">I", stream_id) + self.headers_block([]))
            elif frame_type == PING:
                self.control(PING, 0, payload)
            elif frame_type == GOAWAY:
                self.conn.eof = True
            elif frame_type == HEADERS:
                self.parse_headers(payload[4:])  # keeps the shared inflate state in step

    def data(self, stream_id, payload, fin=False):
        self.conn.send(struct.pack(">II", stream_id & 0x7FFFFFFF, ((1 if fin else 0) << 24) | len(payload))
                       + payload)

    def send(self, channel, data):
        self.data(self.streams[channel], data)

    def finish(self, exec_status):
        self.data(self.streams["stdout"], b"", fin=True)
        self.data(self.streams["stderr"], b"", fin=True)
        self.data(self.streams["error"], json.dumps(exec_status).encode(), fin=True)
        deadline = time.monotonic() + 5
        while not self.conn.eof and time.monotonic() < deadline:
            self.pump(0.2)


def main():
    scenario_path, log_path, port_file, cert, key = sys.argv[1:6]
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    tls.load_cert_chain(cert, key)
    # The handshake happens in the request thread, on the first read.
    server.socket = tls.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    server.daemon_threads = True
    server.scenario = load_scenario(scenario_path)
    server.log_path = log_path
    with open(port_file + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(port_file + ".tmp", port_file)
    server.serve_forever()


if __name__ == "__main__":
    main()
