#!/bin/sh
# Every sample bundle (samples/scenarios/ and the platform profiles of
# samples/platforms/) against what its scenario says it shows:
#  - the bundle verifies and analyzes;
#  - the report equals the golden one beside the scenario (rewrite on purpose
#    with UPDATE_GOLDEN=1 after a deliberate report change);
#  - so do its Markdown and JSON reports (expected_report.md, .json);
#  - the findings are exactly the expected rule ids, for every rule the pack
#    has (ids without a rule file yet are listed as pending, not passed);
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
  golden=$dir/expected_report.txt
  if [ -n "${UPDATE_GOLDEN:-}" ]; then cp "$work/$name.report" "$golden"; fi
  if diff -u "$golden" "$work/$name.report" >"$work/$name.diff" 2>&1; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1)); echo "not ok - $name: report differs from $golden"; cat "$work/$name.diff"
  fi

  # The Markdown and JSON reports against their goldens too (same rewrite rule).
  for format in markdown:md json:json; do
    ext=${format#*:}
    (cd "$top" && "$gpuforensics" analyze "$relative" --format "${format%%:*}" \
      >"$work/$name.report.$ext" 2>"$work/$name.err.$ext")
    check "$name: analyze --format ${format%%:*} stderr" "" "$(cat "$work/$name.err.$ext")"
    golden=$dir/expected_report.$ext
    if [ -n "${UPDATE_GOLDEN:-}" ]; then cp "$work/$name.report.$ext" "$golden"; fi
    if diff -u "$golden" "$work/$name.report.$ext" >"$work/$name.diff.$ext" 2>&1; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1)); echo "not ok - $name: ${format%%:*} report differs from $golden"; cat "$work/$name.diff.$ext"
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

if [ "$(id -u)" = 0 ] && command -v python3 >/dev/null && [ -x /lib/systemd/systemd-journal-remote ]; then
  mkdir "$work/regenerated"
  (cd "$top" && OUT_DIR="$work/regenerated" GPUFORENSICS="$gpuforensics" samples/regenerate seed-incident 2>/dev/null)
  check "seed-incident regenerates" 0 $?
  cmp -s "$top/samples/seed-incident.tar.zst" "$work/regenerated/seed-incident.tar.zst"
  check "seed-incident regenerates byte for byte" 0 $?
else
  echo "# regeneration check skipped: needs root, python3 and systemd-journal-remote"
fi

echo "# $pending expected findings wait for their rule files in rules/"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
