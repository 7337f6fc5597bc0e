#!/bin/sh
# gpuforensics diff on the sample bundles against golden outputs in
# tests/golden/diff/: text, JSON and Markdown of the seed incident vs the
# healthy node and vs its recovered bundle. The comparison is byte for byte;
# after a deliberate change to the diff, rewrite them on purpose with
#   UPDATE_GOLDEN=1 tests/diff_golden_test.sh build/gpuforensics
#
# usage: diff_golden_test.sh GPUFORENSICS_BINARY
set -u
gpuforensics=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
golden=$top/tests/golden/diff
work=$(mktemp -d /tmp/gpuf-diff-golden-XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

# pair: name A B
for pair in "seed-vs-healthy seed-incident healthy" "seed-vs-recovery seed-incident recovery"; do
  set -- $pair
  name=$1 a=samples/$2.tar.zst b=samples/$3.tar.zst
  for format in text json markdown; do
    case $format in text) ext=txt ;; json) ext=json ;; markdown) ext=md ;; esac
    out=$work/$name.$ext
    # Relative paths from the top, so that the paths in the output do not
    # depend on where the tree is checked out.
    (cd "$top" && "$gpuforensics" diff "$a" "$b" --format "$format" >"$out" 2>"$work/err")
    status=$?
    if [ "$status" -ne 0 ] || [ -s "$work/err" ]; then
      failed=$((failed + 1)); echo "not ok - $name $format: exit $status"; cat "$work/err"; continue
    fi
    if [ -n "${UPDATE_GOLDEN:-}" ]; then mkdir -p "$golden"; cp "$out" "$golden/$name.$ext"; fi
    if diff -u "$golden/$name.$ext" "$out"; then
      passed=$((passed + 1))
    else
      failed=$((failed + 1)); echo "not ok - $name $format differs from tests/golden/diff/$name.$ext"
    fi
  done
done

echo "diff goldens: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
