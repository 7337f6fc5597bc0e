#!/bin/sh
# analyze and collect on a terminal and in a pipe (script(1) gives them a real pty):
#  - piped: the report has no escape sequence and stderr stays empty;
#  - on a terminal: colours, the progress line on stderr, erased before the
#    report, and lines wrapped to the terminal's width (nothing cut);
#  - NO_COLOR on a terminal: no colour, progress still shown;
#  - collect of a fake node: on a terminal a line per probe group on stderr
#    and the live line erased before the triage; in a pipe neither.
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
TERM=xterm script -q -e -c "stty cols 100; '$gpuforensics' analyze --no-pager '$bundle'" /dev/null >"$work/tty.out" 2>&1
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

# A 24-line, 80-column terminal and the bundle 120 characters deep, as
# support desks keep them: the exact command is on the first screen.
deep=$work/var/tmp/support/CASE-123456/node-a/
deep=$deep$(printf '%*s' $((120 - ${#deep})) '' | tr ' ' x)
mkdir -p "$deep"
cp "$bundle" "$deep/seed-incident.tar.zst"
check "deep path: 120 characters" 120 "${#deep}"
NO_COLOR=1 TERM=xterm script -q -e -c "stty cols 80 rows 24; '$gpuforensics' analyze --no-pager '$deep/seed-incident.tar.zst'" \
  /dev/null >"$work/deep.out" 2>&1
# The report starts after the progress line is erased; its first 24 lines.
sed "s/\r\$//; s/.*${esc}\[K//" "$work/deep.out" | sed -n '/^gpuforensics report: /,$p' | head -n 24 >"$work/deep.screen"
check "deep path: the exact command within 24 lines at 80 columns" yes \
  "$(grep -qxF '    crictl stop f3d0365e077f8 && crictl rm f3d0365e077f8' "$work/deep.screen" && echo yes || echo no)"
check "deep path: the verdict within 24 lines" yes \
  "$(grep -q '^GPU chain verdict: BROKEN at step 7' "$work/deep.screen" && echo yes || echo no)"

NO_COLOR=1 TERM=xterm script -q -e -c "'$gpuforensics' analyze --no-pager '$bundle'" /dev/null >"$work/nocolor.out" 2>&1
check "NO_COLOR: no colour" 0 "$(grep -c "${esc}\[[0-9;]*m" "$work/nocolor.out")"
check "NO_COLOR: progress still shown" yes "$(grep -q 'analyzing [0-9]* s: loading' "$work/nocolor.out" && echo yes || echo no)"

# The pager: a stand-in that keeps what it was given and the LESS it saw.
cat >"$work/pager" <<PAGER
#!/bin/sh
echo "LESS=\$LESS" >"$work/pager.env"
cat >"$work/paged"
PAGER
chmod +x "$work/pager"
GPUFORENSICS_PAGER=$work/pager TERM=xterm script -q -e -c "'$gpuforensics' analyze '$bundle'; echo status=\$?" \
  /dev/null >"$work/paging.out" 2>&1
check "pager: the report goes through it" 1 "$(grep -c '^gpuforensics report: ' "$work/paged")"
check "pager: colours pass to it" yes "$(grep -q "${esc}\[1mGPU chain verdict: BROKEN" "$work/paged" && echo yes || echo no)"
check "pager: LESS=FRX when unset" "LESS=FRX" "$(cat "$work/pager.env")"
check "pager: the report is not also on the terminal" 0 "$(grep -c 'gpuforensics report: ' "$work/paging.out")"
check "pager: the exit status is the analysis's" status=1 "$(grep -o 'status=[0-9]*' "$work/paging.out")"
rm -f "$work/paged"
GPUFORENSICS_PAGER=$work/pager TERM=xterm script -q -e -c "'$gpuforensics' analyze --no-pager '$bundle'" \
  /dev/null >"$work/nopager.out" 2>&1
check "--no-pager: the report is on the terminal" 1 "$(grep -c 'gpuforensics report: ' "$work/nopager.out")"
check "--no-pager: the pager did not run" no "$([ -e "$work/paged" ] && echo yes || echo no)"
GPUFORENSICS_PAGER=$work/pager "$gpuforensics" analyze "$bundle" >"$work/piped-pager.out" 2>&1
check "piped: no pager" no "$([ -e "$work/paged" ] && echo yes || echo no)"
GPUFORENSICS_PAGER=$work/not-installed TERM=xterm script -q -e -c "'$gpuforensics' analyze '$bundle'" \
  /dev/null >"$work/missing-pager.out" 2>&1
check "a pager not installed: the report is printed" 1 "$(grep -c 'gpuforensics report: ' "$work/missing-pager.out")"
GPUFORENSICS_PAGER='head -n 1 >/dev/null' TERM=xterm script -q -e -c \
  "'$gpuforensics' analyze '$bundle'; echo status=\$?" /dev/null >"$work/quit.out" 2>&1
check "a pager quit early: the analysis's status, no write error" "status=1" \
  "$(grep -o 'status=[0-9]*' "$work/quit.out")$(grep -c 'writing to stdout' "$work/quit.out" | sed 's/^0$//')"
GPUFORENSICS_PAGER=$work/pager TERM=xterm script -q -e -c "'$gpuforensics' timeline '$bundle'" \
  /dev/null >/dev/null 2>&1
check "timeline: paged too" yes "$(grep -q 'kubelet' "$work/paged" && echo yes || echo no)"

python3 "$top/samples/tools/build_fakehost.py" "$top/samples/scenarios/healthy" "$work/node" >/dev/null
collect="PATH='$work/node/bin:$work/node/sysbin' '$gpuforensics' collect --root '$work/node/root'"
sh -c "$collect -o '$work/piped.tar.zst'" >"$work/collect-piped.out" 2>"$work/collect-piped.err"
check "collect piped: no progress" 0 "$(grep -c 'collecting [0-9]* s\|probes in' "$work/collect-piped.err")"
check "collect piped: no escape sequence" 0 "$(grep -c "$esc" "$work/collect-piped.err")"
TERM=xterm script -q -e -c "$collect -o '$work/tty.tar.zst'" /dev/null >"$work/collect-tty.out" 2>&1
check "collect terminal: a line per probe group" yes \
  "$(grep -q 'gpuforensics collect: node files, logs and runtime state: [0-9]* probes in [0-9.]* s' \
     "$work/collect-tty.out" && grep -q 'gpuforensics collect: nvidia-smi on the host: 2 probes in' \
     "$work/collect-tty.out" && echo yes || echo no)"
check "collect terminal: the live line says what runs" yes \
  "$(grep -q 'collecting [0-9]* s: .*node files, logs and runtime state [0-9]*/[0-9]*' "$work/collect-tty.out" &&
     echo yes || echo no)"
check "collect terminal: no live line left before the triage" yes \
  "$(grep -q "^gpuforensics collect: triage for node" "$work/collect-tty.out" && echo yes || echo no)"
# A narrow terminal: each draw of the live line (what follows an erase and
# ends without a newline) fits, so the terminal never wraps it into debris.
TERM=xterm script -q -e -c "stty cols 40; $collect -o '$work/narrow.tar.zst'" /dev/null >"$work/collect-narrow.out" 2>&1
check "collect at 40 columns: the live line was drawn" yes \
  "$(grep -q 'collecting' "$work/collect-narrow.out" && echo yes || echo no)"
check "collect at 40 columns: every draw of the live line fits in 39" "" "$(python3 -c '
import sys
out = open(sys.argv[1], "rb").read().decode("utf-8", "replace")
for draw in out.split("\r\x1b[K")[1:]:
    if "\n" not in draw and len(draw) > 39: print(repr(draw))' "$work/collect-narrow.out")"

echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
