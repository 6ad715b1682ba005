#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The report in a real browser: renders the report of bundled traces in
# headless Chromium (Debian's chromium, installed by tools/install-deps.sh;
# without it the test says so and is skipped, exit 77) and checks that
#   - the screenshot is not blank (png_check.py; a blank page must fail it),
#   - the page logs nothing to the console (a script, a CSP violation or a
#     failed load would) and requests nothing: the browser's net log holds no
#     request from the page (Chromium's own background requests are sent to
#     a closed loopback port and every host name is unresolvable, so nothing
#     leaves the machine either way),
#   - the HTML has its sections, one bar per function row, as many rows as
#     the functions command finds, no URL to fetch, and hostile names escaped.
# The screenshot of the TPU report is left as report.png in OUTDIR: the one
# the README shows (docs/report.png) is a copy of it.
#   tests/report/chromium_check.sh BIN SYNTH_DIR OUTDIR
set -u
bin=$1 synth=$2 out=$3
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
py=/usr/bin/python3
chromium=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$chromium" ]; then
	echo "skipped: chromium is not installed (tools/install-deps.sh installs Debian's chromium)"
	exit 77
fi
mkdir -p "$out" || exit 1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
cd "$root" || exit 1

shot() {	# shot HTML PNG: renders HTML at 1280 px wide; the browser's stderr and net log in $tmp
	HOME=$tmp timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--no-first-run --disable-sync --disable-default-apps --disable-extensions \
		--disable-background-networking --disable-component-update \
		--host-resolver-rules="MAP * ~NOTFOUND" --proxy-server="http://127.0.0.1:9" \
		--user-data-dir="$tmp/profile" --enable-logging=stderr --v=0 \
		--log-net-log="$tmp/net.json" --window-size=1280,2000 \
		--screenshot="$2" "file://$1" >"$tmp/chromium.out" 2>"$tmp/chromium.err"
}

page_requests() {	# the URLs the page itself asked for (net log: requests whose site is the file)
	"$py" - "$tmp/net.json" <<'PYEOF'
import json, sys
d = json.load(open(sys.argv[1]))
names = {v: k for k, v in d["constants"]["logEventTypes"].items()}
for e in d["events"]:
    p = e.get("params", {})
    if names.get(e["type"]) == "URL_REQUEST_START_JOB" and "file://" in p.get("network_isolation_key", "") \
            and not p.get("url", "").startswith("file:"):
        print(p["url"])
PYEOF
}

check_page() {	# check_page NAME HTML: renders it and checks screenshot, console, requests
	name=$1 html=$2
	if ! shot "$html" "$out/$name.png" || [ ! -s "$out/$name.png" ]; then
		echo "$name: chromium failed:"; cat "$tmp/chromium.err"; fail=1; return
	fi
	"$py" "$here/png_check.py" "$out/$name.png" || { echo "$name: the screenshot is blank"; fail=1; }
	if grep -i "console" "$tmp/chromium.err"; then
		echo "$name: the page logged to the console"; fail=1
	fi
	reqs=$(page_requests)
	if [ -n "$reqs" ]; then
		echo "$name: the page requested: $reqs"; fail=1
	fi
}

# The checker must be able to fail: a blank page is blank, and a page that
# loads an image is caught asking for it.
printf '<!DOCTYPE html><html><body></body></html>\n' >"$tmp/blank.html"
shot "$tmp/blank.html" "$tmp/blank.png"
if "$py" "$here/png_check.py" "$tmp/blank.png" >/dev/null; then
	echo "png_check.py passed a blank page"; fail=1
fi
printf '<!DOCTYPE html><html><body><img src="http://example.invalid/x.png"></body></html>\n' >"$tmp/fetch.html"
shot "$tmp/fetch.html" "$tmp/fetch.png"
[ -n "$(page_requests)" ] || { echo "the net log check missed a page's request"; fail=1; }

# The bundled TPU trace (the README's picture), the MI300X GEMM one and the autotune rounds.
"$bin" report testdata/real/tpu_v6e_inference.xplane.pb -o "$out/report.html" || fail=1
"$bin" report testdata/real/mi300x_jax_gemm.xplane.pb -o "$tmp/gemm.html" || fail=1
"$bin" report "$synth/autotune" -o "$tmp/autotune.html" || fail=1
# --base and --history: the slow rounds against the base ones, and a history of both
"$bin" functions --history "$tmp/h.jsonl" --commit aaa1111 "$synth/diff/base" >/dev/null || fail=1
"$bin" functions --history "$tmp/h.jsonl" --commit bbb2222 "$synth/diff/slow" >/dev/null || fail=1
"$bin" report "$synth/diff/slow" --base "$synth/diff/base" --history "$tmp/h.jsonl" -o "$tmp/compare.html" || fail=1
"$bin" functions --history "$tmp/hh.jsonl" --commit x "$synth/report_hostile.xplane.pb" >/dev/null || fail=1
"$bin" report "$synth/report_hostile.xplane.pb" --base "$synth/report_hostile.xplane.pb" --history "$tmp/hh.jsonl" \
	-o "$tmp/hostile.html" || fail=1
check_page report "$out/report.html"
check_page compare "$tmp/compare.html"
check_page gemm "$tmp/gemm.html"
check_page autotune "$tmp/autotune.html"
check_page hostile "$tmp/hostile.html"

# Structure: sections, one bar per function row, as many rows as functions has (up to --top 15).
for s in overview functions timeline ops; do
	grep -q "<section id=\"$s\">" "$out/report.html" || { echo "report: no $s section"; fail=1; }
done
grep -q '<section id="kernels">' "$tmp/gemm.html" || { echo "gemm: no kernels section"; fail=1; }
# memory and compile sections where the trace has memory events and calls (the GEMM trace: 2 memories, 3 functions)
for s in memory compile; do
	grep -q "<section id=\"$s\">" "$tmp/gemm.html" || { echo "gemm: no $s section"; fail=1; }
done
# the compile table a row per function and program, as compile --json has them (up to --top 15)
progs=$(sed -n '/<section id="compile">/,/<\/section>/p' "$tmp/gemm.html" | grep -o '<td class="num prog">[^<]*' |
	sed 's/.*>//' | tr '\n' ' ')
want=$("$bin" compile --json testdata/real/mi300x_jax_gemm.xplane.pb 2>/dev/null | "$py" -c 'import json,sys
print(" ".join(str(f["program_id"] if f["program_id"] is not None else "unknown") for f in json.load(sys.stdin)["functions"][:15]), end=" ")')
[ "$progs" = "$want" ] || { echo "gemm: compile programs '$progs', want '$want'"; fail=1; }
mems=$(sed -n '/<section id="memory">/,/<\/section>/p' "$tmp/gemm.html" | grep -c 'class="bar mem-bar"')
want=$("$bin" memory --json testdata/real/mi300x_jax_gemm.xplane.pb | "$py" -c 'import json,sys; print(min(15, len(json.load(sys.stdin)["memories"])))')
[ "$mems" = "$want" ] || { echo "gemm: $mems memory rows, want $want"; fail=1; }
# colours: no function takes a category's (compute, collectives, memcpy, idle)
cats=$(grep -o '<rect class="cat"[^>]*fill="#[0-9a-f]*"' "$out/report.html" | grep -o '#[0-9a-f]*' | sort -u)
fns=$(grep -o '<rect class="fn"[^>]*fill="#[0-9a-f]*"' "$out/report.html" | grep -o '#[0-9a-f]*' | sort -u)
[ "$(echo "$cats" | wc -l)" -eq 4 ] && [ -n "$fns" ] || { echo "report: no category or function swatches"; fail=1; }
for c in $cats; do
	echo "$fns" | grep -qx "$c" && { echo "report: a function shares the colour $c with a category"; fail=1; }
	sed -n '/<svg class="timeline"/p' "$out/report.html" | grep -q "fill=\"$c\"" &&
		{ echo "report: a timeline strip has the category colour $c"; fail=1; }
done
# the timeline's strips on one axis, with ticks; the roofline's busiest points named; module and program columns
grep -q '<svg class="axis"' "$out/report.html" && [ "$(grep -o '<line class="tick"' "$out/report.html" | wc -l)" -ge 3 ] ||
	{ echo "report: no shared time axis with ticks under the timeline"; fail=1; }
labels=$(grep -o 'class="op-label"' "$out/report.html" | wc -l)
points=$(grep -o 'class="op-point"' "$out/report.html" | wc -l)
[ "$points" -gt 0 ] && [ "$labels" = "$([ "$points" -lt 5 ] && echo "$points" || echo 5)" ] ||
	{ echo "report: $labels roofline labels for $points points"; fail=1; }
grep -q '<th>module</th><th>program</th>' "$out/report.html" || { echo "report: the ops table has no module and program"; fail=1; }
# the flame graph of name scopes (EXPECTED.md 17a): 12 scopes, jit(train) 90 of the 102 us, 900 px wide
"$bin" report "$synth/ops_hlo.xplane.pb" -o "$tmp/scopes.html" 2>/dev/null || fail=1
scopes=$(grep -o '<g class="scope">' "$tmp/scopes.html" | wc -l)
[ "$scopes" = 12 ] && grep -q '<title>jit(train): 90.000 us (88.2%)[^<]*</title><rect x="0.00" y="1.0" width="794.12"' \
	"$tmp/scopes.html" || { echo "scopes: $scopes scopes in the flame graph, or jit(train) not 794.12 px wide"; fail=1; }
check_page scopes "$tmp/scopes.html"
"$bin" report "$synth/autotune_programs.xplane.pb" -o "$tmp/programs.html" || fail=1
grep -q '<th>candidate</th><th>program</th>' "$tmp/programs.html" ||
	{ echo "programs: the autotune table has no program column"; fail=1; }
grep -q '<section id="autotune">' "$tmp/autotune.html" || { echo "autotune: no autotune section"; fail=1; }
# the comparison: a dot per diff row, a trend line per history row, as many as diff and history give
want=$("$bin" diff --json "$synth/diff/base" "$synth/diff/slow" | "$py" -c 'import json,sys; print(min(15, len(json.load(sys.stdin)["rows"])))')
dots=$(grep -o '<circle class="dv"' "$tmp/compare.html" | wc -l)
lines=$(grep -o '<svg class="trend"' "$tmp/compare.html" | wc -l)
[ "$dots" = "$want" ] && [ "$lines" = "$want" ] || { echo "compare: $dots dots and $lines trend lines, want $want"; fail=1; }
grep -q '<section id="diff">' "$tmp/compare.html" && grep -q '<section id="history">' "$tmp/compare.html" ||
	{ echo "compare: no diff or history section"; fail=1; }
# the trend lines on one scale, its range printed
grep -q 'every line on one scale: [-+0-9.]*% at the bottom to [-+0-9.]*% at the top' "$tmp/compare.html" ||
	{ echo "compare: the trend lines' common scale is not given"; fail=1; }
for f in "$out/report.html" "$tmp/gemm.html" "$tmp/autotune.html" "$tmp/compare.html"; do
	rows=$(grep -o '<tr class="fn">' "$f" | wc -l)
	bars=$(grep -o 'class="bar fn-bar"' "$f" | wc -l)
	case $f in
	*report.html) want=$("$bin" functions --json testdata/real/tpu_v6e_inference.xplane.pb | "$py" -c 'import json,sys; print(min(15, len(json.load(sys.stdin)["functions"])))') ;;
	*compare.html) want=$("$bin" functions --json "$synth/diff/slow" | "$py" -c 'import json,sys; print(min(15, len(json.load(sys.stdin)["functions"])))') ;;
	*gemm.html) want=$("$bin" functions --json testdata/real/mi300x_jax_gemm.xplane.pb | "$py" -c 'import json,sys; print(min(15, len(json.load(sys.stdin)["functions"])))') ;;
	*) want=$("$bin" functions --json "$synth/autotune" | "$py" -c 'import json,sys; print(min(15, len(json.load(sys.stdin)["functions"])))') ;;
	esac
	[ "$rows" = "$want" ] && [ "$bars" = "$want" ] || { echo "$f: $rows rows and $bars bars, want $want"; fail=1; }
	# Nothing to fetch: no src or href attribute, no url(), no @import.
	if grep -Eq '(src|href)=|url\(|@import' "$f"; then echo "$f: refers to something to fetch"; fail=1; fi
done
# Names like "'><b>&amp;</b></svg></title><script>...<img src=x> in every place the page shows
# one (device, function, kernel, op, category, candidate): escaped, no element from them.
n=$(grep -o '&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x&gt;' "$tmp/hostile.html" | wc -l)
[ "$n" -ge 14 ] || { echo "hostile: the markup names are not all shown escaped ($n)"; fail=1; }
if grep -qi '<script\|<img\|<b>' "$tmp/hostile.html"; then echo "hostile: markup from a name got through"; fail=1; fi
[ $fail -eq 0 ] && echo "report renders in $("$chromium" --version 2>/dev/null | head -1)"
exit $fail
