#!/usr/bin/env bash
# The static node binary runs where nothing else is: it is built in its own
# build dir with -DGPUFORENSICS_STATIC=ON, copied alone into an empty root
# beside a fake host (samples/tools/build_fakehost.py, its stub tools
# removed), and run there with chroot and an empty environment: --version,
# then collect --root. The bundle must verify, carry the file probes, and
# mark every command probe as a missing tool.
#
#   tests/static_collector_test.sh SOURCE_DIR BUILD_DIR
# BUILD_DIR is the ordinary build (its gpuforensics checks the bundle); the
# static build goes to BUILD_DIR/static. Needs root (chroot, mknod).
set -euo pipefail
src=$1
build=$2
static=$build/static
fail() { echo "static_collector_test: $*" >&2; exit 1; }

launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src" -B "$static" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUFORENSICS_STATIC=ON \
      -DGPUF_BUILD_TESTS=OFF "${launcher[@]}" >/dev/null
cmake --build "$static" --target gpuforensics-collect >/dev/null
bin=$static/gpuforensics-collect

# Fully static: no program interpreter, no dynamic section.
readelf -l "$bin" | grep -q INTERP && fail "$bin asks for a dynamic loader"
readelf -d "$bin" | grep -q NEEDED && fail "$bin needs shared libraries"
# libxml2 and ICU (41 MB) stay out: cli/static_link_shims.cc.
[ "$(stat -c %s "$bin")" -lt 20000000 ] || fail "$bin is $(stat -c %s "$bin") bytes: did libxml2 come back?"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root=$work/root
mkdir -p "$root/out"
cp "$bin" "$root/gpuforensics-collect"
python3 "$src/samples/tools/build_fakehost.py" "$src/samples/scenarios/seed-incident" "$root/host" >/dev/null
rm -rf "$root/host/bin" "$root/host/sysbin"  # the stubs are python scripts: nothing could run them here
[ "$(ls "$root")" = "gpuforensics-collect
host
out" ] || fail "the root holds more than the binary, the fake host and out/: $(ls "$root")"
collect_at=$(sed -n 's/^COLLECT_AT=//p' "$root/host/collect.env")
# With no /proc in the root, a link to a credential is still followed and refused.
checkpoint=$root/host/root/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint
rm "$checkpoint" && ln -s ../../../../etc/kubernetes/kubelet.conf "$checkpoint"

want="gpuforensics-collect $("$build/gpuforensics" --version | cut -d' ' -f2-)"  # version and commit
got=$(env -i /usr/sbin/chroot "$root" /gpuforensics-collect --version)
[ "$got" = "$want" ] || fail "--version in the empty root said '$got', want '$want'"

env -i /usr/sbin/chroot "$root" /gpuforensics-collect collect --root /host/root -o /out/b.tar.zst \
    --fixed-time "$collect_at" >"$work/stdout" 2>"$work/stderr" || fail "collect failed: $(cat "$work/stderr")"
[ "$(cat "$work/stdout")" = /out/b.tar.zst ] || fail "collect printed '$(cat "$work/stdout")'"
bundle=$root/out/b.tar.zst
env -i /usr/sbin/chroot "$root" /gpuforensics-collect verify /out/b.tar.zst >/dev/null || fail "verify in the root"
"$build/gpuforensics" verify "$bundle" >/dev/null || fail "gpuforensics verify"

sql() { "$build/gpuforensics" sql "$bundle" "$1" | tail -n +2; }
[ "$(sql "SELECT node_name FROM bundles")" = cn-shanghai.10.20.31.47 ] || fail "node name"
files_ok=$(sql "SELECT count(*) FROM artifacts WHERE kind IN ('file', 'listing') AND error IS NULL")
[ "$files_ok" -ge 20 ] || fail "only $files_ok file probes read"
[ "$(sql "SELECT error FROM artifacts WHERE path LIKE '%kubelet_internal_checkpoint'")" = \
  "'/var/lib/kubelet/device-plugins/kubelet_internal_checkpoint' leads to '/etc/kubernetes/kubelet.conf', which may hold secrets and is never read" ] ||
    fail "a checkpoint linked to the kubeconfig was not refused without /proc"
[ "$(sql "SELECT count(*) FROM artifacts WHERE name = 'driver.version' AND error IS NULL")" = 1 ] ||
    fail "driver.version (/proc/driver/nvidia/version) was not read"
commands=$(sql "SELECT count(*) FROM artifacts WHERE kind = 'command'")
missing=$(sql "SELECT count(*) FROM artifacts WHERE kind = 'command' AND error LIKE '''%'' not found on PATH'")
[ "$commands" -gt 0 ] && [ "$commands" = "$missing" ] ||
    fail "$missing of $commands command probes marked as a missing tool"
"$build/gpuforensics" analyze "$bundle" >/dev/null || [ $? = 1 ] || fail "analyze could not read the bundle"
echo "static_collector_test: $(stat -c %s "$bin") bytes, ran in an empty root; $files_ok file probes," \
     "$missing missing tools"
