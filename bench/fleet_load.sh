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
  rm -f "$work/fleet.sqlite"
  status=0
  /usr/bin/time -f "%e %M %U %S" -o "$work/time" \
    "$gpuforensics" analyze --jobs "$jobs" --db "$work/fleet.sqlite" "$work"/bundles/*.tar.zst >/dev/null 2>"$work/err" ||
    status=$?
  # 1 is the fleet's findings (the samples have them), not a failure.
  if [ "$status" -gt 1 ]; then cat "$work/err" >&2; exit 1; fi
  # GNU time puts "Command exited with non-zero status 1" first then.
  read -r wall rss user sys < <(tail -n 1 "$work/time")
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

# The questions people ask of a fleet, each timed on its own (sqlite3 shell,
# the fleet database as analyze wrote it).
ask() {
  local what=$1 sql=$2 start end rows
  start=$(date +%s.%N)
  rows=$(sqlite3 "$work/fleet.sqlite" "$sql" | wc -l)
  end=$(date +%s.%N)
  awk -v w="$what" -v s="$start" -v e="$end" -v r="$rows" 'BEGIN { printf "  %s: %.3f s, %d rows\n", w, e - s, r }'
}
ask "bundles with each finding, by driver version" \
  "SELECT f.rule_id, v.version, count(DISTINCT f.fleet_bundle_id) FROM fleet_findings f
   JOIN fleet_versions v ON v.fleet_bundle_id = f.fleet_bundle_id AND v.component = 'nvidia-kernel-module' GROUP BY 1, 2"
ask "nodes whose registration came more than 1 s after the plugin started" \
  "SELECT DISTINCT b.node_name FROM fleet_intervals i JOIN fleet_bundles b USING (fleet_bundle_id)
   WHERE i.name = 'registration_after_plugin_start' AND i.boot_offset = 0 AND i.seconds > 1"
ask "first capture showing each finding" \
  "SELECT f.rule_id, min(b.collected_at_ns) FROM fleet_findings f JOIN fleet_bundles b USING (fleet_bundle_id) GROUP BY 1"
