#!/usr/bin/env bash
# cmake --install gives <prefix>/bin/gpuforensics, whose built-in rules are
# compiled into it (their files are installed as documentation in
# <prefix>/share/doc/gpuforensics/rules): the installed binary lists every
# rule with no rules folder anywhere it could read. The prefix is moved once
# to show nothing in it depends on where it was installed.
#
#   tests/install_layout_test.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src=$1
build=$2
fail() { echo "install_layout_test: $*" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cmake --install "$build" --prefix "$work/installed" >/dev/null
mv "$work/installed" "$work/prefix"
prefix=$work/prefix
for f in bin/gpuforensics bin/gpuforensics-collect bin/kubectl-gpuforensics share/doc/gpuforensics/rules/README.md \
         share/bash-completion/completions/gpuforensics share/bash-completion/completions/gpuforensics-collect \
         share/zsh/vendor-completions/_gpuforensics share/fish/vendor_completions.d/gpuforensics.fish \
         bin/kubectl_complete-gpuforensics \
         share/doc/gpuforensics/README.md share/doc/gpuforensics/deploy.md \
         share/doc/gpuforensics/schema/bundle.md share/doc/gpuforensics/schema/bundles.sql \
         share/doc/gpuforensics/schema/fleet/fleet_bundles.sql; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done
for page in "$src"/docs/man/*.1; do
  [ -e "$page" ] || continue
  [ -e "$prefix/share/man/man1/$(basename "$page")" ] || fail "man page $(basename "$page") is not installed"
done
[ "$(cd "$src/rules" && ls ./*.yaml | sort)" = "$(cd "$prefix/share/doc/gpuforensics/rules" && ls ./*.yaml | sort)" ] ||
  fail "the documented rules differ from rules/*.yaml"

rule=dp-started-before-driver-ready
# Listed whole before grep reads it: grep -q stops at the first match, and
# the writer would then see its pipe closed (pipefail makes that a failure).
"$build/gpuforensics" rules list >"$work/built.list"
grep -q "^$rule " "$work/built.list" || fail "$rule is not a built-in rule of the build tree"
"$prefix/bin/gpuforensics" rules list >"$work/installed.list"
grep -q "^$rule " "$work/installed.list" || fail "the installed binary does not list $rule"
# With the rule's file gone from everywhere the binary could look, it still knows it.
rm -r "$prefix/share/doc/gpuforensics/rules"
[ "$("$prefix/bin/gpuforensics" rules list | grep -c ' ')" = "$(cd "$src/rules" && ls ./*.yaml | wc -l)" ] ||
  fail "the installed binary does not list every rule of rules/*.yaml"
echo "install_layout_test: $prefix/bin/gpuforensics holds its rules"
