"""Kubernetes API objects and kubelet-side files of a fake node."""
import json

from .clock import hexid, utc_rfc3339


def node_json(host):
    clk = host.clock
    k = host.cfg.get("k8s", {})
    capacity = {"cpu": str(host.cpus), "ephemeral-storage": "1055763304Ki",
                "hugepages-1Gi": "0", "hugepages-2Mi": "0",
                "memory": "%dKi" % host.memory_kib, "pods": str(k.get("max_pods", 110))}
    alloc = {"cpu": str(host.cpus - 1) + "700m" if False else "%dm" % (host.cpus * 1000 - 300),
             "ephemeral-storage": "972991057538", "hugepages-1Gi": "0",
             "hugepages-2Mi": "0", "memory": "%dKi" % (host.memory_kib - 2359296),
             "pods": str(k.get("max_pods", 110))}
    for key, val in k.get("capacity", {}).items():
        capacity[key] = val
    for key, val in k.get("allocatable", {}).items():
        alloc[key] = val
    capacity = dict(sorted(capacity.items()))
    alloc = dict(sorted(alloc.items()))
    boot = host.boots[-1]
    created = utc_rfc3339(host.node_created_us)
    ready_since = utc_rfc3339(host.kubelet_last_start_us + 11_000_000)
    hb = utc_rfc3339(host.collect_us - 23_000_000)
    labels = {"beta.kubernetes.io/arch": "amd64", "beta.kubernetes.io/os": "linux",
              "kubernetes.io/arch": "amd64", "kubernetes.io/hostname": host.node_name,
              "kubernetes.io/os": "linux"}
    labels.update(k.get("labels", {}))
    annotations = {"node.alpha.kubernetes.io/ttl": "0",
                   "volumes.kubernetes.io/controller-managed-attach-detach": "true"}
    annotations.update(k.get("annotations", {}))
    conds = []
    for typ, reason, msg in (
            ("MemoryPressure", "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
            ("DiskPressure", "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
            ("PIDPressure", "KubeletHasSufficientPID", "kubelet has sufficient PID available")):
        conds.append({"lastHeartbeatTime": hb, "lastTransitionTime": created,
                      "message": msg, "reason": reason, "status": "False", "type": typ})
    conds.append({"lastHeartbeatTime": hb, "lastTransitionTime": ready_since,
                  "message": "kubelet is posting ready status", "reason": "KubeletReady",
                  "status": "True", "type": "Ready"})
    images = [{"names": [host.registry_host + "/" + "pause@sha256:" + hexid("pause"),
                         host.pause_image], "sizeBytes": 319924}]
    for p in host.pods:
        for s in p.specs.values():
            images.append({"names": [s.image.split(":")[0] + "@sha256:" + hexid(s.image, "digest"),
                                     s.image], "sizeBytes": 40000000 + int(hexid(s.image, n=6), 16)})
    node = {
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"annotations": annotations, "creationTimestamp": created,
                     "labels": dict(sorted(labels.items())), "name": host.node_name,
                     "resourceVersion": str(90000000 + int(hexid(host.seed, "rv", n=6), 16)),
                     "uid": host.uuid("node")},
        "spec": {"podCIDR": host.pod_cidr, "podCIDRs": [host.pod_cidr]},
        "status": {
            "addresses": [{"address": host.ip, "type": "InternalIP"},
                          {"address": host.node_name, "type": "Hostname"}],
            "allocatable": alloc, "capacity": capacity, "conditions": conds,
            "daemonEndpoints": {"kubeletEndpoint": {"Port": 10250}},
            "images": images,
            "nodeInfo": {"architecture": "amd64", "bootID": boot.dashed_id,
                         "containerRuntimeVersion": "containerd://" + host.containerd_version.lstrip("v"),
                         "kernelVersion": host.profile["kernel"],
                         "kubeProxyVersion": host.kubelet_version,
                         "kubeletVersion": host.kubelet_version,
                         "machineID": host.machine_id,
                         "operatingSystem": "linux",
                         "osImage": host.profile["pretty"],
                         "systemUUID": host.uuid("system").upper()}}}
    if k.get("provider_id"):
        node["spec"]["providerID"] = k["provider_id"]
    return json.dumps(node, indent=4) + "\n"


def pod_object(host, pod):
    """The API view of one pod (latest sandbox/containers)."""
    cs = [c for c in host.containers if c.pod is pod and not c.removed]
    sb = max(pod.sandboxes, key=lambda s: s.created_ns)
    statuses = []
    spec_containers = []
    for name, sp in pod.specs.items():
        mine = sorted([c for c in cs if c.spec is sp], key=lambda c: -c.created_ns)
        env = [{"name": k, "value": v} for k, v in sp.env]
        for k, _ in sp.secret_env:
            env.append({"name": k, "valueFrom": {"secretKeyRef": {
                "key": k.lower().replace("_", "-"), "name": "registry-mirror-credentials"}}})
        c_spec = {"name": name, "image": sp.image, "imagePullPolicy": "IfNotPresent",
                  "resources": sp.resources, "terminationMessagePath": "/dev/termination-log",
                  "terminationMessagePolicy": "File",
                  "volumeMounts": [{"mountPath": m[0], "name": m[0].strip("/").replace("/", "-")[-40:] or "root"}
                                   for m in sp.mounts]}
        if sp.args:
            c_spec["args"] = sp.args
        if sp.command:
            c_spec["command"] = sp.command
        if env:
            c_spec["env"] = env
        if sp.privileged:
            c_spec["securityContext"] = {"privileged": True}
        elif sp.caps_drop_all:
            c_spec["securityContext"] = {"allowPrivilegeEscalation": False,
                                         "capabilities": {"drop": ["ALL"]}}
        spec_containers.append(c_spec)
        if not mine:
            continue
        cur = mine[0]
        st = {"containerID": "containerd://" + cur.id, "image": sp.image,
              "imageID": sp.image.split(":")[0] + "@sha256:" + hexid(sp.image, "digest"),
              "name": name, "ready": cur.running(),
              "restartCount": cur.attempt, "started": cur.running()}
        if cur.running():
            st["state"] = {"running": {"startedAt": utc_rfc3339(cur.started_ns // 1000)}}
        elif cur.reason == "StartError":
            st["state"] = {"waiting": {"message": "back-off 5m0s restarting failed container=%s pod=%s_%s(%s)"
                                       % (name, pod.name, pod.namespace, pod.uid),
                                       "reason": "CrashLoopBackOff"}}
        else:
            st["state"] = {"terminated": {"containerID": "containerd://" + cur.id,
                                          "exitCode": cur.exit_code,
                                          "finishedAt": utc_rfc3339(cur.finished_ns // 1000),
                                          "reason": cur.reason or "Error",
                                          "startedAt": utc_rfc3339(cur.started_ns // 1000)}}
        if len(mine) > 1 and not mine[1].running():
            prev = mine[1]
            st["lastState"] = {"terminated": {
                "containerID": "containerd://" + prev.id, "exitCode": prev.exit_code,
                "finishedAt": utc_rfc3339((prev.finished_ns or prev.created_ns) // 1000),
                "message": prev.message, "reason": prev.reason or "Error",
                "startedAt": utc_rfc3339((prev.started_ns or prev.created_ns) // 1000)}}
            if not prev.message:
                del st["lastState"]["terminated"]["message"]
        else:
            st["lastState"] = {}
        statuses.append(st)
    ready = all(s["ready"] for s in statuses) and statuses
    start_us = min(s.created_ns for s in pod.sandboxes) // 1000
    meta = {"creationTimestamp": utc_rfc3339(host.pod_created_us(pod)),
            "labels": pod.labels, "name": pod.name, "namespace": pod.namespace,
            "resourceVersion": str(80000000 + int(hexid(pod.uid, "rv", n=6), 16)),
            "uid": pod.uid if pod.kind != "static" else host.uuid("mirror", pod.uid)}
    if pod.kind == "static":
        meta["annotations"] = {"kubernetes.io/config.hash": pod.uid,
                               "kubernetes.io/config.mirror": pod.uid,
                               "kubernetes.io/config.seen": host.clock.rfc3339nano(
                                   host.kubelet_last_start_us * 1000 + 612345000),
                               "kubernetes.io/config.source": "file"}
        meta["ownerReferences"] = [{"apiVersion": "v1", "controller": True, "kind": "Node",
                                    "name": host.node_name, "uid": host.uuid("node")}]
    elif pod.owner:
        meta["generateName"] = pod.owner[1] + "-"
        meta["ownerReferences"] = [{"apiVersion": "apps/v1" if pod.owner[0] != "Job" else "batch/v1",
                                    "blockOwnerDeletion": True, "controller": True,
                                    "kind": pod.owner[0], "name": pod.owner[1],
                                    "uid": host.uuid("owner", pod.owner[1])}]
    spec = {"containers": spec_containers, "dnsPolicy": "ClusterFirst",
            "enableServiceLinks": True, "nodeName": host.node_name,
            "preemptionPolicy": "PreemptLowerPriority", "priority": 0,
            "restartPolicy": "Always", "schedulerName": "default-scheduler",
            "securityContext": {}, "terminationGracePeriodSeconds": 30,
            "tolerations": [{"effect": "NoExecute", "operator": "Exists"}]}
    if pod.host_network:
        spec["hostNetwork"] = True
    if pod.kind in ("static", "daemonset"):
        spec["priority"] = 2000001000
        spec["priorityClassName"] = "system-node-critical"
    if pod.runtime_handler:
        spec["runtimeClassName"] = pod.runtime_handler
    if pod.kind != "static":
        spec["serviceAccount"] = spec["serviceAccountName"] = "default"
    phase = "Running" if any(c.running() for c in cs) else "Pending"
    conds = [{"lastProbeTime": None, "lastTransitionTime": utc_rfc3339(sb.created_ns // 1000 + 900000),
              "status": "True", "type": "PodReadyToStartContainers"},
             {"lastProbeTime": None, "lastTransitionTime": utc_rfc3339(start_us),
              "status": "True", "type": "Initialized"},
             {"lastProbeTime": None, "lastTransitionTime": utc_rfc3339(sb.created_ns // 1000 + 1400000),
              "status": "True" if ready else "False", "type": "Ready"},
             {"lastProbeTime": None, "lastTransitionTime": utc_rfc3339(sb.created_ns // 1000 + 1400000),
              "status": "True" if ready else "False", "type": "ContainersReady"},
             {"lastProbeTime": None, "lastTransitionTime": utc_rfc3339(host.pod_created_us(pod)),
              "status": "True", "type": "PodScheduled"}]
    if not ready:
        for c in conds[2:4]:
            c["message"] = "containers with unready status: [%s]" % " ".join(pod.specs)
            c["reason"] = "ContainersNotReady"
    status = {"conditions": conds, "containerStatuses": statuses,
              "hostIP": host.ip, "hostIPs": [{"ip": host.ip}], "phase": phase,
              "podIP": host.ip if pod.host_network else host.pod_ip(pod),
              "podIPs": [{"ip": host.ip if pod.host_network else host.pod_ip(pod)}],
              "qosClass": {"besteffort": "BestEffort", "burstable": "Burstable",
                           "guaranteed": "Guaranteed"}[pod.qos],
              "startTime": utc_rfc3339(start_us)}
    return {"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec,
            "status": status}


def pods_list_json(host):
    items = [pod_object(host, p) for p in sorted(host.pods, key=lambda p: (p.namespace, p.name))
             if p.api_visible]
    return json.dumps({"apiVersion": "v1", "items": items, "kind": "List",
                       "metadata": {"resourceVersion": ""}}, indent=4) + "\n"


EVENT_TTL_US = 3600 * 1_000_000  # the API server's default --event-ttl: older events are gone


def node_event(host, n, reason, message, at_us, kind="Normal"):
    when = utc_rfc3339(at_us)
    return {"apiVersion": "v1", "count": 1, "eventTime": None, "firstTimestamp": when,
            "involvedObject": {"kind": "Node", "name": host.node_name, "uid": host.node_name},
            "kind": "Event", "lastTimestamp": when, "message": message,
            "metadata": {"creationTimestamp": when, "name": "%s.%s" % (host.node_name, hexid(host.seed, "event", n, n=16)),
                         "namespace": "default", "resourceVersion": str(4100000 + n),
                         "uid": hexid(host.seed, "event-uid", n, n=32)},
            "reason": reason, "reportingComponent": "kubelet", "reportingInstance": host.node_name,
            "source": {"component": "kubelet", "host": host.node_name}, "type": kind}


def node_events_json(host):
    """`kubectl get events -A --field-selector involvedObject.kind=Node,...`: what the
    kubelet said of the Node when it last started, as far as the event TTL keeps it."""
    start = host.kubelet_last_start_us
    said = []
    if start is not None:
        said = [("Starting", "Starting kubelet.", 600_000, "Normal"),
                ("NodeAllocatableEnforced", "Updated Node Allocatable limit across pods", 900_000, "Normal")]
        if len(host.boots) > 1:
            said.append(("Rebooted", "Node %s has been rebooted, boot id: %s"
                         % (host.node_name, host.boots[-1].dashed_id), 950_000, "Warning"))
        said.append(("NodeReady", "Node %s status is now: NodeReady" % host.node_name, 11_000_000, "Normal"))
    kept = [node_event(host, n, reason, message, start + after, kind)
            for n, (reason, message, after, kind) in enumerate(said)
            if start + after >= host.collect_us - EVENT_TTL_US]
    return json.dumps({"apiVersion": "v1", "items": kept, "kind": "List",
                       "metadata": {"resourceVersion": ""}}, indent=4) + "\n"


def checkpoint_json(host, registered):
    data = {"Data": {"PodDeviceEntries": host.cfg.get("k8s", {}).get("pod_device_entries"),
                     "RegisteredDevices": registered},
            "Checksum": int(hexid(host.seed, "ckpt", json.dumps(registered), n=8), 16)}
    return json.dumps(data, separators=(",", ":"))


def kubelet_config(host, layout=None):
    if layout is not None and layout.id == "openshift":
        # openshift/machine-config-operator templates/worker/01-worker-kubelet/_base/files/kubelet.yaml
        return """kind: KubeletConfiguration
apiVersion: kubelet.config.k8s.io/v1beta1
authentication:
  x509:
    clientCAFile: /etc/kubernetes/kubelet-ca.crt
  anonymous:
    enabled: false
cgroupDriver: systemd
clusterDNS:
  - {dns}
clusterDomain: cluster.local
containerLogMaxSize: 50Mi
maxPods: 250
kubeAPIQPS: 50
kubeAPIBurst: 100
rotateCertificates: true
serializeImagePulls: false
staticPodPath: /etc/kubernetes/manifests
systemReserved:
  cpu: 500m
  memory: 1Gi
  ephemeral-storage: 1Gi
serverTLSBootstrap: true
""".format(dns=host.dns_ip)
    if layout is not None and layout.id == "eks-al2023":
        # nodeadm writes JSON (nodeadm/internal/kubelet/config.go).
        return json.dumps({
            "apiVersion": "kubelet.config.k8s.io/v1beta1", "kind": "KubeletConfiguration",
            "address": "0.0.0.0", "authentication": {"anonymous": {"enabled": False},
                                                     "webhook": {"cacheTTL": "2m0s", "enabled": True},
                                                     "x509": {"clientCAFile": "/etc/kubernetes/pki/ca.crt"}},
            "authorization": {"mode": "Webhook"}, "cgroupDriver": host.cgroup_driver,
            "cgroupRoot": "/", "clusterDNS": [host.dns_ip], "clusterDomain": "cluster.local",
            "containerRuntimeEndpoint": "unix:///run/containerd/containerd.sock",
            "featureGates": {"RotateKubeletServerCertificate": True}, "hairpinMode": "hairpin-veth",
            "kubeReserved": {"cpu": "110m", "ephemeral-storage": "1Gi", "memory": "2829Mi"},
            "maxPods": host.cfg.get("k8s", {}).get("max_pods", 110),
            "providerID": host.cfg.get("k8s", {}).get("provider_id", ""),
            "serializeImagePulls": False, "serverTLSBootstrap": True,
            "systemReservedCgroup": "/system", "kubeReservedCgroup": "/runtime",
            "tlsCipherSuites": ["TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"]},
            indent=4) + "\n"
    return """apiVersion: kubelet.config.k8s.io/v1beta1
authentication:
  anonymous:
    enabled: false
  webhook:
    cacheTTL: 0s
    enabled: true
  x509:
    clientCAFile: /etc/kubernetes/pki/ca.crt
authorization:
  mode: Webhook
  webhook:
    cacheAuthorizedTTL: 0s
    cacheUnauthorizedTTL: 0s
cgroupDriver: {driver}
clusterDNS:
- {dns}
clusterDomain: cluster.local
containerRuntimeEndpoint: unix:///run/containerd/containerd.sock
cpuManagerReconcilePeriod: 0s
evictionPressureTransitionPeriod: 0s
fileCheckFrequency: 0s
healthzBindAddress: 127.0.0.1
healthzPort: 10248
httpCheckFrequency: 0s
imageMinimumGCAge: 0s
kind: KubeletConfiguration
logging:
  flushFrequency: 0
  options:
    json:
      infoBufferSize: "0"
  verbosity: {verbosity}
maxPods: {max_pods}
memorySwap: {{}}
nodeStatusReportFrequency: 0s
nodeStatusUpdateFrequency: 0s
resolvConf: {resolv}
rotateCertificates: true
runtimeRequestTimeout: 0s
shutdownGracePeriod: 0s
shutdownGracePeriodCriticalPods: 0s
staticPodPath: /etc/kubernetes/manifests
streamingConnectionIdleTimeout: 0s
syncFrequency: 0s
volumeStatsAggPeriod: 0s
""".format(driver=host.cgroup_driver, dns=host.dns_ip, verbosity=host.kubelet_verbosity,
           max_pods=host.cfg.get("k8s", {}).get("max_pods", 110),
           resolv="/run/systemd/resolve/resolv.conf" if host.profile["hostname_style"] == "dns"
           else "/etc/resolv.conf")


def kubeconfig(host):
    return """apiVersion: v1
clusters:
- cluster:
    certificate-authority-data: LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJkekNDQVIyZ0F3SUJBZ0lCQURBS0JnZ3Foa2pPUFFRREFqQWpNU0V3SHdZRFZRUUREQmhyTTNNdGMyVnkKZG1WeUxXTmhRREUyT0RBd01EQXdNREF3SGhjTk1qUXdNVEF4TURBd01EQXdXaGNOTXpRd01UQXhNREF3TURBdwpXakFqTVNFd0h3WURWUVFEREJock0zTXRjMlZ5ZG1WeUxXTmhRREUyT0RBd01EQXdNREF3V1RBVEJnY3Foa2pPClBRSUJCZ2dxaGtqT1BRTUJCd05DQUFUZmFrZWZha2VmYWtlZmFrZWZha2VmYWtlZmFrZWZha2VmYWtlZmFrZWYKLS0tLS1FTkQgQ0VSVElGSUNBVEUtLS0tLQo=
    server: https://{api}:6443
  name: kubernetes
contexts:
- context:
    cluster: kubernetes
    user: system:node:{node}
  name: system:node:{node}@kubernetes
current-context: system:node:{node}@kubernetes
kind: Config
preferences: {{}}
users:
- name: system:node:{node}
  user:
    token: {token}
""".format(api=host.apiserver_ip, node=host.node_name, token=host.canary("kubeconfig-token"))
