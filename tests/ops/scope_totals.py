#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""ops --by scope, --by source and --folded account for every op's self time.

On every real JAX trace in testdata/real (TPU, MI300X, H200): the scope
tree's roots sum to the self time of the XLA Ops and GPU kernel lines as
plain ops --json reports it, the source rows sum to it too, every op is
counted once in the HLO counts, and the folded stacks sum to it within half
a nanosecond per op (each line is rounded to the nanosecond).

usage: scope_totals.py SOURCE_DIR XPLANE_STAT
"""
import glob
import json
import os
import subprocess
import sys


def run(binary, *args):
    out = subprocess.run([binary, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("%s %s: exit %d: %s" % (binary, " ".join(args), out.returncode, out.stderr))
    return out.stdout


def main():
    src, binary = sys.argv[1], sys.argv[2]
    traces = sorted(glob.glob(os.path.join(src, "testdata/real/*_jax_*.xplane.pb")) +
                    glob.glob(os.path.join(src, "testdata/real/tpu_*.xplane.pb")) +
                    glob.glob(os.path.join(src, "testdata/real/nvidia_h200_autotune/*.xplane.pb")))
    if len(traces) < 8:
        sys.exit("expected the bundled JAX traces, found %d" % len(traces))
    failures = 0
    for path in traces:
        plain = json.loads(run(binary, "ops", "--json", path))
        want = sum(l["self_ns"] for l in plain["lines"] if l["line"] != "Async XLA Ops")
        nops = sum(1 for o in plain["ops"] if o["line"] != "Async XLA Ops")
        scope = json.loads(run(binary, "ops", "--by", "scope", "--json", path))
        roots = sum(s["total_ns"] for s in scope["scopes"] if s["depth"] == 0)
        source = json.loads(run(binary, "ops", "--by", "source", "--json", path))
        by_src = sum(s["self_ns"] for s in source["sources"] if s["line"] != "Async XLA Ops")
        h = scope["hlo"]
        folded = run(binary, "ops", "--folded", path)
        fsum = sum(int(line.rsplit(" ", 1)[1]) for line in folded.splitlines())
        checks = [
            ("scope roots", abs(roots - want) <= 1e-9 * max(want, 1)),
            ("scope self_ns", abs(scope["self_ns"] - want) <= 1e-9 * max(want, 1)),
            ("source rows", abs(by_src - want) <= 1e-9 * max(want, 1)),
            ("hlo counts", h["found"] + h["not_in_hlo"] + h["without_hlo"] == h["ops"] == len(plain["ops"])),
            ("folded", abs(fsum - want) <= 0.5 * nops + 1e-6),
            ("some found", h["found"] > 0),
        ]
        for name, ok in checks:
            if not ok:
                failures += 1
                print("%s: %s differs (ops self %.3f ns, scope %.3f, source %.3f, folded %d, hlo %s)"
                      % (path, name, want, roots, by_src, fsum, h), file=sys.stderr)
        print("%s: %d ops, self %.3f ns, %d found in the HLO" % (os.path.basename(path), h["ops"], want, h["found"]))
    sys.exit(1 if failures else 0)


main()
