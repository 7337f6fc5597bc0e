#!/bin/bash
# Cost of `gpuforensics watch`'s check on a healthy fake node (the scenario
# kit's `healthy`): wall and CPU time per check, averaged over N runs.
# A broken node pays for a full collect instead, once per incident.
#
# usage: bench/watch_check.sh [GPUFORENSICS] [N]   (root; python3; systemd-journal-remote)
set -euo pipefail
cd "$(dirname "$0")/.."
gpuforensics=$(realpath "${1:-build/gpuforensics}")
runs=${2:-200}
work=$(mktemp -d /tmp/gpuf-bench-watch-XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 samples/tools/build_fakehost.py samples/scenarios/healthy "$work/node" >/dev/null
export PATH="$work/node/bin:$work/node/sysbin"
TIMEFORMAT="%R %U %S"
{ time (for _ in $(seq "$runs"); do
    "$gpuforensics" watch --root "$work/node/root" --out-dir "$work/out" >/dev/null
  done); } 2>"$work/time"
read -r real user sys <"$work/time"
awk -v n="$runs" -v r="$real" -v u="$user" -v s="$sys" 'BEGIN {
  printf "watch check, healthy node, %d runs: %.1f ms wall, %.1f ms CPU (user+sys) per check\n",
         n, 1000 * r / n, 1000 * (u + s) / n }'
