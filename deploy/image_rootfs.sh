#!/bin/sh
# The collector image's whole file system, assembled in OUT_DIR:
#   /usr/local/bin/gpuforensics-collect   the static node binary (and a
#                                         `gpuforensics` link to it)
#   /bin/busybox and links                chroot and nsenter for --exec, sh,
#                                         sleep, cat, tar for loops and kubectl cp
#   /out                                  where bundles are written
# deploy/Containerfile runs it in its build stage; tests/container_image_test.sh
# runs the result in a chroot.
#
#   deploy/image_rootfs.sh STATIC_GPUFORENSICS_COLLECT BUSYBOX OUT_DIR
set -eu
collector=$1
busybox=$2
out=$3
mkdir -p "$out/usr/local/bin" "$out/bin" "$out/out" "$out/tmp" "$out/host"
install -m 0755 "$collector" "$out/usr/local/bin/gpuforensics-collect"
strip "$out/usr/local/bin/gpuforensics-collect" 2>/dev/null || true
ln -sf gpuforensics-collect "$out/usr/local/bin/gpuforensics"
install -m 0755 "$busybox" "$out/bin/busybox"
for applet in sh chroot nsenter sleep cat ls tar; do
  ln -sf busybox "$out/bin/$applet"
done
