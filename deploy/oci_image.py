#!/usr/bin/env python3
"""The collector image as an OCI image layout, without an image builder.

  deploy/oci_image.py ROOTFS CONTAINERFILE TAG OUT_DIR

ROOTFS is the file system deploy/image_rootfs.sh lays out; the image's
config (ENV PATH, WORKDIR, CMD) is read from the final stage of
CONTAINERFILE, so the two ways of building the image say the same. OUT_DIR
becomes an OCI image layout (oci-layout, index.json, blobs/sha256/) with one
gzip layer, the manifest tagged TAG (org.opencontainers.image.ref.name).

The layer is reproducible: entries sorted, owned by 0:0, every mtime
SOURCE_DATE_EPOCH (default 0), gzip without name or time. The same ROOTFS
therefore always gives the same manifest digest, which this prints as
sha256:<hex> on stdout: the digest deploy/ pins and the registry keeps when
the layout is pushed unchanged (`skopeo copy --preserve-digests`).
"""
import gzip
import hashlib
import io
import json
import os
import re
import sys
import tarfile
import time


def containerfile_config(path):
    """ENV PATH, WORKDIR and CMD of the last stage of a Containerfile."""
    stage = open(path).read().split("\nFROM ")[-1]
    config = {}
    for line in stage.splitlines():
        if line.startswith("ENV "):
            name, _, value = line[4:].partition("=")
            config.setdefault("Env", []).append(f"{name.strip()}={value.strip()}")
        elif line.startswith("WORKDIR "):
            config["WorkingDir"] = line[8:].strip()
        elif line.startswith("CMD "):
            config["Cmd"] = json.loads(line[4:])
    return config


def layer_tar(rootfs, epoch):
    """The uncompressed layer: every entry of ROOTFS, sorted, normalized."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
        paths = []
        for dirpath, dirnames, filenames in os.walk(rootfs):
            dirnames.sort()
            for name in sorted(dirnames + filenames):
                paths.append(os.path.join(dirpath, name))
        for path in sorted(paths, key=lambda p: os.path.relpath(p, rootfs)):
            info = tar.gettarinfo(path, arcname=os.path.relpath(path, rootfs))
            info.uid = info.gid = 0
            info.uname = info.gname = "root"
            info.mtime = epoch
            info.pax_headers = {}
            if info.isreg():
                with open(path, "rb") as f:
                    tar.addfile(info, f)
            else:
                tar.addfile(info)
    return out.getvalue()


def gzipped(data):
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0, compresslevel=9) as z:
        z.write(data)
    return out.getvalue()


def write_blob(out_dir, data):
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    path = os.path.join(out_dir, "blobs", "sha256", digest[7:])
    with open(path, "wb") as f:
        f.write(data)
    return {"digest": digest, "size": len(data)}


def canonical(obj):
    return json.dumps(obj, sort_keys=True, separators=(",", ":")).encode()


def main():
    rootfs, containerfile, tag, out_dir = sys.argv[1:5]
    if not re.fullmatch(r"[A-Za-z0-9_][A-Za-z0-9._-]{0,127}", tag):
        sys.exit(f"oci_image: '{tag}' is not a valid tag")
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", "0"))
    os.makedirs(os.path.join(out_dir, "blobs", "sha256"), exist_ok=True)
    tar = layer_tar(rootfs, epoch)
    layer = write_blob(out_dir, gzipped(tar))
    created = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(epoch))
    config = write_blob(out_dir, canonical({
        "architecture": "amd64", "os": "linux", "created": created,
        "config": containerfile_config(containerfile),
        "rootfs": {"type": "layers", "diff_ids": ["sha256:" + hashlib.sha256(tar).hexdigest()]},
        "history": [{"created": created, "created_by": "deploy/image_rootfs.sh, deploy/oci_image.py"}]}))
    manifest = write_blob(out_dir, canonical({
        "schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
        "config": dict(mediaType="application/vnd.oci.image.config.v1+json", **config),
        "layers": [dict(mediaType="application/vnd.oci.image.layer.v1.tar+gzip", **layer)]}))
    with open(os.path.join(out_dir, "oci-layout"), "w") as f:
        f.write('{"imageLayoutVersion":"1.0.0"}')
    with open(os.path.join(out_dir, "index.json"), "wb") as f:
        f.write(canonical({
            "schemaVersion": 2, "mediaType": "application/vnd.oci.image.index.v1+json",
            "manifests": [dict(mediaType="application/vnd.oci.image.manifest.v1+json",
                               annotations={"org.opencontainers.image.ref.name": tag}, **manifest)]}))
    print(manifest["digest"])


if __name__ == "__main__":
    main()
