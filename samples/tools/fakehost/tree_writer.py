"""Writes the fake host's file tree under OUT/root with fixed modes and mtimes.

Entries are collected first and written in one pass so that directory mtimes
can be set after their children (bottom-up), which keeps the tree identical
from one build to the next.
"""
import os
import socket
import stat


class Tree:
    def __init__(self, default_mtime_ns):
        self.default_mtime_ns = default_mtime_ns
        self.entries = {}      # relpath -> dict
        self.dir_mtimes = {}   # relpath -> ns

    def file(self, path, data, mtime_ns=None, mode=0o644):
        if isinstance(data, str):
            data = data.encode()
        self.entries[path.strip("/")] = dict(kind="file", data=data,
                                            mtime=mtime_ns, mode=mode)

    def symlink(self, path, target, mtime_ns=None):
        self.entries[path.strip("/")] = dict(kind="link", target=target,
                                            mtime=mtime_ns)

    def chardev(self, path, major, minor, mtime_ns=None, mode=0o666):
        self.entries[path.strip("/")] = dict(kind="chr", major=major,
                                            minor=minor, mtime=mtime_ns,
                                            mode=mode)

    def unix_socket(self, path, mtime_ns=None, mode=0o755):
        self.entries[path.strip("/")] = dict(kind="sock", mtime=mtime_ns,
                                            mode=mode)

    def mkdir(self, path, mtime_ns=None, mode=0o755):
        self.entries[path.strip("/")] = dict(kind="dir", mtime=mtime_ns,
                                            mode=mode)

    def has(self, path):
        return path.strip("/") in self.entries

    def write(self, root):
        os.makedirs(root, exist_ok=True)
        dirs = {""}
        for rel in sorted(self.entries):
            e = self.entries[rel]
            full = os.path.join(root, rel)
            parent = os.path.dirname(rel)
            while parent not in dirs:
                dirs.add(parent)
                parent = os.path.dirname(parent)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            m = e.get("mtime") or self.default_mtime_ns
            k = e["kind"]
            if k == "dir":
                os.makedirs(full, exist_ok=True)
                os.chmod(full, e["mode"])
                dirs.add(rel)
                continue
            if k == "file":
                with open(full, "wb") as f:
                    f.write(e["data"])
                os.chmod(full, e["mode"])
                os.utime(full, ns=(m, m))
            elif k == "link":
                os.symlink(e["target"], full)
                os.utime(full, ns=(m, m), follow_symlinks=False)
            elif k == "chr":
                os.mknod(full, stat.S_IFCHR | e["mode"],
                         os.makedev(e["major"], e["minor"]))
                os.chmod(full, e["mode"])
                os.utime(full, ns=(m, m))
            elif k == "sock":
                make_socket(full)
                os.chmod(full, e["mode"])
                os.utime(full, ns=(m, m))
        # Directories bottom-up: explicit mtime, else the newest child.
        newest = {}
        for rel, e in self.entries.items():
            if e["kind"] == "dir":
                continue
            m = e.get("mtime") or self.default_mtime_ns
            p = os.path.dirname(rel)
            newest[p] = max(newest.get(p, 0), m)
        for d in sorted(dirs, key=lambda p: -p.count("/") if p else 1):
            e = self.entries.get(d)
            m = (e or {}).get("mtime") or newest.get(d) or self.default_mtime_ns
            parent = os.path.dirname(d) if d else None
            if parent is not None and d:
                newest[parent] = max(newest.get(parent, 0), m)
            full = os.path.join(root, d) if d else root
            os.utime(full, ns=(m, m))


def make_socket(full):
    """Bind an AF_UNIX socket at full (relative bind dodges the 108-byte
    sun_path limit), close it; the socket inode stays."""
    d, name = os.path.split(full)
    old = os.getcwd()
    os.chdir(d)
    try:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.bind(name)
        s.close()
    finally:
        os.chdir(old)
