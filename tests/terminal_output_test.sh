#!/bin/sh
# analyze on a terminal and in a pipe (script(1) gives it a real pty):
#  - piped: the report has no escape sequence and stderr stays empty;
#  - on a terminal: colours, the progress line on stderr, erased before the
#    report, and lines wrapped to the terminal's width (nothing cut);
#  - NO_COLOR on a terminal: no colour, progress still shown.
#
# usage: terminal_output_test.sh GPUFORENSICS_BINARY
set -u
gpuforensics=$1
top=$(cd "$(dirname "$0")/.." && pwd)
bundle=$top/samples/seed-incident.tar.zst
work=$(mktemp -d /tmp/gpuf-terminal-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0
esc=$(printf '\033')

check() {  # check DESCRIPTION EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then
    passed=$((passed + 1)); echo "ok - $1"
  else
    failed=$((failed + 1)); echo "not ok - $1"; echo "#   expected: $2"; echo "#   actual:   $3"
  fi
}

"$gpuforensics" analyze "$bundle" >"$work/piped.out" 2>"$work/piped.err"
check "piped: no escape sequence in the report" 0 "$(grep -c "$esc" "$work/piped.out")"
check "piped: stderr is empty" 0 "$(wc -c <"$work/piped.err" | tr -d ' ')"

# On a pty of 100 columns; script merges stdout and stderr on the terminal.
TERM=xterm script -q -e -c "stty cols 100; '$gpuforensics' analyze '$bundle'" /dev/null >"$work/tty.out" 2>&1
check "terminal: the verdict is bold" 1 "$(grep -c "${esc}\[1mGPU chain verdict: BROKEN at step 7" "$work/tty.out")"
check "terminal: FAILED is red" 3 "$(grep -c "${esc}\[1;31mFAILED" "$work/tty.out")"
check "terminal: progress shown" yes "$(grep -q 'analyzing [0-9]* s: loading' "$work/tty.out" && echo yes || echo no)"
check "terminal: progress erased before the report" yes \
  "$(grep -q "running the rules.${esc}\[Kgpuforensics report:" "$work/tty.out" && echo yes || echo no)"
widest=$(sed "s/\r\$//; s/.*\r//; s/${esc}\[[0-9;]*[mK]//g" "$work/tty.out" |
  awk '{ n = length($0); if (n > max) max = n } END { print max }')
check "terminal: no line wider than 100 columns" yes "$([ "$widest" -le 100 ] && echo yes || echo no)"
check "terminal: long lines wrap, nothing is cut" yes \
  "$(grep -q '^ *Failed to initialize NVML: nvml: Unknown Error\.' "$work/tty.out" && echo yes || echo no)"
check "terminal: a wrapped verdict row continues under its column" yes \
  "$(grep -q '^                                                   /proc/driver/nvidia/gpus' "$work/tty.out" &&
     echo yes || echo no)"

NO_COLOR=1 TERM=xterm script -q -e -c "'$gpuforensics' analyze '$bundle'" /dev/null >"$work/nocolor.out" 2>&1
check "NO_COLOR: no colour" 0 "$(grep -c "${esc}\[[0-9;]*m" "$work/nocolor.out")"
check "NO_COLOR: progress still shown" yes "$(grep -q 'analyzing [0-9]* s: loading' "$work/nocolor.out" && echo yes || echo no)"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
