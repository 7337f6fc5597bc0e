#!/usr/bin/env python3
"""Self-test of tests/fakehost/stub: argv matching and the three test
behaviours (hang, fork-hold, flood). Needs only python3; no root.
Prints 'N passed, N failed' and exits non-zero on failure."""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
results = []


def ok(name, cond):
    results.append((name, bool(cond)))
    if not cond:
        print("FAIL: " + name)


def setup(d):
    os.makedirs(os.path.join(d, "answers"))
    blobs = {"a.out": b"crictl version v1.31.1\n", "b.out": b"{}\n", "err.out": b"boom\n",
             "x.out": b"partial\n"}
    for k, v in blobs.items():
        with open(os.path.join(d, "answers", k), "wb") as f:
            f.write(v)
    book = {"answers": [
        {"tool": "crictl", "argv": ["--version"], "stdout": "a.out", "rc": 0},
        {"tool": "crictl", "argv": ["inspect", "-o", "json", "ab*"], "stdout": "b.out", "rc": 0},
        {"tool": "crictl", "argv": ["exec", "**"], "stderr": "err.out", "rc": 1},
        {"tool": "nvidia-smi", "argv": ["-L"], "stdout": "x.out", "behaviour": "hang"},
        {"tool": "nvidia-smi", "argv": ["-q"], "stdout": "x.out", "behaviour": "fork-hold", "hold_s": 3},
        {"tool": "nvidia-smi", "argv": ["flood"], "behaviour": "flood", "flood_bytes": 3000000, "rc": 3},
    ]}
    with open(os.path.join(d, "answers.json"), "w") as f:
        json.dump(book, f)
    with open(os.path.join(HERE, "stub")) as f:
        body = f.read().split("\n", 1)[1]
    with open(os.path.join(d, "_stub"), "w") as f:
        f.write("#!%s\n%s" % (sys.executable, body))
    os.chmod(os.path.join(d, "_stub"), 0o755)
    for t in ("crictl", "nvidia-smi"):
        os.symlink("_stub", os.path.join(d, t))


def run(d, tool, *argv, **kw):
    return subprocess.run([os.path.join(d, tool)] + list(argv), capture_output=True,
                          env={}, **kw)


def main():
    with tempfile.TemporaryDirectory() as d:
        setup(d)
        p = run(d, "crictl", "--version")
        ok("exact argv", p.returncode == 0 and p.stdout == b"crictl version v1.31.1\n")
        p = run(d, "crictl", "inspect", "-o", "json", "abcdef")
        ok("glob element", p.returncode == 0 and p.stdout == b"{}\n")
        p = run(d, "crictl", "inspect", "-o", "json", "zz")
        ok("no match -> rc 1", p.returncode == 1 and b"unsupported" in p.stderr)
        p = run(d, "crictl", "exec", "abc", "nvidia-smi", "-L")
        ok("** tail", p.returncode == 1 and p.stderr == b"boom\n")
        p = run(d, "crictl", "--version", "extra")
        ok("extra arg does not match", p.returncode == 1)
        # hang: SIGTERM ignored, SIGKILL ends it
        h = subprocess.Popen([os.path.join(d, "nvidia-smi"), "-L"], stdout=subprocess.PIPE,
                             env={}, start_new_session=True)
        time.sleep(0.5)
        os.killpg(h.pid, signal.SIGTERM)
        time.sleep(0.5)
        ok("hang survives SIGTERM", h.poll() is None)
        os.killpg(h.pid, signal.SIGKILL)
        h.wait()
        ok("hang dies on SIGKILL", h.returncode == -signal.SIGKILL)
        # fork-hold: parent exits at once, EOF only after the child is gone
        t0 = time.time()
        f = subprocess.Popen([os.path.join(d, "nvidia-smi"), "-q"], stdout=subprocess.PIPE,
                             env={})
        f.wait()
        parent_s = time.time() - t0
        out = f.stdout.read()
        eof_s = time.time() - t0
        ok("fork-hold parent exits fast", parent_s < 2)
        ok("fork-hold EOF waits for child", eof_s >= 2.5 and out == b"partial\n")
        p = run(d, "nvidia-smi", "flood")
        ok("flood size and rc", len(p.stdout) == 3000000 and p.returncode == 3)
        with open(os.path.join(d, "argv.log")) as lf:
            calls = [json.loads(line) for line in lf]
        ok("argv logged", calls[0]["tool"] == "crictl" and calls[0]["argv"] == ["--version"])
    passed = sum(1 for _, r in results if r)
    print("%d passed, %d failed" % (passed, len(results) - passed))
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
