#!/usr/bin/env python3
"""deploy_manifests_test.py SOURCE_DIR

Every manifest in deploy/kubernetes/ is one kubectl accepts, checked with
kubectl alone, offline (a kubeconfig pointing at a closed port; nothing can
reach a cluster):

  - `kubectl label --local -o json` parses each file (YAML syntax, apiVersion
    and kind) without typing it;
  - `kubectl set serviceaccount --local -o json` decodes each object with a pod template
    into its Go type: a wrong type (privileged: "yes") fails there, and a
    field the type does not have is silently dropped, so every field of the
    untyped object must still be in the typed one (hostPIDD: true).

kubectl 1.20 (Debian's kubernetes-client) offers no offline schema check for
other kinds: a Namespace or ResourceQuota gets the parse and a check of its
kind only. The test then breaks a copy of the collect Job three ways and
requires each to be refused, so a check that passes everything fails here.
KUBECTL names the kubectl to use (default: the one on PATH); without one the
test is skipped (77).
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

POD_TEMPLATE_KINDS = {"Job", "DaemonSet", "Deployment", "StatefulSet", "Pod"}
OTHER_KINDS = {"Namespace", "ResourceQuota", "ClusterRole", "Role"}
KUBECONFIG = """apiVersion: v1
kind: Config
clusters: [{name: none, cluster: {server: "https://127.0.0.1:9"}}]
users: [{name: none, user: {token: none}}]
contexts: [{name: none, context: {cluster: none, user: none}}]
current-context: none
"""


class Refused(Exception):
    pass


def kubectl(args, env):
    run = subprocess.run([KUBECTL] + args, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    if run.returncode != 0:
        raise Refused(run.stderr.strip().splitlines()[-1] if run.stderr.strip() else f"exit {run.returncode}")
    return run.stdout


def dropped(raw, typed, path=""):
    """The first field path of `raw` that `typed` lacks or holds differently, or None."""
    if isinstance(raw, dict):
        if not isinstance(typed, dict):
            return path
        for key, value in raw.items():
            if key not in typed:
                return f"{path}.{key}"
            found = dropped(value, typed[key], f"{path}.{key}")
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


def json_values(text):
    """The objects kubectl printed: a List (kubectl 1.20) or one after another (newer)."""
    decoder = json.JSONDecoder()
    values, at = [], 0
    while text[at:].strip():
        at += len(text[at:]) - len(text[at:].lstrip())
        value, at = decoder.raw_decode(text, at)
        values.extend(value["items"] if value.get("kind") == "List" else [value])
    return values


def check_file(path, tmp, env):
    """Raises Refused with the reason when kubectl does not accept the file."""
    objects = json_values(kubectl(["label", "--local", "-f", path, "gpuf-validated=true", "-o", "json"], env))
    for obj in objects:
        kind = obj.get("kind")
        name = obj.get("metadata", {}).get("name")
        if kind in OTHER_KINDS:
            continue
        if kind not in POD_TEMPLATE_KINDS:
            raise Refused(f"{kind} {name}: a kind this test cannot check")
        one = os.path.join(tmp, "object.json")
        with open(one, "w") as f:
            json.dump(obj, f)
        typed = json.loads(kubectl(["set", "serviceaccount", "--local", "-f", one, "gpuf-validated", "-o", "json"], env))
        field = dropped(obj, typed)
        if field:
            raise Refused(f"{kind} {name}: field {field} is not part of {obj.get('apiVersion')} {kind}")
    return len(objects)


def main():
    src = sys.argv[1]
    manifests_dir = os.path.join(src, "deploy", "kubernetes")
    manifests = sorted(os.path.join(manifests_dir, n) for n in os.listdir(manifests_dir) if n.endswith(".yaml"))
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, KUBECONFIG=os.path.join(tmp, "kubeconfig"))
        with open(env["KUBECONFIG"], "w") as f:
            f.write(KUBECONFIG)
        for path in manifests:
            try:
                count = check_file(path, tmp, env)
                print(f"ok: {os.path.relpath(path, src)} ({count} objects)")
            except Refused as e:
                print(f"FAILED: {os.path.relpath(path, src)}: {e}", file=sys.stderr)
                failures += 1

        job = open(os.path.join(manifests_dir, "gpuforensics-collect-job.yaml")).read()
        broken = {
            "unknown field": job.replace("      hostPID: true\n", "      hostPIDD: true\n"),
            "wrong type": job.replace("privileged: true", 'privileged: "yes"'),
            "YAML syntax": job.replace("  backoffLimit: 0\n", " backoffLimit: 0\n"),
        }
        for what, text in broken.items():
            assert text != job, what
            path = os.path.join(tmp, "broken.yaml")
            with open(path, "w") as f:
                f.write(text)
            try:
                check_file(path, tmp, env)
                print(f"FAILED: a Job with a {what} error was accepted", file=sys.stderr)
                failures += 1
            except Refused as e:
                print(f"ok: a Job with a {what} error is refused: {str(e)[:160]}")
    return 1 if failures else 0


if __name__ == "__main__":
    KUBECTL = os.environ.get("KUBECTL") or shutil.which("kubectl")
    if not KUBECTL:
        print("deploy_manifests_test: no kubectl (Debian: kubernetes-client): skipped", file=sys.stderr)
        sys.exit(77)
    sys.exit(main())
