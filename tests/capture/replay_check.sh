#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Usage: replay_check.sh REPLAY_XLA XPLANE_STAT WORKDIR DUMP...
#
# For each real XLA GPU dump: replay_xla makes the capture records of the
# same run and converts them; the functions tables (JSON) of the dump and of
# the converted capture must agree exactly: the same functions and programs,
# executions, kernels, and every time in nanoseconds; the same device busy
# time and unattributed events. See replay_xla.c for what the records are
# made of, and CAPTURE.md.
set -u
replay=$1 xps=$2 work=$3
shift 3
[ -x /usr/bin/python3 ] || { echo "skipped: needs /usr/bin/python3"; exit 77; }
mkdir -p "$work" || exit 1
status=0
for dump; do
	name=$(basename "$dump" .xplane.pb)
	cap=$work/$name.capture.xplane.pb
	echo "== $name"
	"$replay" "$dump" "$cap" || { status=1; continue; }
	"$xps" functions --json "$dump" >"$work/$name.dump.json" || { status=1; continue; }
	"$xps" functions --json "$cap" >"$work/$name.capture.json" || { status=1; continue; }
	/usr/bin/python3 - "$work/$name.dump.json" "$work/$name.capture.json" <<'PY' || status=1
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
keys = ("executions", "functions_count", "devices", "device_busy_ns", "device_events",
        "unattributed_events", "unattributed_busy_ns")
row_keys = ("devices", "executions", "events", "total_ns", "mean_ns", "std_ns", "min_ns",
            "median_ns", "max_ns", "share")
bad = [f"{k}: dump {a[k]} capture {b[k]}" for k in keys if a[k] != b[k]]
rows = lambda d: {(f["name"], f["program_id"]): f for f in d["functions"]}
ra, rb = rows(a), rows(b)
for k in sorted(set(ra) | set(rb), key=str):
    if k not in ra or k not in rb:
        bad.append(f"{k}: only in the {'dump' if k in ra else 'capture'}")
        continue
    for f in row_keys:
        x, y = ra[k][f], rb[k][f]
        if x != y and not (isinstance(x, float) and abs(x - y) <= 1e-9 * max(abs(x), 1)):
            bad.append(f"{k} {f}: dump {x} capture {y}")
print(f"{len(ra)} functions, {a['executions']} executions, {a['device_events']} device events, "
      f"busy {a['device_busy_ns']} ns: " + ("same" if not bad else "DIFFERENT"))
for line in bad:
    print("  " + line)
sys.exit(1 if bad else 0)
PY
done
exit $status
