#!/usr/bin/env python3
"""fleet_bundles.py OUT_DIR [COUNT] [SAMPLES_DIR]

Generates COUNT (default 500) bundles for the fleet benchmark
(bench/fleet_load.sh): copies of samples/*.tar.zst taken in turn, each with
its own node name (manifest host.node_name and hostname) and its
nvidia-persistenced journal moved by -5..+15 s, so the fleet's
plugin_start_after_persistenced intervals spread as a real fleet's would.
Rewritten members get their manifest size and sha256 updated: every bundle
passes `gpuforensics verify`. The same arguments give the same bundles.
Needs the zstd command.
"""
import hashlib
import io
import json
import os
import random
import subprocess
import sys
import tarfile


def read_bundle(path):
    raw = subprocess.run(["zstd", "-dc", path], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(raw)) as tar:
        return [(m, tar.extractfile(m).read() if m.isfile() else None) for m in tar.getmembers()]


def write_bundle(path, members):
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for info, data in members:
            info.size = len(data) if data is not None else 0
            tar.addfile(info, io.BytesIO(data) if data is not None else None)
    packed = subprocess.run(["zstd", "-q", "-3", "-c"], input=buffer.getvalue(), check=True,
                            capture_output=True).stdout
    with open(path, "wb") as f:
        f.write(packed)


def shift_journal(text, seconds):
    """Moves every entry of a `journalctl -o json` capture by `seconds`."""
    lines = []
    for line in text.decode().splitlines():
        entry = json.loads(line)
        for field in ("__REALTIME_TIMESTAMP", "__MONOTONIC_TIMESTAMP"):
            if field in entry:
                entry[field] = str(int(entry[field]) + int(seconds * 1e6))
        lines.append(json.dumps(entry, separators=(",", ":")))
    return ("\n".join(lines) + "\n").encode() if lines else text


def make_variant(members, index, rng):
    manifest_info, manifest_raw = members[0]
    assert manifest_info.name == "manifest.json"
    manifest = json.loads(manifest_raw)
    node = f"{manifest['host'].get('node_name') or 'node'}-{index:04d}"
    manifest["host"]["node_name"] = node
    manifest["host"]["hostname"] = node
    shift = rng.uniform(-5.0, 15.0)
    data = {info.name: body for info, body in members}
    for artifact in manifest["artifacts"]:
        if artifact["name"] != "journal.nvidia_persistenced":
            continue
        for output in artifact["outputs"]:
            if output["stream"] != "stdout" or not data.get(output["member"]):
                continue
            body = shift_journal(data[output["member"]], shift)
            data[output["member"]] = body
            output["size_bytes"] = len(body)
            output["sha256"] = hashlib.sha256(body).hexdigest()
    data["manifest.json"] = json.dumps(manifest, indent=2).encode() + b"\n"
    return node, [(info, data[info.name]) for info, _ in members]


def main():
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    out = sys.argv[1]
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    samples = sys.argv[3] if len(sys.argv) > 3 else os.path.join(os.path.dirname(__file__), "..", "samples")
    sources = sorted(os.path.join(samples, n) for n in os.listdir(samples) if n.endswith(".tar.zst"))
    bundles = [read_bundle(path) for path in sources]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(12)
    for index in range(count):
        node, members = make_variant(bundles[index % len(bundles)], index, rng)
        write_bundle(os.path.join(out, f"{node}.tar.zst"), members)
    print(f"fleet_bundles: {count} bundles from {len(sources)} samples in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
