#!/bin/sh
# gpuforensics watch on fake nodes from the scenario kit: healthy -> no
# bundle; the seed incident -> exactly one bundle however often the check
# runs, and however many run at once; retention drops the oldest of its own
# captures only; a hanging nvidia-smi does not hang it; the systemd units
# verify.
#
# usage: watch_test.sh GPUFORENSICS_BINARY
set -u
gpuforensics=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
passed=0
failed=0
check() {  # check DESCRIPTION EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then passed=$((passed + 1)); echo "ok - $1"
  else failed=$((failed + 1)); echo "not ok - $1"; echo "#   expected: $2"; echo "#   actual:   $3"; fi
}
if [ "$(id -u)" != 0 ] || ! command -v python3 >/dev/null || [ ! -x /lib/systemd/systemd-journal-remote ]; then
  echo "SKIP: needs root, python3 and systemd-journal-remote to build fake nodes"; exit 77
fi
work=$(mktemp -d /tmp/gpuf-watch-XXXXXX)
trap 'rm -rf "$work"' EXIT
for scenario in healthy seed-incident gpu-wedged-xid119; do
  python3 "$top/samples/tools/build_fakehost.py" "$top/samples/scenarios/$scenario" "$work/$scenario" >/dev/null ||
    { echo "cannot build $scenario"; exit 1; }
done
watch() {  # watch SCENARIO OUT [options...]
  scenario=$1; out=$2; shift 2
  PATH="$work/$scenario/bin:$work/$scenario/sysbin" "$gpuforensics" watch --root "$work/$scenario/root" \
    --out-dir "$out" --timeout 2 --deadline 30 "$@" 2>/dev/null
}
bundles() { find "$1" -maxdepth 1 -name 'gpuforensics-*.tar.zst' | wc -l | tr -d ' '; }

watch healthy "$work/out-healthy" >/dev/null
check "healthy node: exit 0" 0 $?
check "healthy node: no bundle" 0 "$(bundles "$work/out-healthy")"

for run in 1 2 3; do watch seed-incident "$work/out-seed" >"$work/seed-$run.txt"; done
check "seed incident: exactly one bundle after three checks" 1 "$(bundles "$work/out-seed")"
check "seed incident: the first check captured" 1 "$(grep -c 'captured /' "$work/seed-1.txt")"
check "seed incident: later checks know it is captured" 1 "$(grep -c 'already captured' "$work/seed-3.txt")"
"$gpuforensics" verify "$(find "$work/out-seed" -name 'gpuforensics-*.tar.zst')" >/dev/null
check "seed incident: the bundle verifies" 0 $?

# A new incident (kubelet restarted: kubelet.sock renewed) inside --min-interval is not captured.
touch "$work/seed-incident/root/var/lib/kubelet/device-plugins/kubelet.sock"
watch seed-incident "$work/out-seed" --min-interval 3600 >"$work/seed-4.txt"
check "rate limit: a new incident within --min-interval is reported, not captured" 1 \
  "$(grep -c 'younger than --min-interval' "$work/seed-4.txt")"
check "rate limit: still one bundle" 1 "$(bundles "$work/out-seed")"

# Retention removes only the captures this watch wrote, never one collected
# by hand, and never the newest, whatever the file times say.
mkdir -p "$work/out-retention"
for age in 300 200 100; do
  f="$work/out-retention/gpuforensics-old-$age.tar.zst"
  head -c 1000 /dev/zero >"$f"
  touch -d "@$(( $(date +%s) - age ))" "$f"
done
head -c 1000 /dev/zero >"$work/out-retention/gpuforensics-by-hand-tomorrow.tar.zst"
touch -d "@$(( $(date +%s) + 86400 ))" "$work/out-retention/gpuforensics-by-hand-tomorrow.tar.zst"  # a clock that stepped
touch "$work/out-retention/notes.txt"
watch seed-incident "$work/out-retention" --keep 1 --min-interval 0 >"$work/retention-1.txt"
first=$(sed -n 's/.*captured \(\/[^ ]*\)$/\1/p' "$work/retention-1.txt")
check "retention: the first capture is kept" yes "$([ -n "$first" ] && [ -e "$first" ] && echo yes || echo no)"
check "retention: bundles collected by hand are left alone" 4 \
  "$(find "$work/out-retention" -name 'gpuforensics-old-*' -o -name 'gpuforensics-by-hand-*' | wc -l | tr -d ' ')"
sleep 1  # a new second: the next capture's name differs
touch "$work/seed-incident/root/var/lib/kubelet/device-plugins/kubelet.sock"  # a new incident
watch seed-incident "$work/out-retention" --keep 1 --min-interval 0 >"$work/retention-2.txt"
second=$(sed -n 's/.*captured \(\/[^ ]*\)$/\1/p' "$work/retention-2.txt")
check "retention: the new capture is kept" yes "$([ -n "$second" ] && [ -e "$second" ] && echo yes || echo no)"
check "retention: the older capture went" no "$([ -e "$first" ] && echo yes || echo no)"
check "retention: it says so" 1 "$(grep -c "removed $first (retention)" "$work/retention-2.txt")"
check "retention: bundles collected by hand are still left alone" 4 \
  "$(find "$work/out-retention" -name 'gpuforensics-old-*' -o -name 'gpuforensics-by-hand-*' | wc -l | tr -d ' ')"
check "retention: other files are left alone" "yes" "$([ -e "$work/out-retention/notes.txt" ] && echo yes || echo no)"

# An index edited to list other files: retention removes only names a
# capture of this watch can have, never its lock, its index or a stranger.
mkdir -p "$work/out-tampered"
touch "$work/out-tampered/notes.txt"
printf '{"captures": ["notes.txt", ".gpuforensics-watch.lock", ".gpuforensics-watch.json", "..", ""]}\n' \
  >"$work/out-tampered/.gpuforensics-watch.json"
watch seed-incident "$work/out-tampered" --keep 1 --min-interval 0 >"$work/tampered.txt"
check "tampered index: one capture" 1 "$(bundles "$work/out-tampered")"
check "tampered index: a listed stranger is left alone" yes \
  "$([ -e "$work/out-tampered/notes.txt" ] && echo yes || echo no)"
check "tampered index: nothing removed" 0 "$(grep -c '(retention)' "$work/tampered.txt")"

# A clock stepped back after a capture: a new incident is captured, not
# held back until the clock catches up.
mkdir -p "$work/out-clock"
printf '{"incident": "an earlier one", "bundle": "", "at_unix_ns": %s000000000, "captures": []}\n' \
  "$(( $(date +%s) + 86400 ))" >"$work/out-clock/.gpuforensics-watch.json"
watch seed-incident "$work/out-clock" >"$work/clock.txt"
check "clock stepped back: the new incident is captured" 1 "$(bundles "$work/out-clock")"

# An index that is a link or a FIFO is refused before anything is collected.
mkdir -p "$work/out-fifo"
mkfifo "$work/out-fifo/.gpuforensics-watch.json"
watch seed-incident "$work/out-fifo" >/dev/null
check "index a FIFO: the cannot-create status" 73 $?
check "index a FIFO: nothing collected" 0 "$(bundles "$work/out-fifo")"

# A root that is no node's (an empty directory, a wrong path) is not "healthy".
mkdir -p "$work/empty-root"
"$gpuforensics" watch --root "$work/empty-root" --out-dir "$work/out-empty" >"$work/empty.txt" 2>&1
check "empty root: the bad-input status" 2 $?
check "empty root: not called healthy" 0 "$(grep -c healthy "$work/empty.txt")"
check "empty root: says why" 1 "$(grep -c 'has no readable /sys/bus/pci/devices' "$work/empty.txt")"

# Three watches started together: one lock, one capture.
for run in 1 2 3; do watch seed-incident "$work/out-together" >"$work/together-$run.txt" & done
wait
check "three watches at once: exactly one bundle" 1 "$(bundles "$work/out-together")"
check "three watches at once: one captured" 1 "$(cat "$work"/together-*.txt | grep -c 'captured /')"
check "three watches at once: two found it captured" 2 "$(cat "$work"/together-*.txt | grep -c 'already captured')"

# The wedged-GPU node: nvidia-smi hangs and ignores SIGTERM; the check does
# not call it, and the capture is bounded by --timeout.
start=$(date +%s)
watch gpu-wedged-xid119 "$work/out-wedged" --check-allocatable >/dev/null
status=$?
elapsed=$(( $(date +%s) - start ))
check "wedged GPU: broken, captured" 1 "$status"
check "wedged GPU: done within timeout + grace + slack" yes "$([ "$elapsed" -le 10 ] && echo yes || echo no)"

if command -v systemd-analyze >/dev/null; then
  mkdir "$work/units"
  for unit in gpuforensics-watch.service gpuforensics-watch.timer; do
    sed "s|/usr/local/bin/gpuforensics|$gpuforensics|" "$top/deploy/systemd/$unit" >"$work/units/$unit"
  done
  systemd-analyze verify "$work/units/gpuforensics-watch.service" "$work/units/gpuforensics-watch.timer" \
    >"$work/verify.txt" 2>&1
  check "systemd units verify" 0 $?
  check "systemd-analyze has no complaint" "" "$(grep gpuforensics "$work/verify.txt")"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
