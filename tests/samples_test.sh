#!/bin/sh
# Every sample bundle (samples/scenarios/ and the platform profiles of
# samples/platforms/) against what its scenario says it shows:
#  - the bundle verifies and analyzes;
#  - the findings are exactly the expected rule ids (expected_findings), for
#    every rule the pack has (ids without a rule file yet are listed as
#    pending, not passed);
#  - the text report holds every line of expected_lines: the chain verdict,
#    the root cause, the next action and the lines the scenario is about;
#  - the JSON report is valid against schema/report.schema.json;
#  - the few representative samples that keep full-report goldens
#    (expected_report.txt, .md, .json beside the scenario) match them
#    (rewrite on purpose with UPDATE_GOLDEN=1 after a deliberate report
#    change; UPDATE_LINES=1 rewrites expected_lines from the reports); the
#    number of rules checked is the pack's, not the sample's, and reads "N"
#    in them (report_lines_test.cc holds the sentence with its number);
#  - the healthy node, and every -healthy platform profile, yields nothing at
#    medium severity or above (and the profiles a chain that is not BROKEN);
#  - `timeline` shows exactly the milestone events of `timeline --all`;
#  - the seed incident regenerates byte for byte from its source.
#
# usage: samples_test.sh GPUFORENSICS_BINARY
set -u
gpuforensics=$1
top=$(cd "$(dirname "$0")/.." && pwd)
passed=0
failed=0
pending=0
work=$(mktemp -d /tmp/gpuf-samples-test-XXXXXX)
trap 'rm -rf "$work"' EXIT

mkdir "$work/json"

# What a sample's expected_lines starts as (UPDATE_LINES=1): the verdict, the
# root cause or leading finding with what hangs under it, the next action and
# its command, and every step of the GPU chain. Add the lines the scenario is
# about by hand (a coverage note, a ruled-out cause).
write_expected_lines() {  # write_expected_lines REPORT
  echo "# Lines the text report of this sample holds, each whole (tests/samples_test.sh)."
  awk '
    /^GPU chain verdict: / { first = 1 }
    first && /^$/ { first = 0 }
    first { print }
    /^GPU chain$/ { steps = 1; next }
    steps && /^$/ { steps = 0 }
    steps { print }
  ' "$1"
}

check() {  # check DESCRIPTION EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "not ok - $1"; echo "#   expected: $2"; echo "#   actual:   $3"
  fi
}

for dir in "$top"/samples/scenarios/*/ "$top"/samples/platforms/*/; do
  name=$(basename "$dir")
  bundle=$top/samples/$name.tar.zst
  case $dir in */platforms/*) bundle=$top/samples/platforms/$name.tar.zst ;; esac
  check "$name: bundle exists" yes "$([ -f "$bundle" ] && echo yes || echo no)"
  [ -f "$bundle" ] || continue
  "$gpuforensics" verify "$bundle" >/dev/null 2>&1
  check "$name: verify" 0 $?
  relative=${bundle#"$top"/}
  (cd "$top" && "$gpuforensics" analyze "$relative" --db "$work/$name.db" >"$work/$name.report" 2>"$work/$name.err")
  status=$?
  serious=$("$gpuforensics" sql "$work/$name.db" \
    "SELECT count(*) > 0 FROM findings WHERE severity IN ('critical', 'high', 'medium')" | tail -n 1)
  broken=$(grep -q '^GPU chain verdict: BROKEN' "$work/$name.report" && echo 1 || echo 0)
  check "$name: analyze exits 1 exactly when the chain is BROKEN or something at medium or above fired" \
    "$((serious | broken))" "$status"
  check "$name: analyze stderr" "" "$(cat "$work/$name.err")"
  # The lines the scenario is about, each a whole line of the report.
  if [ -n "${UPDATE_LINES:-}" ]; then write_expected_lines "$work/$name.report" >"$dir/expected_lines"; fi
  check "$name: expected_lines exists" yes "$([ -s "$dir/expected_lines" ] && echo yes || echo no)"
  grep -v '^#' "$dir/expected_lines" 2>/dev/null | sed '/^$/d' >"$work/$name.lines"
  while IFS= read -r line; do
    check "$name: report shows '$line'" yes "$(grep -qxF -- "$line" "$work/$name.report" && echo yes || echo no)"
  done <"$work/$name.lines"

  (cd "$top" && "$gpuforensics" analyze "$relative" --format json >"$work/json/$name.json" 2>"$work/$name.err.json")
  check "$name: analyze --format json stderr" "" "$(cat "$work/$name.err.json")"
  (cd "$top" && "$gpuforensics" analyze "$relative" --format markdown >"$work/$name.report.md" 2>"$work/$name.err.md")
  check "$name: analyze --format markdown stderr" "" "$(cat "$work/$name.err.md")"
  cp "$work/json/$name.json" "$work/$name.report.json"

  # Full-report goldens, for the representative samples that keep them.
  for ext in txt md json; do
    golden=$dir/expected_report.$ext
    [ -f "$golden" ] || continue
    actual=$work/$name.report.$ext
    [ "$ext" = txt ] && actual=$work/$name.report
    sed -E 's/(of|among) [0-9]+ (known issues checked|checked)/\1 N \2/' "$actual" >"$actual.golden-form"
    actual=$actual.golden-form
    if [ -n "${UPDATE_GOLDEN:-}" ]; then cp "$actual" "$golden"; fi
    if diff -u "$golden" "$actual" >"$work/$name.diff.$ext" 2>&1; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1)); echo "not ok - $name: $ext report differs from $golden"; cat "$work/$name.diff.$ext"
    fi
  done

  found=$("$gpuforensics" sql "$work/$name.db" "SELECT DISTINCT rule_id FROM findings ORDER BY rule_id" | tail -n +2)
  expected=$(grep -v '^#' "$dir/expected_findings" | sed '/^$/d' | sort)
  for id in $expected; do
    if [ -f "$top/rules/$id.yaml" ]; then
      check "$name: finds $id" yes "$(echo "$found" | grep -qx "$id" && echo yes || echo no)"
    else
      pending=$((pending + 1))
    fi
  done
  for id in $found; do
    check "$name: $id is expected" yes "$(echo "$expected" | grep -qx "$id" && echo yes || echo no)"
  done

  # The milestones timeline loads only the journal entries that may mark a
  # milestone: it must show exactly the milestone events of the whole one.
  "$gpuforensics" timeline "$bundle" --format jsonl 2>&1 | sort >"$work/$name.milestones"
  "$gpuforensics" timeline "$bundle" --all --format jsonl 2>&1 | grep -v '"milestone":null' | sort \
    >"$work/$name.all-milestones"
  check "$name: timeline shows the milestone events of timeline --all" yes \
    "$(cmp -s "$work/$name.milestones" "$work/$name.all-milestones" && [ -s "$work/$name.milestones" ] \
       && echo yes || echo no)"

  # A healthy platform profile: nothing at medium or above, and a chain that is not BROKEN.
  case $name in *-healthy)
    check "$name: nothing at medium or above" 0 "$serious"
    check "$name: the chain is not BROKEN" 0 "$broken" ;;
  esac
done

serious=$("$gpuforensics" sql "$work/healthy.db" \
  "SELECT count(*) FROM findings WHERE severity IN ('critical', 'high', 'medium')" | tail -n 1)
check "healthy: nothing at medium or above" 0 "$serious"

# sql's three shapes carry the same rows: its JSON read by python3's json, its CSV by csv.
rows="SELECT rule_id, rank, under_rule_id FROM diagnoses ORDER BY rank"
text_rows=$("$gpuforensics" sql "$work/seed-incident.db" "$rows" | tail -n +2)
json_rows=$("$gpuforensics" sql "$work/seed-incident.db" "$rows" --format json | python3 -c '
import json, sys
for r in json.load(sys.stdin): print(r["rule_id"], r["rank"], r["under_rule_id"] or "", sep="\t")')
csv_rows=$("$gpuforensics" sql "$work/seed-incident.db" "$rows" --format csv | python3 -c '
import csv, sys
rows = csv.reader(sys.stdin)
assert next(rows) == ["rule_id", "rank", "under_rule_id"]
for r in rows: print(*r, sep="\t")')
check "sql: the text rows are there" yes "$([ "$(echo "$text_rows" | wc -l)" -ge 2 ] && echo yes || echo no)"
check "sql --format json: the text rows" "$text_rows" "$json_rows"
check "sql --format csv: the text rows" "$text_rows" "$csv_rows"

if [ "$(id -u)" = 0 ] && command -v python3 >/dev/null && [ -x /lib/systemd/systemd-journal-remote ]; then
  mkdir "$work/regenerated"
  (cd "$top" && OUT_DIR="$work/regenerated" GPUFORENSICS="$gpuforensics" samples/regenerate seed-incident 2>/dev/null)
  check "seed-incident regenerates" 0 $?
  cmp -s "$top/samples/seed-incident.tar.zst" "$work/regenerated/seed-incident.tar.zst"
  check "seed-incident regenerates byte for byte" 0 $?
else
  echo "# regeneration check skipped: needs root, python3 and systemd-journal-remote"
fi

# Every sample's JSON report against the report's schema.
python3 "$top/tests/report_schema_test.py" "$work"/json/*.json >"$work/schema.out" 2>&1
status=$?
if [ "$status" != 77 ]; then
  check "every sample's JSON report is valid against schema/report.schema.json" 0 "$status"
  [ "$status" = 0 ] || grep -v '^ok' "$work/schema.out"
fi

echo "# $pending expected findings wait for their rule files in rules/"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
