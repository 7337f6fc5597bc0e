#!/bin/sh
# The HTML report in a real browser: headless Chromium renders the seed
# incident's report to a PNG, and the test checks that
#  - the PNG exists and is not trivial (size, dimensions);
#  - the page logs no console message (errors, CSP violations) — shown to
#    work by two broken pages that must be caught: one with a script that
#    throws, one that tries to load from the network;
#  - the DOM has the swimlanes of both boots with the expected lanes, the
#    driver-ready to plugin-start gap of 0.748 s, and no element that could
#    load anything (script, external src, stylesheet link); references are
#    plain links the reader may follow;
#  - the first screen: at 1400x900 the verdict, the root cause with its
#    confidence and the next action with its command are above the fold
#    (measured in the browser's own layout), while earlier boots, versions,
#    milestones and coverage are folded in <details>.
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
check "no external source or stylesheet" 0 "$(grep -Eci 'src="(https?:)?//|<link[^>]*href=' "$work/seed.html")"
check "references are links" 1 \
  "$(grep -c '<a href="https://github.com/NVIDIA/k8s-device-plugin/issues/414" rel="noreferrer">' "$work/seed.html")"
for folded in earlier-boots versions timeline coverage; do
  check "$folded is folded" 1 "$(grep -c "<details id=\"$folded\">" "$work/seed.html")"
done

# Above the fold: a copy of the page without its CSP runs a script that
# measures where the first screen's parts end in the browser's layout at
# 1400x900 and writes it into the title.
measure='<script>window.onload=function(){var b=function(id){var e=document.getElementById(id);return e?Math.ceil(e.getBoundingClientRect().bottom):-1;};document.title="fold verdict="+b("verdict")+" root="+b("root-cause")+" next="+b("next-action")+" height="+window.innerHeight;};</script>'
sed -e 's|<meta http-equiv="Content-Security-Policy"[^>]*>||' -e "s|</main>|$measure</main>|" "$work/seed.html" >"$work/fold.html"
HOME=$work timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run \
  --user-data-dir="$work/profile" --hide-scrollbars --window-size=1400,900 --virtual-time-budget=2000 \
  --dump-dom "file://$work/fold.html" 2>/dev/null >"$work/fold.dom"
fold=$(sed -n 's|.*<title>fold \([^<]*\)</title>.*|\1|p' "$work/fold.dom")
echo "# $fold"
# The fold is the viewport's height, what the window shows without scrolling.
height=$(echo "$fold" | tr ' ' '\n' | sed -n "s/^height=//p")
for part in verdict root next; do
  bottom=$(echo "$fold" | tr ' ' '\n' | sed -n "s/^$part=//p")
  check "$part is above the fold at 1400x900" yes \
    "$([ -n "$bottom" ] && [ -n "$height" ] && [ "$bottom" -gt 0 ] && [ "$bottom" -le "$height" ] && echo yes || echo no)"
done
check "the root cause names the rule and its confidence" 1 \
  "$(grep -c '<p class="lead" id="root-cause">Root cause: <span class="pill high">high</span> <span class="pill conf">confirmed</span> <a href="#finding-dp-started-before-driver-ready">' "$work/seed.html")"
check "the next action gives the node's command" 1 \
  "$(grep -c '<pre><code>crictl stop f3d0365e077f8 &amp;&amp; crictl rm f3d0365e077f8</code></pre>' "$work/seed.html")"

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
