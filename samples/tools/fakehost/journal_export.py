"""Builds real journal files: entries -> journal export format ->
systemd-journal-remote -> OUT/root/var/log/journal/<machine-id>/*.journal.

Export format: systemd docs/JOURNAL_EXPORT_FORMATS.md. journal-remote keeps
the entry's __REALTIME_TIMESTAMP, __MONOTONIC_TIMESTAMP and _BOOT_ID.
Determinism: keyed hashing is turned off (SYSTEMD_JOURNAL_KEYED_HASH=0) and
the two random header ids (file_id, seqnum_id) are overwritten with ids
derived from the scenario, so the same input gives the same bytes.
"""
import hashlib
import os
import struct
import subprocess

JOURNAL_REMOTE = "/lib/systemd/systemd-journal-remote"

MSG_STARTING = "7d4958e842da4a758f6c1cdc7b36dcc5"
MSG_STARTED = "39f53479d3a045ac8e11786248231fbf"
MSG_STOPPING = "de5b426a63be47a7b6ac3eaac82e2f6f"
MSG_STOPPED = "9d1aaa27d60140bd96365438aad20286"
MSG_UNIT_SUCCESS = "7ad2d189f7e94e70a38c781354912448"
MSG_UNIT_FAILED = "d9b373ed55a64feb8242e02dbe79a49c"
MSG_UNIT_PROCESS_EXIT = "98e322203f7a4ed290d09fe03c09fe15"
MSG_KERNEL_BOOT = "b07a249cd024414a82dd00cd181378ff"  # 'System start-up is now complete'? kept for reference


class Journal:
    def __init__(self, machine_id, hostname):
        self.machine_id = machine_id
        self.hostname = hostname
        self.entries = []   # (realtime_us, seq, fields)
        self._seq = 0

    def add(self, boot, realtime_us, fields):
        """boot: object with .id (32 hex) and .start_us; fields: dict or list
        of (name, value) pairs in the order they should be written."""
        mono = realtime_us - boot.start_us
        if mono < 0:
            raise ValueError("entry before boot start: %r" % (fields,))
        items = list(fields.items()) if isinstance(fields, dict) else list(fields)
        self._seq += 1
        self.entries.append((realtime_us, self._seq, boot, mono, items))

    def export_text(self):
        out = []
        for rt, _, boot, mono, items in sorted(self.entries, key=lambda e: (e[0], e[1])):
            lines = [
                b"__REALTIME_TIMESTAMP=%d\n" % rt,
                b"__MONOTONIC_TIMESTAMP=%d\n" % mono,
                b"_BOOT_ID=" + boot.id.encode() + b"\n",
            ]
            have = {k for k, _ in items}
            for k, v in items:
                lines.append(field(k, v))
            if "_MACHINE_ID" not in have:
                lines.append(field("_MACHINE_ID", self.machine_id))
            if "_HOSTNAME" not in have:
                lines.append(field("_HOSTNAME", self.hostname))
            out.append(b"".join(lines))
        return b"\n".join(out) + b"\n"

    def last_realtime(self):
        return max(e[0] for e in self.entries) if self.entries else 0

    def write(self, root, seed, name="system.journal"):
        d = os.path.join(root, "var/log/journal", self.machine_id)
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, name)
        if os.path.exists(path):
            os.unlink(path)
        env = dict(os.environ, SYSTEMD_JOURNAL_KEYED_HASH="0",
                   SYSTEMD_JOURNAL_COMPACT="0", SYSTEMD_LOG_LEVEL="warning")
        p = subprocess.run([JOURNAL_REMOTE, "--output=" + path,
                            "--compress=no", "--split-mode=none", "-"],
                           input=self.export_text(), env=env,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0:
            raise RuntimeError("systemd-journal-remote failed: %s"
                               % p.stderr.decode(errors="replace"))
        fix_ids(path, seed)
        m = self.last_realtime() * 1000
        os.utime(path, ns=(m, m))
        return path


def field(name, value):
    if isinstance(value, bytes):
        return name.encode() + b"\n" + struct.pack("<Q", len(value)) + value + b"\n"
    value = str(value)
    if "\n" in value or any(ord(c) < 32 and c != "\t" for c in value):
        b = value.encode()
        return name.encode() + b"\n" + struct.pack("<Q", len(b)) + b + b"\n"
    return ("%s=%s\n" % (name, value)).encode()


def fix_ids(path, seed):
    """Overwrite header file_id (offset 24) and seqnum_id (offset 72)."""
    fid = hashlib.md5(("file:" + seed).encode()).digest()
    sid = hashlib.md5(("seqnum:" + seed).encode()).digest()
    with open(path, "r+b") as f:
        head = f.read(8)
        if head != b"LPKSHHRH":
            raise RuntimeError("not a journal file: " + path)
        f.seek(24)
        f.write(fid)
        f.seek(72)
        f.write(sid)
