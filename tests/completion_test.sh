#!/usr/bin/env bash
# The completion scripts complete what the commands accept: `gpuforensics
# completion bash` is sourced in bash and its function asked, as bash asks it
# on TAB, for a command, an option of analyze and of collect, and a file; the
# zsh script is checked for syntax when zsh is installed.
#
#   tests/completion_test.sh GPUFORENSICS_BINARY
set -u
gpuforensics=$(realpath "$1")
top=$(cd "$(dirname "$0")/.." && pwd)
passed=0
failed=0
check() {  # check DESCRIPTION EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then
    passed=$((passed + 1)); echo "ok - $1"
  else
    failed=$((failed + 1)); echo "not ok - $1"; echo "#   expected: $2"; echo "#   actual:   $3"
  fi
}
# complete WORD...: what the function offers for the last word.
complete_words() {
  COMP_WORDS=("$@")
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMPREPLY=()
  _gpuforensics
  echo "${COMPREPLY[*]}"
}

source <("$gpuforensics" completion bash) || { echo "not ok - the bash script does not load"; exit 1; }
check "bash: a command" "analyze" "$(complete_words gpuforensics ana)"
check "bash: commands by prefix" "redact rules" "$(complete_words gpuforensics r)"
check "bash: an option of analyze" "--format" "$(complete_words gpuforensics analyze b.tar.zst --fo)"
check "bash: an option of collect" "--deadline" "$(complete_words gpuforensics collect --dead)"
check "bash: no positional as an option" "" "$(complete_words gpuforensics analyze --bund)"
cd "$top/samples"
check "bash: a file" "seed-incident.tar.zst" "$(complete_words gpuforensics verify seed-inc)"
check "bash: gpuforensics-collect too" "yes" "$(complete -p gpuforensics-collect >/dev/null 2>&1 && echo yes)"
check "the shipped bash script is the generated one" "" "$("$gpuforensics" completion bash | diff - "$top/docs/completion/gpuforensics.bash")"
if command -v zsh >/dev/null; then
  "$gpuforensics" completion zsh >"${TMPDIR:-/tmp}/_gpuforensics.$$"
  check "zsh: the script parses" "0" "$(zsh -n "${TMPDIR:-/tmp}/_gpuforensics.$$"; echo $?)"
  rm -f "${TMPDIR:-/tmp}/_gpuforensics.$$"
else
  echo "# zsh is not installed: its script's syntax is not checked"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
