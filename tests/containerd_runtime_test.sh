#!/bin/sh
# The collector against a real container runtime: Debian's containerd and
# runc, started here on a private socket and state directory. A container
# named like the device plugin runs from a tiny rootfs (busybox-static plus a
# stub nvidia-smi that fails the way NVML does after a device-cgroup loss).
# crictl is absent, so the collector must fall back to containerd's ctr,
# find the container by its Kubernetes labels, capture its device cgroup and
# run nvidia-smi inside it.
#
# usage: containerd_runtime_test.sh GPUFORENSICS_BINARY
set -eu
gpuforensics=$1
passed=0
failed=0

if [ "$(id -u)" != 0 ]; then
  echo "SKIP: needs root to run containerd"; exit 77
fi
for tool in containerd runc ctr busybox sqlite3; do
  command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed"; exit 77; }
done

work=$(mktemp -d /tmp/gpuf-containerd-XXXXXX)
# runc keeps its state under /run whatever containerd's state dir is: a
# unique id keeps runs apart.
id=nvidia-device-plugin-test-$$
sock=$work/containerd.sock
ctr_() { ctr --address "$sock" -n k8s.io "$@"; }
cleanup() {
  ctr_ tasks kill -s KILL "$id" >/dev/null 2>&1 || true
  sleep 0.5
  ctr_ tasks delete "$id" >/dev/null 2>&1 || true
  ctr_ containers delete "$id" >/dev/null 2>&1 || true
  [ -n "${containerd_pid:-}" ] && kill "$containerd_pid" 2>/dev/null && wait "$containerd_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
[ -n "${GPUF_KEEP_TEST_DIRS:-}" ] && trap - EXIT

check() {  # check DESCRIPTION EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then
    passed=$((passed + 1)); echo "ok - $1"
  else
    failed=$((failed + 1)); echo "not ok - $1"; echo "#   expected: $2"; echo "#   actual:   $3"
  fi
}

cat > "$work/config.toml" <<TOML
version = 2
root = "$work/root"
state = "$work/state"
disabled_plugins = ["io.containerd.grpc.v1.cri"]
[grpc]
  address = "$sock"
TOML
containerd --config "$work/config.toml" >"$work/containerd.log" 2>&1 &
containerd_pid=$!
for _ in $(seq 50); do [ -S "$sock" ] && break; sleep 0.1; done
[ -S "$sock" ] || { cat "$work/containerd.log"; echo "containerd did not start"; exit 1; }

rootfs=$work/rootfs
mkdir -p "$rootfs/bin" "$rootfs/usr/bin" "$rootfs/proc" "$rootfs/sys" "$rootfs/dev" "$rootfs/tmp"
cp "$(command -v busybox)" "$rootfs/bin/busybox"
for applet in sh sleep cat; do ln -s busybox "$rootfs/bin/$applet"; done
printf '#!/bin/sh\necho "Failed to initialize NVML: Unknown Error"\nexit 255\n' >"$rootfs/usr/bin/nvidia-smi"
chmod 755 "$rootfs/usr/bin/nvidia-smi"
ctr_ run -d --env PATH=/usr/bin:/bin \
  --label io.kubernetes.container.name=nvidia-device-plugin-ctr \
  --label io.kubernetes.pod.name=nvidia-device-plugin-node-1 \
  --label io.kubernetes.pod.namespace=kube-system \
  --rootfs "$rootfs" "$id" /bin/sleep 3600

# A PATH with the real tools and no crictl, whatever this machine has.
mkdir "$work/bin"
for tool in ctr containerd runc journalctl uname bpftool systemctl; do
  real=$(command -v "$tool" || true)
  [ -n "$real" ] && ln -s "$real" "$work/bin/$tool"
done

PATH=$work/bin "$gpuforensics" collect --root / -o "$work/bundle.tar.zst" --containerd-address "$sock" \
  --timeout 10 2>"$work/collect.err" >/dev/null || { cat "$work/collect.err"; exit 1; }
# Exit status 1: the container's NVML failure is a finding.
"$gpuforensics" analyze "$work/bundle.tar.zst" --db "$work/analysis.db" >"$work/report.txt" || [ $? = 1 ]

q() { sqlite3 "$work/analysis.db" "$1"; }
check "verify passes" 0 "$("$gpuforensics" verify "$work/bundle.tar.zst" >/dev/null; echo $?)"
check "ctr listed the container" "ok" \
  "$(q "SELECT a.status FROM artifacts a JOIN artifact_lines l USING (artifact_id)
        WHERE a.name = 'runtime.ctr_containers' AND l.text = '$id'")"
check "ctr containers info captured for the plugin" "1" \
  "$(q "SELECT count(*) > 0 FROM artifacts a JOIN artifact_lines l USING (artifact_id)
        WHERE a.name = 'runtime.ctr_container_info' AND a.instance = '$id'
        AND l.text LIKE '%\"io.kubernetes.container.name\": \"nvidia-device-plugin-ctr\"%'")"
check "nvidia-smi ran inside the container" "nonzero_exit|255|container" \
  "$(q "SELECT status, exit_code, context FROM artifacts WHERE name = 'plugin.nvidia_smi_list' AND instance = '$id'")"
check "its output is the container's NVML error" "Failed to initialize NVML: Unknown Error" \
  "$(q "SELECT l.text FROM artifacts a JOIN artifact_lines l USING (artifact_id)
        WHERE a.name = 'plugin.nvidia_smi_list' AND a.instance = '$id' AND l.stream = 'stdout'")"
check "the container's /proc/PID/cgroup was read" "1" \
  "$(q "SELECT count(*) FROM artifacts a JOIN artifact_lines l USING (artifact_id)
        WHERE a.name = 'plugin.proc_cgroup' AND a.instance = '$id' AND l.text LIKE '%/k8s.io/$id'
        AND l.text LIKE '%devices%'")" 
if [ "$(stat -fc %T /sys/fs/cgroup)" = cgroup2fs ]; then
  check "cgroup v2: the device program listing was taken" "ok" \
    "$(q "SELECT status FROM artifacts WHERE name = 'plugin.bpftool_cgroup' AND instance = '$id'")"
else
  check "cgroup v1: devices.list holds runc's rules" "1" \
    "$(q "SELECT count(*) FROM artifacts a JOIN artifact_lines l USING (artifact_id)
          WHERE a.name = 'plugin.devices_list' AND a.instance = '$id' AND l.text = 'c 1:3 rwm'")"
fi
check "the real containerd version was recorded" "containerd" \
  "$(q "SELECT substr(l.text, 1, 10) FROM artifacts a JOIN artifact_lines l USING (artifact_id)
        WHERE a.name = 'versions.containerd' AND l.line = 1 AND l.stream = 'stdout'")"
# This host has no GPU: the report's chain is "not a GPU node", so the
# container's failure is read where the analyzer keeps it.
check "the container's NVML failure is read from its nvidia-smi" "nvml_unknown_error" \
  "$(q "SELECT r.outcome FROM nvidia_smi_runs r WHERE r.view = 'container' AND r.command = '-L'")"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
