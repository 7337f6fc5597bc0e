#!/usr/bin/env bash
# The completion scripts complete what the commands accept: `gpuforensics
# completion bash` is sourced in bash and its function asked, as bash asks it
# on TAB, for a command, an option of analyze and of collect, the words of
# --format, and a file; fish is asked the same through `complete -C`; the
# zsh script is checked for syntax; kubectl itself completes the plugin
# through deploy/kubectl_complete-gpuforensics.
#
#   tests/completion_test.sh GPUFORENSICS_BINARY KUBECTL_PLUGIN_BINARY
set -u
gpuforensics=$(realpath "$1")
plugin=$(realpath "$2")
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
check "bash: the words of --format" "text json markdown html" "$(complete_words gpuforensics analyze b.tar.zst --format '')"
check "bash: the words of --format=" "jsonl" "$(complete_words gpuforensics timeline --format = js)"
check "bash: sql's formats" "csv" "$(complete_words gpuforensics sql --format c)"
cd "$top/samples"
check "bash: a file" "seed-incident.tar.zst" "$(complete_words gpuforensics verify seed-inc)"
check "bash: gpuforensics-collect too" "yes" "$(complete -p gpuforensics-collect >/dev/null 2>&1 && echo yes)"
check "the shipped bash script is the generated one" "" "$("$gpuforensics" completion bash | diff - "$top/docs/completion/gpuforensics.bash")"
check "the shipped fish script is the generated one" "" "$("$gpuforensics" completion fish | diff - "$top/docs/completion/gpuforensics.fish")"
if command -v fish >/dev/null; then
  fish_script="${TMPDIR:-/tmp}/gpuforensics.fish.$$"
  "$gpuforensics" completion fish >"$fish_script"
  # fish_complete LINE: what fish offers at the end of LINE, the words only.
  fish_complete() { fish --no-config -c "source $fish_script; complete -C '$1'" | cut -f1 | sort | tr '\n' ' '; }
  check "fish: commands by prefix" "redact rules " "$(fish_complete 'gpuforensics r')"
  check "fish: an option of analyze" "--format " "$(fish_complete 'gpuforensics analyze b.tar.zst --fo')"
  check "fish: the words of --format" "html json markdown text " "$(fish_complete 'gpuforensics analyze --format ')"
  check "fish: a file" "seed-incident.tar.zst " "$(fish_complete 'gpuforensics verify seed-inc')"
  rm -f "$fish_script"
else
  echo "not ok - fish is not installed (scripts/setup installs it)"; failed=$((failed + 1))
fi
if command -v kubectl >/dev/null; then
  bin="${TMPDIR:-/tmp}/kubectl-completion.$$"
  mkdir -p "$bin" && ln -sf "$plugin" "$bin/kubectl-gpuforensics" && cp "$top/deploy/kubectl_complete-gpuforensics" "$bin/"
  kubectl_complete() { PATH="$bin:$PATH" kubectl __complete "$@" 2>/dev/null | cut -f1 | tr '\n' ' '; }
  check "kubectl: the plugin's command" "collect :4 " "$(kubectl_complete gpuforensics col)"
  check "kubectl: the plugin's option" "--dry-run :4 " "$(kubectl_complete gpuforensics collect node/a --dry)"
  rm -rf "$bin"
else
  echo "# kubectl is not installed: the plugin's completion is not checked"
fi
if command -v zsh >/dev/null; then
  "$gpuforensics" completion zsh >"${TMPDIR:-/tmp}/_gpuforensics.$$"
  check "zsh: the script parses" "0" "$(zsh -n "${TMPDIR:-/tmp}/_gpuforensics.$$"; echo $?)"
  rm -f "${TMPDIR:-/tmp}/_gpuforensics.$$"
else
  echo "# zsh is not installed: its script's syntax is not checked"
fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
