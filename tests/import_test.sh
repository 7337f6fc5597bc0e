#!/bin/sh
# Other tools' captures, analyzed as our own bundles are:
#  - a real sos report of this machine (Debian's sosreport): the journal,
#    kernel log, versions and boot facts it holds are found, with no parse
#    warnings, the node named and sos's manifest read (plugins that ran, the
#    capture time when `date` is missing); a machine without a journal gets
#    a small one in /run/log/journal for the run (removed after);
#  - the seed incident laid out as a sos report (directory and tar.xz), as a
#    folder saved by hand, as an nvidia-bug-report.log.gz and as a GPU
#    Operator must-gather (samples/tools/render_foreign.py): the same
#    findings as its bundle, except rules skipped for artifacts the kind of
#    input cannot show, which coverage lists, and a symptom (a consequence)
#    that a cause shown less surely there no longer explains;
#  - an imported manifest writes exactly the origin fields schema/bundle.md
#    documents.
#
# usage: import_test.sh GPUFORENSICS_BINARY     (exit 77: cannot run here)
set -u
gpuforensics=$1
top=$(cd "$(dirname "$0")/.." && pwd)
if [ "$(id -u)" != 0 ] || ! command -v python3 >/dev/null || [ ! -x /lib/systemd/systemd-journal-remote ] ||
   ! command -v sos >/dev/null; then
  echo "SKIP: needs root, python3, systemd-journal-remote and sos (sosreport)"; exit 77
fi
passed=0
failed=0
work=$(mktemp -d /tmp/gpuf-import-test-XXXXXX)
made_journal=""
made_systemd=""
cleanup() {
  [ -n "$made_journal" ] && rm -rf "$made_journal"
  [ -n "$made_systemd" ] && rmdir /run/systemd/system 2>/dev/null
  [ -n "${KEEP:-}" ] && echo "kept $work" || rm -rf "$work"
}
trap cleanup EXIT

check() {  # check DESCRIPTION EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "not ok - $1"; echo "#   expected: $2"; echo "#   actual:   $3"
  fi
}

sql() { "$gpuforensics" sql "$1" "$2" | tail -n +2; }

# --- a real sos report of this machine ---------------------------------------
# sos reads the journal only where systemd is the init (/run/systemd/system)
# and journald is a unit; in a container neither holds, so the test marks
# the first for the run and lets systemctl answer offline.
if [ ! -d /run/log/journal ] && [ -z "$(journalctl -q -n 1 2>/dev/null)" ]; then
  mid=$(cat /etc/machine-id 2>/dev/null || echo 0123456789abcdef0123456789abcdef)
  if [ -d /run/log ]; then made_journal=/run/log/journal; else made_journal=/run/log; fi
  mkdir -p /run/log/journal/"$mid"
  boot=$(tr -d - < /proc/sys/kernel/random/boot_id)
  python3 - "$boot" "$mid" "$(uname -n)" > "$work/export.txt" <<'EOF'
import sys, time
boot, mid, host = sys.argv[1], sys.argv[2], sys.argv[3]
now = int(time.time() * 1e6)
mono = int(float(open("/proc/uptime").read().split()[0]) * 1e6)
entries = [
    ("kernel", None, "kernel", None, "NVRM: loading NVIDIA UNIX x86_64 Kernel Module  535.161.07  Sat Feb 17 22:55:48 UTC 2024"),
    ("systemd", 1, "journal", "nvidia-persistenced.service", "Started NVIDIA Persistence Daemon."),
    ("containerd", 800, "stdout", None, 'time="2026-11-30T10:00:00.000000000Z" level=info msg="starting containerd"'),
]
for i, (ident, pid, transport, unit, message) in enumerate(entries):
    back = (len(entries) - i) * 1000000
    print("__REALTIME_TIMESTAMP=%d\n__MONOTONIC_TIMESTAMP=%d\n_BOOT_ID=%s\n_MACHINE_ID=%s\n_HOSTNAME=%s\n"
          "_TRANSPORT=%s\nSYSLOG_IDENTIFIER=%s" % (now - back, mono - back, boot, mid, host, transport, ident))
    if pid:
        print("_PID=%d" % pid)
    if unit:
        print("UNIT=%s" % unit)
    print("MESSAGE=%s\n" % message)
EOF
  /lib/systemd/systemd-journal-remote --output=/run/log/journal/"$mid"/system.journal --split-mode=none - \
    < "$work/export.txt" 2>/dev/null
fi
if [ ! -d /run/systemd/system ]; then mkdir /run/systemd/system; made_systemd=1; fi
mkdir "$work/sos"
SYSTEMD_OFFLINE=1 sos report --batch --tmp-dir "$work/sos" -o logs,kernel,host,date,systemd,release,process \
  --label gpuf >"$work/sos.out" 2>&1
check "sos report ran" 0 $?
[ -n "$made_systemd" ] && rmdir /run/systemd/system && made_systemd=""
[ -n "$made_journal" ] && rm -rf "$made_journal" && made_journal=""
sosreport=$(ls "$work"/sos/sosreport-*.tar.xz)
"$gpuforensics" import "$sosreport" -o "$work/sos.tar.zst" >/dev/null 2>"$work/import.err"
check "real sos: import" 0 $?
check "real sos: import names the kind" "gpuforensics import: read sosreport, wrote $work/sos.tar.zst" \
  "$(cat "$work/import.err")"
"$gpuforensics" analyze "$sosreport" >/dev/null 2>"$work/analyze.err"
check "real sos: analyze says what it read" "gpuforensics analyze: $sosreport is input of kind sosreport; importing it" \
  "$(cat "$work/analyze.err")"
check "real sos: no parse warnings" 0 "$(sql "$work/sos.tar.zst" "SELECT count(*) FROM parse_warnings")"
for name in journal.kernel host.uname host.os_release host.hostname boot.proc_stat boot.boot_id kernel.cmdline; do
  check "real sos: $name found" 1 \
    "$(sql "$work/sos.tar.zst" "SELECT count(*) > 0 FROM artifacts WHERE name = '$name' AND status = 'ok'")"
done
check "real sos: the kernel's version read" 1 "$(sql "$work/sos.tar.zst" \
  "SELECT count(*) > 0 FROM artifact_lines l JOIN artifacts a USING (artifact_id)
   WHERE a.name = 'host.uname' AND l.text LIKE 'Linux % $(uname -r) %'")"
check "real sos: kernel log lines loaded" 1 "$(sql "$work/sos.tar.zst" \
  "SELECT count(*) > 0 FROM journal_entries j JOIN artifacts a USING (artifact_id) WHERE a.name = 'journal.kernel'")"
if [ -n "$(tar -tJf "$sosreport" | grep 'journalctl_--no-pager_--catalog_--boot$')" ]; then
  check "real sos: the journal read into its slices" 1 "$(sql "$work/sos.tar.zst" \
    "SELECT count(*) > 0 FROM journal_entries j JOIN artifacts a USING (artifact_id) WHERE a.name = 'journal.systemd'")"
  check "real sos: persistenced start on the timeline" 1 "$(sql "$work/sos.tar.zst" \
    "SELECT count(*) > 0 FROM events WHERE milestone = 'persistenced_started'")"
else
  check "real sos: sos collected the journal" yes no
fi

# sos's own record of the run: the node, the plugins that ran, the capture
# time when `date` was not collected, and the command to ask for next time.
check "real sos: the node is the host sos ran on" \
  "$(tar -xJOf "$sosreport" --wildcards '*/sos_commands/host/hostname' | tr -d '\n')" \
  "$(sql "$work/sos.tar.zst" "SELECT node_name FROM bundles")"
"$gpuforensics" analyze "$sosreport" --format json >"$work/sos.json" 2>/dev/null
cat > "$work/sos_manifest.py" <<'EOF'
import json, subprocess, sys
report = json.load(open(sys.argv[1]))
manifest = json.loads(subprocess.run(["tar", "-xJOf", sys.argv[2], "--wildcards", "*/sos_reports/manifest.json"],
                                     capture_output=True, text=True, check=True).stdout)
ran = sorted(manifest["components"]["report"]["plugins"])
entry = [f for f in report["coverage"]["input_files"] if f["path"] == "sos_reports/manifest.json"]
problems = []
if len(entry) != 1 or entry[0]["read_as"] != "sos manifest":
    problems.append("manifest entry %s" % entry)
elif "sos %s ran %s" % (manifest["version"], ", ".join(ran)) not in entry[0]["note"] or \
        "did not run nvidia, crio, kubernetes" not in entry[0]["note"]:
    problems.append("note %r" % entry[0]["note"])
if not report["coverage"]["capture_next"][0].startswith(
        "sos report --batch -o kernel,logs,systemd,nvidia,crio,kubernetes,date,host,process -k crio.all=on"):
    problems.append("capture_next %r" % report["coverage"]["capture_next"])
print("; ".join(problems) or "ok")
EOF
check "real sos: coverage reads sos's manifest" ok "$(python3 "$work/sos_manifest.py" "$work/sos.json" "$sosreport")"
mkdir "$work/sos-undated" && tar -xJf "$sosreport" -C "$work/sos-undated"
rm -rf "$work"/sos-undated/sosreport-*/sos_commands/date
"$gpuforensics" import "$work"/sos-undated/sosreport-*/ -o "$work/sos-undated.tar.zst" >/dev/null 2>&1
check "real sos without date: the capture time is sos's start_time" \
  "$(python3 -c "
import calendar, json, sys, time
m = json.load(open(sys.argv[1]))
print(calendar.timegm(time.strptime(m['start_time'][:19], '%Y-%m-%d %H:%M:%S')))" \
    "$(ls "$work"/sos-undated/sosreport-*/sos_reports/manifest.json)")" \
  "$(sql "$work/sos-undated.tar.zst" "SELECT collected_at_ns / 1000000000 FROM bundles")"

# --- the seed incident, rendered as each kind of input --------------------------
bundle=$top/samples/seed-incident.tar.zst
python3 "$top/samples/tools/build_fakehost.py" "$top/samples/scenarios/seed-incident" "$work/host" >/dev/null
render() { python3 "$top/samples/tools/render_foreign.py" "$@"; }
mkdir "$work/sosdir" && render sos "$work/host" "$bundle" "$work/sosdir"
render evidence "$work/host" "$bundle" "$work/evidence"
render bug-report "$work/host" "$bundle" "$work/nvidia-bug-report.log.gz"
# The same folder under names that say nothing: files are known by content
# (only nvidia-smi -L needs its name: its text does not say host or container).
mkdir "$work/renamed"
n=0
for f in "$work"/evidence/*; do
  n=$((n + 1))
  case $f in *smi-plugin.txt|*smi-host.txt) cp -p "$f" "$work/renamed/" ;; *) cp -p "$f" "$work/renamed/out-$n" ;; esac
done
mkdir "$work/must-gather"
echo "Using ARTIFACT_DIR=/tmp/nvidia-gpu-operator_20261118_2130" > "$work/must-gather/must-gather.log"
sed 's|^|[pod/nvidia-device-plugin-daemonset-x2k9f/nvidia-device-plugin-ctr] |' "$work/evidence/plugin.log" \
  > "$work/must-gather/gpu_operand_pod_nvidia-device-plugin-daemonset-x2k9f.log"
cp -p "$work/nvidia-bug-report.log.gz" "$work/must-gather/nvidia-bug-report_cn-shanghai.10.20.31.47.log.gz"

# compare BUNDLE INPUT...: each input shows the bundle's findings, minus
# rules skipped for artifacts its kind cannot show (listed in coverage).
compare() {
  "$gpuforensics" analyze "$1" --format json >"$work/bundle.json" 2>/dev/null
  shift
  for input in "$@"; do
    "$gpuforensics" analyze "$input" --format json >"$work/input.json" 2>"$work/input.err"
    status=$?
    check "$input: analyze exit status (1: findings)" 1 "$([ $status -le 1 ] && echo 1 || echo $status)"
    python3 "$work/compare.py" "$work/bundle.json" "$work/input.json" "$input" > "$work/compare.out"
    check "$input: the bundle's findings, minus what it cannot show" ok "$(cat "$work/compare.out")"
  done
}
cat > "$work/compare.py" <<'EOF'
import json, re, sys
bundle, other, name = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
cannot = set(other["coverage"]["cannot_show"])
found = {f["id"]: f for f in other["findings"]}
skipped = {r["id"]: r["reason"] for r in other["rules_not_evaluated"]}
problems = []
if not cannot:
    problems.append("coverage lists nothing this kind cannot show")
if other["coverage"]["parse_warnings"] != 0:
    problems.append("%d parse warnings" % other["coverage"]["parse_warnings"])
for f in bundle["findings"]:
    if f["id"] in found:
        g = found[f["id"]]
        # A weaker outcome must say which evidence it lacked.
        if (g["severity"], g["confidence"]) != (f["severity"], f["confidence"]) and not g["missing_evidence"]:
            problems.append("%s: %s/%s without naming missing evidence" % (f["id"], g["severity"], g["confidence"]))
    elif f["id"] in skipped:
        # Skipped ("missing: X (not collected)") or undecided ("X not captured").
        missing = set(re.findall(r"([a-z0-9_]+\.[a-z0-9_]+)(?: \(| not captured)", skipped[f["id"]]))
        if not missing or not missing <= cannot:
            problems.append("%s not evaluated for %s, not all in cannot_show" % (f["id"], sorted(missing - cannot)))
    else:
        problems.append("%s: found in the bundle, not here" % f["id"])
# A symptom defers only to an explanation at least as sure: where this input
# shows less of the cause, the symptom it no longer covers stands on its own.
rank = {"possible": 1, "likely": 2, "confirmed": 3}
weakened = any(f["id"] in found and rank[found[f["id"]]["confidence"]] < rank[f["confidence"]]
               for f in bundle["findings"])
for g in other["findings"]:
    if g["id"] not in {f["id"] for f in bundle["findings"]}:
        if g.get("role") == "consequence" and weakened:
            continue
        problems.append("%s: found here, not in the bundle" % g["id"])
print("ok" if not problems else "; ".join(problems))
print("# %s: %s" % (name, " ".join(sorted(found)) or "no findings"), file=sys.stderr)
EOF
compare "$bundle" "$work/sosdir/sosreport-"*"/" "$work/sosdir.tar.xz" "$work/evidence" "$work/renamed" \
  "$work/nvidia-bug-report.log.gz" "$work/must-gather"

# Other scenarios, as a sos report, a saved folder and a bug report. Left out:
# fabric-manager-down and mig-mixed (their rules see the fault in
# nvidia-smi -q -x and the PCI table, which these renderings do not hold:
# they evaluate and find nothing) and recovery (the failed start's log is the
# previous container's, which kubectl logs without --previous does not show).
for name in healthy xid-79-fallen-off-bus runtime-not-nvidia-v016 kubelet-restart-no-reregister \
            driver-library-mismatch nct-251-daemon-reload gpu-wedged-xid119; do
  python3 "$top/samples/tools/build_fakehost.py" "$top/samples/scenarios/$name" "$work/host-$name" >/dev/null
  mkdir "$work/sos-$name"
  render sos "$work/host-$name" "$top/samples/$name.tar.zst" "$work/sos-$name"
  render evidence "$work/host-$name" "$top/samples/$name.tar.zst" "$work/saved-$name"
  render bug-report "$work/host-$name" "$top/samples/$name.tar.zst" "$work/nbr-$name.log.gz"
  compare "$top/samples/$name.tar.zst" "$work/sos-$name.tar.xz" "$work/saved-$name" "$work/nbr-$name.log.gz"
  rm -rf "$work/host-$name"
done

# The bug report holds the incident's driver-side signatures, at the bundle's times.
"$gpuforensics" import "$work/nvidia-bug-report.log.gz" -o "$work/nbr.tar.zst" >/dev/null 2>&1
check "bug report: driver version" 535.161.07 "$(sql "$work/nbr.tar.zst" \
  "SELECT version FROM versions WHERE component = 'nvidia-kernel-module'")"
check "bug report: 8 GPUs from nvidia-smi -q" 8 "$(sql "$work/nbr.tar.zst" "SELECT count(*) FROM gpus")"
for milestone in driver_loaded persistenced_started; do
  check "bug report: $milestone at the bundle's time" \
    "$(sql "$bundle" "SELECT substr(datetime(time_ns / 1e9, 'unixepoch'), 1, 19) FROM events
                      WHERE milestone = '$milestone' AND boot_offset = 0")" \
    "$(sql "$work/nbr.tar.zst" "SELECT substr(datetime(time_ns / 1e9, 'unixepoch'), 1, 19) FROM events
                                WHERE milestone = '$milestone' AND boot_offset = 0")"
done
check "bug report: the timeline says what captured it, not gpuforensics collect" \
  "1 | nvidia-bug-report" \
  "$(sql "$work/nbr.tar.zst" "SELECT (SELECT count(*) FROM events WHERE milestone = 'collection'
                                      AND message LIKE 'nvidia-bug-report captured on % (imported)')
                               || ' | ' || origin_kind AS captured FROM bundles")"
check "bug report: the plugin's NVML failure it cannot show is listed" 1 "$(python3 -c "
import json, subprocess
r = json.loads(subprocess.run(['$gpuforensics', 'analyze', '$work/nvidia-bug-report.log.gz', '--format', 'json'],
                              capture_output=True, text=True).stdout)
print(int('plugin.log' in r['coverage']['cannot_show'] and r['coverage']['input_kind'] == 'nvidia-bug-report'))")"

# Files saved years after they were printed: the journal's yearless dates take
# the year of the plugin's dated lines beside them, not the files' mtime.
mkdir "$work/dated" && cp "$top/tests/corpus/k8s-device-plugin-10-kubelet-device-plugins-gate-off/"*.txt \
   "$top/tests/corpus/k8s-device-plugin-10-kubelet-device-plugins-gate-off/"*.log "$work/dated/"
touch -d 2026-12-01 "$work/dated/"*
"$gpuforensics" import "$work/dated" -o "$work/dated.tar.zst" >/dev/null 2>&1
check "saved outputs: yearless journal lines dated by the dated lines beside them" "2017|2017" \
  "$(sql "$work/dated.tar.zst" "SELECT min(strftime('%Y', realtime_us / 1e6, 'unixepoch')) || '|' ||
                                max(strftime('%Y', realtime_us / 1e6, 'unixepoch')) AS years FROM journal_entries")"

# The imported manifest: origin fields documented, every documented one written.
python3 - "$work/nbr.tar.zst" "$top/schema/bundle.md" > "$work/fields.out" <<'EOF'
import json, re, subprocess, sys
manifest = json.loads(subprocess.run(["tar", "--zstd", "-xOf", sys.argv[1], "manifest.json"],
                                     capture_output=True, text=True, check=True).stdout)
documented = set(re.findall(r"^\| `([a-z0-9_.\[\]]+)` \|", open(sys.argv[2]).read(), re.M))
written = set()
def walk(node, prefix):
    if isinstance(node, dict):
        for k, v in node.items():
            path = prefix + "." + k if prefix else k
            if not isinstance(v, dict):
                written.add(path)
            walk(v, path)
    elif isinstance(node, list):
        for item in node:
            if isinstance(item, dict):
                walk(item, prefix + "[]")
origin = {f for f in documented if f.startswith("origin.") or f == "artifacts[].source_file"}
walk(manifest, "")
print(" ".join(sorted(written - documented)) or "-", "|", " ".join(sorted(origin - written)) or "-")
EOF
check "imported manifest: undocumented | documented origin fields not written" "- | -" "$(tail -n 1 "$work/fields.out")"

echo "# import: $passed passed, $failed failed"
[ "$failed" = 0 ]
