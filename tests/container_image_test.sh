#!/usr/bin/env bash
# The collector image's file system (deploy/image_rootfs.sh, as
# deploy/Containerfile lays it out) works on its own: assembled from the
# static binary and Debian's static busybox, entered with chroot and an
# empty environment, it answers --version and runs `collect --root ...
# --exec chroot` against a fake host mounted inside it, where busybox's
# chroot starts the host's own uname (a static busybox placed in the fake
# host). No image builder is needed or used: this checks the contents, not
# the Containerfile's build stage.
#
#   tests/container_image_test.sh SOURCE_DIR BUILD_DIR
# Uses BUILD_DIR/static/gpuforensics-collect (made by static_collector_test).
set -euo pipefail
src=$1
build=$2
fail() { echo "container_image_test: $*" >&2; exit 1; }
collector=$build/static/gpuforensics-collect
[ -x "$collector" ] || fail "$collector is missing: run tests/static_collector_test.sh first"
busybox=$(command -v busybox) || fail "no busybox (Debian: busybox-static)"
readelf -l "$busybox" | grep -q INTERP && fail "$busybox is not static (Debian: busybox-static)"

work=$(mktemp -d)
[ -n "${KEEP:-}" ] || trap 'rm -rf "$work"' EXIT
image=$work/image
sh "$src/deploy/image_rootfs.sh" "$collector" "$busybox" "$image"
got=$(cd "$image" && find . -mindepth 1 | sort | tr '\n' ' ')
want="./bin ./bin/busybox ./bin/cat ./bin/chroot ./bin/ls ./bin/nsenter ./bin/sh ./bin/sleep ./bin/tar ./host ./out ./tmp ./usr ./usr/local ./usr/local/bin ./usr/local/bin/gpuforensics ./usr/local/bin/gpuforensics-collect "
[ "$got" = "$want" ] || fail "the image holds: $got"

# As a container runtime would: the image's PATH (deploy/Containerfile), a /dev/null.
mkdir "$image/dev"
mknod -m 666 "$image/dev/null" c 1 3
image_path=$(sed -n 's/^ENV PATH=//p' "$src/deploy/Containerfile")
in_image() { env -i PATH="$image_path" /usr/sbin/chroot "$image" /bin/sh -c "$1"; }
version=$(in_image 'gpuforensics --version')
[ "$version" = "gpuforensics-collect $("$build/gpuforensics" --version | cut -d' ' -f2-)" ] ||
  fail "--version in the image: $version"
in_image 'test -x /bin/chroot && test -x /bin/nsenter' ||
  fail "chroot and nsenter (for --exec) are not on the image's PATH"

# The host: a fake node, with a real (static) uname for --exec chroot to run.
python3 "$src/samples/tools/build_fakehost.py" "$src/samples/scenarios/healthy" "$work/fake" >/dev/null
mv "$work/fake/root" "$image/host/root"
mkdir -p "$image/host/root/usr/bin"
cp "$busybox" "$image/host/root/usr/bin/busybox"
ln -sf busybox "$image/host/root/usr/bin/uname"

in_image 'cd /out && gpuforensics collect --root /host/root --exec chroot --node node-17' \
  >"$work/stdout" 2>"$work/stderr" || fail "collect in the image: $(cat "$work/stderr")"
bundle=$image/out/$(cat "$work/stdout")  # the default name, in the working directory
[ -f "$bundle" ] && [[ $bundle == "$image/out/gpuforensics-node-17-"*.tar.zst ]] || fail "no bundle in /out: $(cat "$work/stdout")"
"$build/gpuforensics" verify "$bundle" >/dev/null || fail "the bundle does not verify"
uname=$("$build/gpuforensics" sql "$bundle" \
  "SELECT status, exit_code, argv_json FROM artifacts WHERE name = 'host.uname'" | tail -n +2)
[ "$uname" = $'ok\t0\t["chroot","/host/root","uname","-a"]' ] || fail "host.uname through chroot: $uname"
# As kubectl-gpuforensics runs it through kubectl exec: the bundle on stdout,
# the node's name from the pod's environment (the downward API).
in_image 'NODE_NAME=node-18 gpuforensics-collect collect --root /host/root --exec chroot --output - --deadline 120' \
  >"$work/streamed.tar.zst" 2>"$work/stderr" || fail "collect --output - in the image: $(cat "$work/stderr")"
"$build/gpuforensics" verify "$work/streamed.tar.zst" >/dev/null || fail "the streamed bundle does not verify"
node=$("$build/gpuforensics" sql "$work/streamed.tar.zst" "SELECT node_name FROM bundles" | tail -n +2)
[ "$node" = node-18 ] || fail "the streamed bundle's node: $node"
[ -z "$(ls "$image/tmp")" ] || fail "collect --output - left $(ls "$image/tmp") in the image's /tmp"
echo "container_image_test: the image ran collect --exec chroot; $(basename "$bundle") and the streamed bundle verify"
