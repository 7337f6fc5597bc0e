#!/usr/bin/env python3
"""The corpus of saved outputs (tests/corpus/README.md), analyzed as users would.

For every case, `gpuforensics analyze --format json DIR` over a copy of its
output files (the folder import path; case.yaml, which a user never has and
which quotes the thread's words, left out) must
  - report every id of expect.findings (fail or warn);
  - report none of expect.not_findings, and expect.tolerated ids only at
    confidence "possible";
  - where expect.cannot_tell is set, say so: a "cannot tell" entry or a
    finding's missing evidence naming one of the logical artifacts the case
    names as deciding (the report's own output, never this script's);
  - list every output file of the case in coverage, read or not.
The case format is checked first (keys, rule ids, files and views).

Cases whose expectation needs a change the corpus showed but that is not
made yet are expected to fail, each with the rule and the reason
(EXPECTED_FAILURES); one that starts passing fails the test until it is taken
off the list.

usage: corpus_test.py GPUFORENSICS_BINARY SOURCE_DIR
       corpus_test.py GPUFORENSICS_BINARY SOURCE_DIR --measure FOLDER
  --measure scores a set-aside folder (tests/corpus-setaside,
  tests/nearmiss-setaside: cases no rule was tuned on) with the same checks,
  and prints how many positives were found and how many near misses stayed
  clean; it always exits 0 once the cases are well formed.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

# case -> (rule id, what in the rule or the reader keeps the expectation from holding)
EXPECTED_FAILURES = {
    "nct-48-notice-k8s-loop-pod-daemon-reload": (
        "ctk-daemon-reload-device-cgroup-loss",
        "a `systemctl daemon-reload` typed between two outputs of a transcript is not read as the reload event"),
}

# Problems an expected failure may show: its rule named, or a cannot-tell that names the wrong capture.
def expected_problem(problem, rule):
    return rule in problem or problem.startswith("cannot tell names none of")

CASE_KEYS = {"source", "source_comments", "title", "retrieved", "files", "view", "diagnosis",
             "confidence_of_thread", "expect", "needs_rule", "notes"}
EXPECT_KEYS = {"findings", "not_findings", "tolerated", "cannot_tell"}
# Cases written from domain knowledge (source: constructed) say what their
# wording rests on and which weakness they test, instead of a thread.
CONSTRUCTED_KEYS = {"basis", "class"}


# Words a case's cannot_tell uses for a capture, and the artifacts they are.
CAPTURE_WORDS = {
    "nvidia-smi -L": {"host.nvidia_smi_list", "plugin.nvidia_smi_list"},
    "host nvidia-smi": {"host.nvidia_smi_list"},
    "devices.list": {"plugin.devices_list"},
    "lspci": {"pci.nvidia_functions"},
    "dmesg": {"journal.kernel"},
    "kernel log": {"journal.kernel"},
    "kubelet log": {"journal.kubelet"},
    "plugin log": {"plugin.log", "plugin.crictl_logs"},
    "crictl inspect": {"plugin.inspect"},
    "systemctl status": {"systemd.units"},
    "kubectl describe pod": {"k8s.pod_text"},
}


def deciding_captures(text, names):
    """The logical artifacts a case's cannot_tell names, by name or by the command that takes them."""
    found = set(re.findall(r"[a-z0-9_]+\.[a-z0-9_]+", text)) & names
    for words, artifacts in CAPTURE_WORDS.items():
        if words in text:
            found |= artifacts
    return found


def artifact_names(source):
    """Logical artifact names schema/bundle.md documents."""
    text = open(os.path.join(source, "schema", "bundle.md"), encoding="utf-8").read()
    return set(re.findall(r"`([a-z0-9_]+\.[a-z0-9_]+)`", text))


def case_problems(name, case, folder, rule_ids):
    problems = []
    allowed = CASE_KEYS | (CONSTRUCTED_KEYS if case.get("source") == "constructed" else set())
    unknown = set(case) - allowed
    if unknown:
        problems.append("unknown keys %s" % sorted(unknown))
    expect = case.get("expect") or {}
    if set(expect) - EXPECT_KEYS:
        problems.append("unknown expect keys %s" % sorted(set(expect) - EXPECT_KEYS))
    lists = {k: set(expect.get(k) or []) for k in ("findings", "not_findings", "tolerated")}
    for key, ids in lists.items():
        if ids - rule_ids:
            problems.append("%s names no rule: %s" % (key, sorted(ids - rule_ids)))
    for a in lists:
        for b in lists:
            if a < b and lists[a] & lists[b]:
                problems.append("%s and %s overlap: %s" % (a, b, sorted(lists[a] & lists[b])))
    on_disk = set(os.listdir(folder)) - {"case.yaml"}
    if set(case.get("files") or {}) != on_disk:
        problems.append("files: lists %s, folder holds %s" % (sorted(case.get("files") or {}), sorted(on_disk)))
    if set(case.get("view") or {}) != on_disk:
        problems.append("view: lists %s, folder holds %s" % (sorted(case.get("view") or {}), sorted(on_disk)))
    return problems


def report_problems(case, report, files, names):
    problems = []
    expect = case["expect"]
    found = {f["id"]: f for f in report["findings"]}
    for rule in expect.get("findings") or []:
        if rule not in found:
            problems.append("missing finding %s" % rule)
    for rule in expect.get("not_findings") or []:
        if rule in found:
            problems.append("reported %s (%s): %s" % (rule, found[rule]["confidence"], found[rule]["summary"]))
    for rule in expect.get("tolerated") or []:
        if rule in found and found[rule]["confidence"] != "possible":
            problems.append("tolerated %s only as possible, reported %s" % (rule, found[rule]["confidence"]))
    deciding = deciding_captures(expect.get("cannot_tell") or "", names)
    if (expect.get("cannot_tell") or "").strip():
        # What the report says it lacks: a "cannot tell" entry, a finding's
        # missing evidence; or more of what it has (a longer log of the
        # same), when a finding says what that log did not show.
        said = set()
        for c in report.get("cannot_tell", []):
            said.update(c["captures"])
        for f in report["findings"]:
            for line in f["missing_evidence"]:
                said.update(re.findall(r"([a-z0-9_]+\.[a-z0-9_]+) \(", line))
            if f["missing_evidence"]:
                for entry in report["coverage"].get("input_files", []):
                    said.update(entry["artifacts"])
        if not said:
            problems.append("no cannot-tell in the report")
        elif deciding and not deciding & said and not case.get("needs_rule"):
            # A cause no rule covers (needs_rule) has no rule to ask for its capture.
            problems.append("cannot tell names none of %s (it names %s)" % (sorted(deciding), sorted(said)))
    listed = [f["path"] for f in report["coverage"].get("input_files", [])]
    for name in sorted(files):
        if not any(p == name or p.startswith(name + " [") for p in listed):
            problems.append("%s is not in coverage" % name)
    return problems


def analyze_case(binary, folder, case, names):
    """The problems of one well-formed case's report."""
    outputs = sorted(set(os.listdir(folder)) - {"case.yaml"})
    with tempfile.TemporaryDirectory() as copy:
        for f in outputs:
            shutil.copy2(os.path.join(folder, f), os.path.join(copy, f))
        run = subprocess.run([binary, "analyze", "--format", "json", copy], capture_output=True, text=True)
    if run.returncode not in (0, 1):
        return ["analyze exit status %d: %s" % (run.returncode, run.stderr.strip())]
    return report_problems(case, json.loads(run.stdout), outputs, names)


def measure(binary, source, folder):
    """Scores a set-aside folder: positives found, near misses clean."""
    rule_ids = {f[:-5] for f in os.listdir(os.path.join(source, "rules")) if f.endswith(".yaml")}
    names = artifact_names(source)
    cases = sorted(d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d)))
    malformed = 0
    score = {"positive": [0, 0], "negative": [0, 0], "cannot_tell": [0, 0], "whole": [0, 0]}
    for name in cases:
        path = os.path.join(folder, name)
        case = yaml.safe_load(open(os.path.join(path, "case.yaml"), encoding="utf-8"))
        problems = case_problems(name, case, path, rule_ids)
        if problems:
            malformed += 1
            print("not ok - %s: malformed: %s" % (name, "; ".join(problems)))
            continue
        problems = analyze_case(binary, path, case, names)
        expect = case["expect"]
        kinds = []
        if expect.get("findings"):
            kinds.append(("positive", not any(p.startswith("missing finding") for p in problems)))
        if expect.get("not_findings") or expect.get("tolerated"):
            kinds.append(("negative", not any(p.startswith(("reported", "tolerated")) for p in problems)))
        if (expect.get("cannot_tell") or "").strip():
            kinds.append(("cannot_tell", not any("cannot tell" in p or "cannot-tell" in p for p in problems)))
        kinds.append(("whole", not problems))
        for kind, good in kinds:
            score[kind][0] += good
            score[kind][1] += 1
        print("%s - %s%s" % ("ok" if not problems else "not ok", name, "" if not problems else ": " + "; ".join(problems)))
    print("# %s: %d cases" % (os.path.basename(os.path.normpath(folder)), len(cases)))
    for kind, words in (("positive", "positives found (every expected finding)"),
                        ("negative", "near misses clean (no not_findings, tolerated only as possible)"),
                        ("cannot_tell", "cannot-tell named the deciding capture"),
                        ("whole", "cases passing every check")):
        print("#   %-64s %d of %d" % (words, score[kind][0], score[kind][1]))
    return 1 if malformed else 0


def main():
    binary, source = sys.argv[1], sys.argv[2]
    if len(sys.argv) == 5 and sys.argv[3] == "--measure":
        return measure(binary, source, sys.argv[4])
    corpus = os.path.join(source, "tests", "corpus")
    rule_ids = {f[:-5] for f in os.listdir(os.path.join(source, "rules")) if f.endswith(".yaml")}
    names = artifact_names(source)
    failed = 0
    cases = sorted(d for d in os.listdir(corpus) if os.path.isdir(os.path.join(corpus, d)))
    if len(cases) < 60:
        print("not ok - the corpus holds %d cases, fewer than 60" % len(cases))
        return 1
    for name in EXPECTED_FAILURES:
        if name not in cases:
            print("not ok - %s: on the expected-failure list but not in the corpus" % name)
            failed += 1
    for number, name in enumerate(cases, 1):
        folder = os.path.join(corpus, name)
        case = yaml.safe_load(open(os.path.join(folder, "case.yaml"), encoding="utf-8"))
        problems = case_problems(name, case, folder, rule_ids)
        if not problems:
            problems = analyze_case(binary, folder, case, names)
        expected = EXPECTED_FAILURES.get(name)
        if expected:
            # Only the listed rule may fail; anything else is a regression.
            listed = [p for p in problems if expected_problem(p, expected[0])]
            problems = [p for p in problems if not expected_problem(p, expected[0])]
            if not listed and not problems:
                print("not ok %d - %s # passes now: take it off EXPECTED_FAILURES" % (number, name))
                failed += 1
                continue
            if not problems:
                print("ok %d - %s # expected failure (%s: %s): %s" % (number, name, expected[0], expected[1],
                                                                       "; ".join(listed)))
                continue
        if problems:
            print("not ok %d - %s: %s" % (number, name, "; ".join(problems)))
            failed += 1
        else:
            print("ok %d - %s" % (number, name))
    print("# %d cases, %d failed, %d expected failures" % (len(cases), failed, len(EXPECTED_FAILURES)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
