#!/usr/bin/env bash
# The .deb installs on a clean Debian 12 and runs there: cpack builds it,
# apt-get installs it (its Depends pulled from the archive) into a minimal
# Debian rootfs made by debootstrap, and inside that chroot `gpuforensics
# --version` answers and `gpuforensics analyze` of the seed-incident sample
# finds its known issue with the rules compiled into it (the source tree does
# not exist in there).
#
#   tests/deb_package_test.sh SOURCE_DIR BUILD_DIR
# The debootstrap rootfs and the downloaded .debs are cached in
# $GPUF_ROOTFS_CACHE (default /var/cache/gpuforensics) and reused through an
# overlay, so the cache is never changed by a run. Exit 77 (skipped) when
# the rootfs cannot be made (no debootstrap or no Debian mirror) or mounted.
# Needs root (debootstrap, mount, chroot).
set -euo pipefail
src=$1
build=$2
cache=${GPUF_ROOTFS_CACHE:-/var/cache/gpuforensics}
mirror=${GPUF_DEBIAN_MIRROR:-http://deb.debian.org/debian}
fail() { echo "deb_package_test: $*" >&2; exit 1; }

base=$cache/bookworm-minbase
if [ ! -x "$base/bin/sh" ]; then
  command -v debootstrap >/dev/null || { echo "deb_package_test: no debootstrap: skipped" >&2; exit 77; }
  mkdir -p "$cache"
  rm -rf "$base.tmp"
  if ! debootstrap --variant=minbase bookworm "$base.tmp" "$mirror" >"$cache/debootstrap.log" 2>&1; then
    echo "deb_package_test: debootstrap failed (see $cache/debootstrap.log): skipped" >&2
    rm -rf "$base.tmp"
    exit 77
  fi
  mv "$base.tmp" "$base"
fi
mkdir -p "$cache/apt-archives/partial"

work=$(mktemp -d)
root=$work/root
mounts=()
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}"; done
  rm -rf "$work"
}
trap cleanup EXIT
mount_in() { mount "$@"; mounts+=("${!#}"); }

cpack -G DEB -B "$work/pkg" --config "$build/CPackConfig.cmake" >/dev/null
deb=$(ls "$work"/pkg/gpuforensics_*_amd64.deb)
depends=$(dpkg-deb -f "$deb" Depends)
for lib in libarchive13 libsqlite3-0 libre2-9 libyaml-cpp0.7 libdate-tz3 libutf8proc2; do
  [[ $depends == *"$lib "* ]] || fail "Depends lacks $lib: $depends"
done

mkdir -p "$work/upper" "$work/overlay-work" "$root"
if ! mount -t overlay overlay -o "lowerdir=$base,upperdir=$work/upper,workdir=$work/overlay-work" "$root"; then
  echo "deb_package_test: this machine does not let us mount an overlay (an unprivileged container?): skipped" >&2
  exit 77
fi
mounts+=("$root")
mount_in -t proc proc "$root/proc"
mount_in --bind /dev "$root/dev"
mount_in --bind "$cache/apt-archives" "$root/var/cache/apt/archives"
cp /etc/resolv.conf "$root/etc/resolv.conf"
cp "$deb" "$root/tmp/"
cp "$src/samples/seed-incident.tar.zst" "$root/tmp/"
in_root() { env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin DEBIAN_FRONTEND=noninteractive chroot "$root" "$@"; }

in_root apt-get update -qq >"$work/apt.log" 2>&1 || fail "apt-get update in the rootfs: $(tail -3 "$work/apt.log")"
in_root apt-get install -y -qq --no-install-recommends "/tmp/$(basename "$deb")" >>"$work/apt.log" 2>&1 ||
  fail "apt-get install of the .deb: $(tail -5 "$work/apt.log")"
in_root dpkg -s gpuforensics | grep -q '^Status: install ok installed' || fail "dpkg does not list it installed"

want=$("$build/gpuforensics" --version)  # the version and the commit it was built from
got=$(in_root gpuforensics --version) || fail "gpuforensics --version failed in the rootfs"
[ "$got" = "$want" ] || fail "--version said '$got', want '$want'"
[ -d "$root$src" ] && fail "the source tree is visible in the rootfs"
status=0
in_root gpuforensics analyze /tmp/seed-incident.tar.zst >"$work/report" 2>"$work/err" || status=$?
[ $status = 1 ] || fail "analyze exited $status, want 1: $(cat "$work/err")"
grep -q dp-null-manager-after-nvml-failure "$work/report" || fail "the installed rules did not find the seed incident"
in_root gpuforensics-collect --version >/dev/null || fail "gpuforensics-collect does not run"
echo "deb_package_test: $(basename "$deb") installed with apt-get in a debootstrap rootfs; $got"
