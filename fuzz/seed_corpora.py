#!/usr/bin/env python3
"""Writes each fuzz target's seed corpus under OUT/<target>/, from the sample
bundles (whole, as tar, and member by member), tests/fixtures/ and rules/.

    fuzz/seed_corpora.py OUT

Targets that drive several parsers take a selector first byte (see the
target's .cc); the seeds carry it. Nothing here is committed: the corpora are
generated anew from the files they come from.
"""
import glob
import hashlib
import io
import os
import re
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "tests", "fixtures", "formats")

# Sample bundle members by logical name -> (target, selector byte or None).
MEMBER_TARGETS = {
    "plugin.devices_list": ("cgroup_facts", 0),
    "cgroup.mountinfo": ("cgroup_facts", 1),
    "plugin.systemd_scope": ("cgroup_facts", 2),
    "plugin.bpftool_cgroup": ("cgroup_facts", 3),
    "runtime.crictl_ps": ("crictl_json", 0),
    "runtime.crictl_pods": ("crictl_json", 1),
    "plugin.inspect": ("crictl_json", 2),
    "journal.containerd": ("journal_json", None),
    "journal.kernel": ("journal_json", None),
    "journal.kubelet": ("journal_json", None),
    "journal.systemd": ("journal_json", None),
    "journal.nvidia_fabricmanager": ("journal_json", None),
    "k8s.node": ("kube_node", None),
    "dev.char_links": ("listing", None),
    "dev.nvidia_nodes": ("listing", None),
    "host.nvidia_smi_list": ("nvidia_smi_list", None),
    "host.dmesg": ("kernel_ring", None),
    "plugin.nvidia_smi_list": ("nvidia_smi_list", None),
    "host.nvidia_smi_query_xml": ("nvidia_smi_xml", None),
    "plugin.bpf_device_program": ("bpf_device_program", None),
    "plugin.log": ("plugin_log", None),
    "driver.version": ("proc_nvidia", 0),
    "driver.gpu_information": ("proc_nvidia", 1),
    "kernel.devices": ("proc_nvidia", 2),
    "pci.nvidia_functions": ("proc_nvidia", 3),
    "config.containerd": ("runtime_config", 0),
    "config.nvidia_container_runtime": ("runtime_config", 1),
    "config.kubelet": ("runtime_config", 3),
    "kubelet.checkpoint": ("runtime_config", 4),
    "versions.containerd": ("version_strings", None),
    "versions.crictl": ("version_strings", None),
    "versions.kubelet": ("version_strings", None),
    "versions.nvidia_container_cli": ("version_strings", None),
    "versions.nvidia_ctk": ("version_strings", None),
    "versions.runc": ("version_strings", None),
}

# Members the redactor is seeded with, after a learned hostname line.
REDACTOR_SEEDS = {"k8s.node", "plugin.log", "plugin.inspect", "runtime.crictl_ps", "journal.kubelet",
                  "config.kubelet", "host.hostname"}

# Real-format fixtures by file name pattern -> (target, selector byte or None).
FIXTURE_TARGETS = [
    (r"^cgroupv1-devices-list", "cgroup_facts", 0),
    (r"^cgroup-hybrid-mount", "cgroup_facts", 1),
    (r"^bpftool", "cgroup_facts", 3),
    (r"^cri-log-file-format", "cri_log", 0),
    (r"^crictl-logs-t", "cri_log", 1),
    (r"^crictl-ps", "crictl_json", 0),
    (r"^crictl-pods", "crictl_json", 1),
    (r"^crictl-inspect", "crictl_json", 2),
    (r"^ctr-", "crictl_json", 3),
    (r"^journalctl-o-json", "journal_json", None),
    (r"^(klog|kubelet-klog|device-plugin)", "klog", None),
    (r"^(kubelet-klog|systemd-msgs)", "kubelet_log", None),
    (r"^(ls-l|dev-char)", "listing", None),
    (r"^nvidia-smi-err", "nvidia_smi_error", 1),
    (r"^nvidia-smi-table", "nvidia_smi_error", 0),
    (r"^nvidia-smi-L", "nvidia_smi_list", None),
    (r"^nvidia-smi-qx", "nvidia_smi_xml", None),
    (r"^device-plugin", "plugin_log", None),
    (r"^proc-driver-nvidia-version", "proc_nvidia", 0),
    (r"^containerd-config", "runtime_config", 0),
    (r"^crio-conf", "runtime_config", 2),
    (r"^versions_", "version_strings", None),
    # imported_text: the selector byte picks the importer's conversion (fuzz/imported_text_fuzzer.cc)
    (r"^ls-l-|^dev-char-symlinks_list", "imported_text", 3 | 0x40),
    (r"^dmesg-", "imported_text", 2),
    (r"^kernel-nvrm", "imported_text", 1 | 0x20),
    (r"^device-plugin_", "imported_text", 5),
    (r"^crictl-inspect", "imported_text", 9),
    (r"^nvidia-smi-L", "imported_text", 6),
]


def write_seed(out, target, data, selector=None):
    if selector is not None:
        data = bytes([selector]) + data
    folder = os.path.join(out, target)
    os.makedirs(folder, exist_ok=True)
    name = hashlib.sha1(data).hexdigest()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def json_lines_to_export(data):
    """journalctl -o json lines back as -o export: text fields, binary ones for the rest."""
    import json
    import struct
    out = bytearray()
    for line in data.splitlines():
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict):
            continue
        for name, value in entry.items():
            values = value if isinstance(value, list) and value and not isinstance(value[0], int) else [value]
            for v in values:
                raw = bytes(v) if isinstance(v, list) else str(v).encode()
                if b"\n" in raw or any(b < 0x20 for b in raw):
                    out += name.encode() + b"\n" + struct.pack("<Q", len(raw)) + raw + b"\n"
                else:
                    out += name.encode() + b"=" + raw + b"\n"
        out += b"\n"
    return bytes(out)


def seed_from_samples(out):
    for bundle in sorted(glob.glob(os.path.join(ROOT, "samples", "*.tar.zst"))):
        with open(bundle, "rb") as f:
            write_seed(out, "bundle_reader", f.read())
        tar_bytes = subprocess.run(["zstd", "-dc", bundle], check=True, capture_output=True).stdout
        write_seed(out, "bundle_tar", tar_bytes)
        with tarfile.open(fileobj=io.BytesIO(tar_bytes)) as tar:
            for member in tar.getmembers():
                if not member.isfile():
                    continue
                data = tar.extractfile(member).read()
                if member.name == "manifest.json":
                    write_seed(out, "manifest", data)
                    continue
                m = re.match(r"artifacts/\d+-(.+)\.(content|stdout)$", member.name)
                if m and m.group(1) in REDACTOR_SEEDS:
                    write_seed(out, "text_redactor", b"gpu-node-7\n" + data)
                if m and m.group(1).startswith("journal."):
                    write_seed(out, "journal_export", json_lines_to_export(data))
                if m and m.group(1) in MEMBER_TARGETS:
                    target, selector = MEMBER_TARGETS[m.group(1)]
                    write_seed(out, target, data, selector)


def seed_from_fixtures(out):
    for path in sorted(glob.glob(os.path.join(FIXTURES, "*"))):
        name = os.path.basename(path)
        with open(path, "rb") as f:
            data = f.read()
        for pattern, target, selector in FIXTURE_TARGETS:
            if re.search(pattern, name):
                write_seed(out, target, data, selector)


def seed_from_corpus(out):
    """Every saved output of tests/corpus: the saved-file recogniser reads them all, kubectl's parsers theirs."""
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "corpus", "*", "*"))):
        if os.path.basename(path) == "case.yaml":
            continue
        with open(path, "rb") as f:
            data = f.read()
        write_seed(out, "saved_input", data)
        if re.search(rb"kubectl|Events:|Warning  |Allocatable|allocatable", data):
            write_seed(out, "kube_text", data)


def seed_rules(out):
    for path in sorted(glob.glob(os.path.join(ROOT, "rules", "*.yaml"))):
        with open(path, "rb") as f:
            write_seed(out, "rule_parser", f.read())


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fuzz/seed_corpora.py OUT")
    out = sys.argv[1]
    seed_from_samples(out)
    seed_from_fixtures(out)
    seed_from_corpus(out)
    seed_rules(out)
    for target in sorted(os.listdir(out)):
        print(f"{target}: {len(os.listdir(os.path.join(out, target)))} seeds")


if __name__ == "__main__":
    main()
