#!/bin/sh
# The HTML report in a real browser: headless Chromium renders the seed
# incident's report to a PNG, and the test checks that
#  - the PNG exists and is not trivial (size, dimensions);
#  - the page logs no console message (errors, CSP violations) — shown to
#    work by two broken pages that must be caught: one with a script that
#    throws, one that tries to load from the network;
#  - the DOM has the swimlanes of both boots with the expected lanes, the
#    driver-ready to plugin-start gap of 0.748 s, and no element that could
#    load anything (script, external href/src).
# Exit 77 (skipped) only when no chromium is installed.
#
# usage: html_report_test.sh GPUFORENSICS_BINARY
set -u
gpuforensics=$1
top=$(cd "$(dirname "$0")/.." && pwd)
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then echo "# skipped: chromium is not installed"; exit 77; fi
work=$(mktemp -d /tmp/gpuf-html-test-XXXXXX)
trap 'rm -rf "$work"' EXIT
passed=0
failed=0

check() {  # check DESCRIPTION EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then
    passed=$((passed + 1)); echo "ok - $1"
  else
    failed=$((failed + 1)); echo "not ok - $1"; echo "#   expected: $2"; echo "#   actual:   $3"
  fi
}

# chromium PAGE.html OUT_PREFIX: writes OUT_PREFIX.png, .dom and .log (its stderr).
chromium() {
  HOME=$work timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$work/profile" --hide-scrollbars --window-size=1200,1800 \
    --enable-logging=stderr --v=0 --screenshot="$2.png" "file://$1" 2>"$2.log" >/dev/null
  HOME=$work timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
    --user-data-dir="$work/profile" --enable-logging=stderr --v=0 --dump-dom "file://$1" \
    2>>"$2.log" >"$2.dom"
}

console_messages() { grep -c ':CONSOLE' "$1.log"; }

(cd "$top" && "$gpuforensics" analyze samples/seed-incident.tar.zst --format html >"$work/seed.html")
check "analyze --format html exits 1 (high findings)" 1 $?
chromium "$work/seed.html" "$work/seed"

check "PNG written" yes "$([ -s "$work/seed.png" ] && echo yes || echo no)"
size=$(wc -c <"$work/seed.png")
check "PNG is not trivial (over 50 kB)" yes "$([ "$size" -gt 50000 ] && echo yes || echo no)"
dims=$(python3 -c 'import struct,sys; d=open(sys.argv[1],"rb").read(24); print("%dx%d" % struct.unpack(">II", d[16:24]))' \
  "$work/seed.png")
check "PNG is the window size" 1200x1800 "$dims"
check "no console message on the report" 0 "$(console_messages "$work/seed")"
grep ':CONSOLE' "$work/seed.log"

for lane in kernel persistenced containerd kubelet plugin-f3d0365e077f plugin-d6fe99e9684f registration; do
  check "boot 0 has lane $lane" 1 "$(grep -c "<g id=\"boot0-lane-$lane\"" "$work/seed.dom")"
done
for lane in kernel persistenced containerd kubelet plugin-d6fe99e9684f registration; do
  check "boot -1 has lane $lane" 1 "$(grep -c "<g id=\"boot-1-lane-$lane\"" "$work/seed.dom")"
done
check "boot 0 marks the 0.748 s gap" 1 "$(grep -c '<g id="boot0-gap" class="gap-group" data-seconds="0.748"' "$work/seed.dom")"
check "the gap is labelled" 1 \
  "$(grep -c 'device plugin started 0.748 s after nvidia-persistenced started' "$work/seed.dom")"
check "the empty registration lane says so" yes \
  "$(grep -A3 '<g id="boot0-lane-registration"' "$work/seed.dom" | grep -q 'no event in this boot' && echo yes || echo no)"
check "no script element" 0 "$(grep -ci '<script' "$work/seed.html")"
check "no external reference" 0 "$(grep -Eci '(src|href)="(https?:)?//' "$work/seed.html")"

# The console check must catch real errors: a throwing script (blocked by the
# page's CSP, which logs it) and an attempt to load from the network.
sed 's|</main>|<script>undefined_function()</script></main>|' "$work/seed.html" >"$work/bad-script.html"
chromium "$work/bad-script.html" "$work/bad-script"
check "a script in the page is caught" yes "$([ "$(console_messages "$work/bad-script")" -gt 0 ] && echo yes || echo no)"
sed 's|</main>|<img src="http://192.0.2.1/x.png"></main>|' "$work/seed.html" >"$work/bad-fetch.html"
chromium "$work/bad-fetch.html" "$work/bad-fetch"
check "a network load is caught" yes "$([ "$(console_messages "$work/bad-fetch")" -gt 0 ] && echo yes || echo no)"
sed -e 's|<meta http-equiv="Content-Security-Policy"[^>]*>||' -e 's|</main>|<script>undefined_function()</script></main>|' \
  "$work/seed.html" >"$work/bad-nocsp.html"
chromium "$work/bad-nocsp.html" "$work/bad-nocsp"
check "an uncaught exception is caught" yes \
  "$(grep -q 'Uncaught ReferenceError' "$work/bad-nocsp.log" && echo yes || echo no)"

if [ -n "${GPUF_KEEP_PNG:-}" ]; then cp "$work/seed.png" "$GPUF_KEEP_PNG"; fi
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
