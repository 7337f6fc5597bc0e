#!/usr/bin/env bash
# scripts/release makes what it says, and deploy/ references what it makes:
#  - the static collector and the static plugin run with no library at all;
#  - the image is an OCI image layout whose blobs match their digests, whose
#    layer holds exactly deploy/image_rootfs.sh's files, whose config has
#    deploy/Containerfile's PATH, WORKDIR and CMD, and which a second pack of
#    the same file system gives again, digest for digest;
#  - that digest is the plugin's default --image and every rendered manifest's;
#  - the krew manifest names the archive built and its sha256; SHA256SUMS holds;
#  - deploy/ in the source tree has the same shape: every image
#    REPO:VERSION@sha256:<digest>, one digest, no placeholder left.
# The .deb is left out (--no-deb): tests/deb_package_test.sh makes and installs one.
#
#   tests/release_test.sh SOURCE_DIR BUILD_DIR
# Uses BUILD_DIR/static, the static build of tests/static_collector_test.sh.
set -euo pipefail
src=$1
build=$2
fail() { echo "release_test: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out=$work/dist
"$src/scripts/release" --out "$out" --static-dir "$build/static" --no-deb >"$work/log" 2>&1 ||
  fail "scripts/release failed: $(cat "$work/log")"
version=$(sed -n 's/^project(gpuforensics VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
repo=ghcr.io/gpuforensics/gpuforensics-collect

for f in "gpuforensics-collect-$version-linux-amd64" "kubectl-gpuforensics_${version}_linux_amd64.tar.gz" \
         "gpuforensics-collect-image-$version.oci.tar" PUSH.txt SHA256SUMS krew/gpuforensics.yaml \
         deploy/kubernetes/gpuforensics-collect-job.yaml deploy/kubernetes/gpuforensics-watch-daemonset.yaml; do
  [ -s "$out/$f" ] || fail "$f is missing"
done
(cd "$out" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS does not hold"

mkdir "$work/plugin"
tar -xzf "$out/kubectl-gpuforensics_${version}_linux_amd64.tar.gz" -C "$work/plugin"
[ "$(ls "$work/plugin")" = kubectl-gpuforensics ] || fail "the krew archive holds: $(ls "$work/plugin")"
for bin in "$out/gpuforensics-collect-$version-linux-amd64" "$work/plugin/kubectl-gpuforensics"; do
  readelf -l "$bin" | grep -q INTERP && fail "$bin asks for a dynamic loader"
  readelf -d "$bin" | grep -q NEEDED && fail "$bin needs shared libraries"
done

# The layout, checked blob by blob; the digest it says it has.
digest=$(python3 - "$out/gpuforensics-collect-image" "$src/deploy/Containerfile" "$version" <<'EOF'
import gzip, hashlib, io, json, os, sys, tarfile
layout, containerfile, version = sys.argv[1:4]
def blob(d):
    data = open(os.path.join(layout, "blobs", "sha256", d["digest"][7:]), "rb").read()
    assert "sha256:" + hashlib.sha256(data).hexdigest() == d["digest"] and len(data) == d["size"], d
    return data
assert json.load(open(os.path.join(layout, "oci-layout"))) == {"imageLayoutVersion": "1.0.0"}
index = json.load(open(os.path.join(layout, "index.json")))
[ref] = index["manifests"]
assert ref["annotations"]["org.opencontainers.image.ref.name"] == version, ref
manifest = json.loads(blob(ref))
assert manifest["mediaType"] == ref["mediaType"] == "application/vnd.oci.image.manifest.v1+json"
config = json.loads(blob(manifest["config"]))
[layer] = manifest["layers"]
assert layer["mediaType"] == "application/vnd.oci.image.layer.v1.tar+gzip"
tar = gzip.decompress(blob(layer))
assert config["rootfs"]["diff_ids"] == ["sha256:" + hashlib.sha256(tar).hexdigest()]
path = [l.split("=", 1)[1] for l in open(containerfile) if l.startswith("ENV PATH=")][-1].strip()
assert config["config"] == {"Env": ["PATH=" + path], "WorkingDir": "/out",
                            "Cmd": ["gpuforensics-collect", "--help"]}, config["config"]
with tarfile.open(fileobj=io.BytesIO(tar)) as t:
    names = sorted(m.name for m in t.getmembers())
    assert all(m.uid == 0 and m.gid == 0 for m in t.getmembers())
    assert t.getmember("usr/local/bin/gpuforensics").issym()
want = sorted(["bin", "bin/busybox", "bin/cat", "bin/chroot", "bin/ls", "bin/nsenter", "bin/sh", "bin/sleep",
               "bin/tar", "host", "out", "tmp", "usr", "usr/local", "usr/local/bin", "usr/local/bin/gpuforensics",
               "usr/local/bin/gpuforensics-collect"])
assert names == want, names
print(ref["digest"])
EOF
) || fail "the OCI image layout does not check out"
[[ $digest =~ ^sha256:[0-9a-f]{64}$ ]] || fail "image digest: $digest"

# Reproducible: the same file system packed again is the same image.
mkdir "$work/again"
tar -xf "$out/gpuforensics-collect-image-$version.oci.tar" -C "$work/again"
layer=$(python3 -c 'import json,sys; m=json.load(open(sys.argv[1]))["manifests"][0]["digest"][7:]; print(json.load(open(sys.argv[2]+m))["layers"][0]["digest"][7:])' \
        "$work/again/index.json" "$work/again/blobs/sha256/")
mkdir "$work/fs"
tar -xzf "$work/again/blobs/sha256/$layer" -C "$work/fs"
# The times scripts/release stamps: the commit's.
again=$(SOURCE_DATE_EPOCH=$(git -C "$src" log -1 --format=%ct 2>/dev/null || echo 0) \
        python3 "$src/deploy/oci_image.py" "$work/fs" "$src/deploy/Containerfile" "$version" "$work/repacked")
[ "$again" = "$digest" ] || fail "the same file system packed again is $again, not $digest"

pinned="$repo:$version@$digest"
# Written whole first: grep -q would close the pipe at its first match (pipefail).
"$work/plugin/kubectl-gpuforensics" collect node/n --dry-run -o json >"$work/dry-run.json"
grep -q "\"image\": \"$pinned\"" "$work/dry-run.json" || fail "the plugin's default image is not $pinned"
for f in "$out"/deploy/kubernetes/*.yaml; do
  if grep -q 'image:' "$f"; then
    [ "$(grep -E '^ *image:' "$f" | sed -E 's/^ *image: //' | sort -u)" = "$pinned" ] ||
      fail "$(basename "$f") does not pin $pinned"
  fi
done
sha=$(sha256sum "$out/kubectl-gpuforensics_${version}_linux_amd64.tar.gz" | cut -d' ' -f1)
grep -q "^    sha256: $sha\$" "$out/krew/gpuforensics.yaml" || fail "the krew manifest does not carry the archive's sha256"
grep -q "^    uri: https://.*/v$version/kubectl-gpuforensics_${version}_linux_amd64.tar.gz\$" "$out/krew/gpuforensics.yaml" ||
  fail "the krew manifest's uri does not name the archive"
grep -q "$digest" "$out/PUSH.txt" || fail "PUSH.txt does not name the digest"

# deploy/ in the source tree: what a release run wrote there, no placeholder.
images=$(grep -hE '^ *image:' "$src"/deploy/kubernetes/*.yaml | sed -E 's/^ *image: //' | sort -u)
[[ $images =~ ^$repo:$version@sha256:[0-9a-f]{64}$ ]] || fail "deploy/kubernetes names the images: $images"
grep -qE "^    sha256: [0-9a-f]{64}\$" "$src/deploy/krew/gpuforensics.yaml" && \
  ! grep -q "sha256: 0\{64\}" "$src/deploy/krew/gpuforensics.yaml" || fail "deploy/krew has no archive sha256"
grep -rn 'IMAGE' "$src"/deploy/kubernetes/*.yaml && fail "a manifest still says IMAGE"
echo "release_test: $version, image $digest, plugin and manifests pin it"
