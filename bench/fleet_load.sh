#!/bin/bash
# The fleet load: COUNT generated bundles (bench/fleet_bundles.py, copies of
# the samples with their own node names and spread intervals) analyzed into
# one fleet database, with every CPU and with one worker; wall time,
# bundles per second and the process's peak resident memory. Then the fleet
# summary's own time.
#
# usage: bench/fleet_load.sh [GPUFORENSICS] [COUNT]   (python3, zstd, GNU time)
set -euo pipefail
cd "$(dirname "$0")/.."
gpuforensics=$(realpath "${1:-build/gpuforensics}")
count=${2:-500}
work=$(mktemp -d /tmp/gpuf-bench-fleet-XXXXXX)
trap 'rm -rf "$work"' EXIT
python3 bench/fleet_bundles.py "$work/bundles" "$count" >/dev/null
echo "fleet load of $count bundles ($(du -sh "$work/bundles" | cut -f1)), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for jobs in 0 1; do
  /usr/bin/time -f "%e %M %U %S" -o "$work/time" \
    "$gpuforensics" analyze --jobs "$jobs" --db "$work/fleet.sqlite" "$work"/bundles/*.tar.zst >/dev/null 2>"$work/err" ||
    { cat "$work/err" >&2; exit 1; }
  read -r wall rss user sys <"$work/time"
  awk -v j="$jobs" -v n="$count" -v w="$wall" -v r="$rss" -v c="$user $sys" -v cpus="$(nproc)" 'BEGIN {
    split(c, t, " ")
    printf "  --jobs %s: %.1f s wall, %.1f bundles/s, %.1f ms CPU per bundle, peak RSS %.0f MiB\n",
           (j == 0 ? j " (" cpus ")" : j), w, n / w, 1000 * (t[1] + t[2]) / n, r / 1024 }'
done
echo "  fleet database: $(du -h "$work/fleet.sqlite" | cut -f1)"
/usr/bin/time -f "%e %M" -o "$work/time" "$gpuforensics" fleet "$work/fleet.sqlite" >"$work/summary"
read -r wall rss <"$work/time"
echo "  gpuforensics fleet: $wall s, peak RSS $((rss / 1024)) MiB"
grep -E "^  plugin_start_after_(persistenced|driver_loaded) " "$work/summary"
