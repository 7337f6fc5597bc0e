#!/usr/bin/env python3
"""check_fakehost.py OUT_DIR [OUT_DIR...]

Sanity checks for built fake hosts: every stub answer that should be JSON or
XML parses, journalctl can read the journal, /proc/stat btime matches the
journal's current boot, canaries are planted. Prints one line per problem
and a closing 'N passed, N failed' line.
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def check(out):
    probs, n = [], 0
    book = json.load(open(os.path.join(out, "bin", "answers.json")))["answers"]
    for a in book:
        argv = a.get("argv") or []
        if not a.get("stdout"):
            continue
        data = open(os.path.join(out, "bin", "answers", a["stdout"]), "rb").read()
        n += 1
        if "json" in argv and a.get("rc", 0) == 0:
            try:
                json.loads(data)
            except ValueError as e:
                probs.append("%s %s: bad JSON: %s" % (a["tool"], argv[:3], e))
        if argv[:2] == ["-q", "-x"] and data and a.get("rc", 0) in (0, 15):
            try:
                ET.fromstring(data)
            except ET.ParseError as e:
                probs.append("nvidia-smi -q -x: bad XML: %s" % e)
    root = os.path.join(out, "root")
    p = subprocess.run(["journalctl", "--root", root, "--list-boots", "-o", "json"],
                       capture_output=True, text=True)
    n += 1
    if p.returncode != 0:
        probs.append("journalctl --list-boots failed: " + p.stderr.strip())
    else:
        boots = json.loads(p.stdout)
        cur = boots[-1]
        btime = int(open(os.path.join(root, "proc/stat")).read().split("btime ")[1].split()[0])
        bid = open(os.path.join(root, "proc/sys/kernel/random/boot_id")).read().strip()
        n += 2
        if bid.replace("-", "") != cur["boot_id"]:
            probs.append("boot_id %s != journal current boot %s" % (bid, cur["boot_id"]))
        if abs(cur["first_entry"] // 1_000_000 - btime) > 1:
            probs.append("btime %d vs first journal entry %d" % (btime, cur["first_entry"] // 10**6))
    hits = 0
    for dp, _, files in os.walk(root):
        for f in files:
            fp = os.path.join(dp, f)
            if os.path.isfile(fp) and not os.path.islink(fp):
                try:
                    if b"gpuf-canary" in open(fp, "rb").read():
                        hits += 1
                except OSError:
                    pass
    n += 1
    if hits < 4:
        probs.append("only %d files with canaries" % hits)
    return n, probs


def main(argv):
    total, bad = 0, 0
    for out in argv[1:]:
        n, probs = check(out)
        for pr in probs:
            print("%s: %s" % (os.path.basename(out.rstrip("/")), pr))
        total += n
        bad += len(probs)
    print("%d passed, %d failed" % (total - bad, bad))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
