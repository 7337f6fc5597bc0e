#!/bin/sh
# Throughput and peak memory of `gpuforensics redact` on a generated bundle
# with one large device-plugin log (every line holds a node name, an IPv4
# address and a MAC), against a floor: `zstd -dc | sed -E` replacing the same
# three things, which knows nothing of consistency, JSON or manifests.
#
#   bench/redact.sh [MEGABYTES] [GPUFORENSICS]     # default 256, build/gpuforensics
#
# Prints MB/s of uncompressed member bytes and the peak RSS of redact. The
# machine's other load shows in the figures: run it a few times.
set -eu
mb=${1:-256}
gpuf=${2:-build/gpuforensics}
work=$(mktemp -d /tmp/gpuf-bench-redact-XXXXXX)
trap 'rm -rf "$work"' EXIT

python3 - "$work" "$mb" <<'PY'
import hashlib, io, json, os, sys, tarfile
work, mb = sys.argv[1], int(sys.argv[2])
member = "artifacts/0001-plugin.log.content"
os.makedirs(os.path.join(work, "artifacts"))
path = os.path.join(work, member)
h, size, n = hashlib.sha256(), 0, 0
with open(path, "wb") as f:
    while size < mb * 1000000:
        chunk = bytearray()
        for _ in range(10000):
            chunk += (b'2026-11-18T11:18:17.%09d+08:00 stderr F I1118 03:18:17.378842       1 server.go:%d] '
                      b'"Connected to kubelet" node="gpu-bench-3" peer="10.9.%d.%d" mac="0c:42:a1:00:%02x:%02x" '
                      b'resource="nvidia.com/gpu" devices=8\n'
                      % (n % 10**9, n % 900 + 100, n // 16 % 16, n % 16, n // 16 % 16, n % 16))
            n += 1
        f.write(chunk); h.update(chunk); size += len(chunk)
inst = "/var/log/pods/kube-system_nvidia-device-plugin-gpu-bench-3_uid/nvidia-device-plugin-ctr/0.log"
manifest = {"format": "gpuforensics-bundle", "format_version": 1,
            "tool": {"name": "gpuforensics", "version": "0.1.0"},
            "host": {"hostname": "gpu-bench-3", "node_name": "gpu-bench-3", "machine_id": None, "boot_id": None},
            "collection": {"started_at_unix_ns": 1763435897000000000, "ended_at_unix_ns": 1763435897000000000,
                           "complete": True},
            "options": {"root": "/"},
            "artifacts": [{"name": "plugin.log", "instance": inst, "kind": "file", "argv": [], "path": inst,
                           "context": "host", "phase": 1, "started_at_unix_ns": 1763435897000000000,
                           "ended_at_unix_ns": 1763435897000000000, "duration_ns": 0, "status": "ok",
                           "outputs": [{"stream": "content", "member": member, "size_bytes": size,
                                        "sha256": h.hexdigest(), "truncated": False, "dropped_bytes": 0}]}]}
with open(os.path.join(work, "manifest.json"), "w") as f:
    json.dump(manifest, f)
PY
(cd "$work" && tar --format=pax --owner=0 --group=0 -cf - manifest.json artifacts | zstd -q -3 -T0 -o bundle.tar.zst)
rm -rf "$work/artifacts"

/usr/bin/time -f '%e %M %U %S' -o "$work/time" "$gpuf" redact "$work/bundle.tar.zst" "$work/out.tar.zst" 2>/dev/null >/dev/null
read -r seconds rss_kib user_s sys_s <"$work/time"
/usr/bin/time -f '%e %U %S' -o "$work/time.sed" sh -c "zstd -q -dc '$work/bundle.tar.zst' | sed -E \
  -e 's/[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}/192.0.2.1/g' \
  -e 's/[0-9a-fA-F]{2}(:[0-9a-fA-F]{2}){5}/02:00:00:00:00:01/g' \
  -e 's/gpu-bench-3/node-0001/g' >/dev/null"
read -r sed_seconds sed_user sed_sys <"$work/time.sed"
"$gpuf" verify "$work/out.tar.zst" >/dev/null
# CPU seconds (user + system) say more than wall time on a busy machine.
awk -v mb="$mb" -v s="$seconds" -v rss="$rss_kib" -v cpu="$user_s + $sys_s" -v f="$sed_seconds" \
    -v fcpu="$sed_user + $sed_sys" 'BEGIN {
  split(cpu, a, " [+] "); c = a[1] + a[2]; split(fcpu, b, " [+] "); fc = b[1] + b[2]
  printf "redact:  %d MB in %.2f s wall = %.1f MB/s; %.2f CPU s = %.1f MB per CPU s; peak RSS %.0f MiB\n", mb, s, mb / s, c, mb / c, rss / 1024
  printf "sed -E:  %d MB in %.2f s wall = %.1f MB/s (floor: no consistency, no structure, one pass)\n", mb, f, mb / f }'
