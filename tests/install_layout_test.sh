#!/usr/bin/env bash
# cmake --install gives <prefix>/bin/gpuforensics and the built-in rules in
# <prefix>/share/gpuforensics/rules, and the installed binary reads those
# rules, not the source tree's: a rule removed from the installed copy is
# gone from its `rules list`. The prefix is moved once to show nothing in it
# depends on where it was installed.
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
for f in bin/gpuforensics bin/gpuforensics-collect bin/kubectl-gpuforensics share/gpuforensics/rules/README.md \
         share/bash-completion/completions/gpuforensics share/bash-completion/completions/gpuforensics-collect \
         share/zsh/vendor-completions/_gpuforensics \
         share/doc/gpuforensics/README.md share/doc/gpuforensics/deploy.md \
         share/doc/gpuforensics/schema/bundle.md share/doc/gpuforensics/schema/bundles.sql \
         share/doc/gpuforensics/schema/fleet/fleet_bundles.sql; do
  [ -e "$prefix/$f" ] || fail "$f is not installed"
done
for page in "$src"/docs/man/*.1; do
  [ -e "$page" ] || continue
  [ -e "$prefix/share/man/man1/$(basename "$page")" ] || fail "man page $(basename "$page") is not installed"
done
[ "$(cd "$src/rules" && ls ./*.yaml | sort)" = "$(cd "$prefix/share/gpuforensics/rules" && ls ./*.yaml | sort)" ] ||
  fail "the installed rules differ from rules/*.yaml"

rule=dp-started-before-driver-ready
"$build/gpuforensics" rules list | grep -q "^$rule " || fail "$rule is not a built-in rule of the build tree"
"$prefix/bin/gpuforensics" rules list | grep -q "^$rule " || fail "the installed binary does not list $rule"
rm "$prefix/share/gpuforensics/rules/$rule.yaml"
if "$prefix/bin/gpuforensics" rules list | grep -q "^$rule "; then
  fail "the installed binary still lists $rule: it reads rules from elsewhere than its prefix"
fi
echo "install_layout_test: $prefix/bin/gpuforensics reads $prefix/share/gpuforensics/rules"
