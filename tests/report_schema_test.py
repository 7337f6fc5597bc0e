"""JSON reports are valid against schema/report.schema.json, checked by a
real JSON Schema validator (Draft 2020-12): types, enums and required fields
at every level. A report broken on purpose must fail, so the check is shown
to bite.

usage: python3 report_schema_test.py [REPORT.json...]
  without arguments: every JSON report golden of samples/ (the
  representative samples that keep one); tests/samples_test.sh passes the
  reports of every sample. Exit 77 when jsonschema is absent.
"""
import copy
import glob
import json
import os
import sys

try:
    import jsonschema
except ImportError:
    print("# skipped: python3-jsonschema is not installed")
    sys.exit(77)

top = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
with open(os.path.join(top, "schema", "report.schema.json")) as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

failed = 0
goldens = sys.argv[1:] or sorted(glob.glob(os.path.join(top, "samples", "*", "*", "expected_report.json")))
for path in goldens:
    with open(path) as f:
        report = json.load(f)
    errors = sorted(validator.iter_errors(report), key=lambda e: list(e.path))
    name = os.path.basename(path) if sys.argv[1:] else os.path.basename(os.path.dirname(path))
    if errors:
        failed += 1
        print("not ok - %s: %s at %s" % (name, errors[0].message, "/".join(map(str, errors[0].path))))
    else:
        print("ok - %s" % name)

if not goldens:
    failed += 1
    print("not ok - no JSON report to check")
else:
    with open(goldens[0]) as f:
        broken = json.load(f)
    broken = copy.deepcopy(broken)
    broken["chain"][0]["status"] = "fine"
    broken["coverage"]["empty"] = [{"artifact": 1}]
    if validator.is_valid(broken):
        failed += 1
        print("not ok - a report with a bad status and a bad note still validates")
    else:
        print("ok - a broken report is rejected")

print("%d failed" % failed)
sys.exit(1 if failed else 0)
