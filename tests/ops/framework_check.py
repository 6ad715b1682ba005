#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""`ops --by framework` against a second path, on the bundled traces.

TensorFlow (v100_tf_bert): the GPU kernels are listed one by one with
`events --list --json` through the other decoder (protobuf-c); each kernel
(an event of a Stream line carrying kernel_details) is given its framework
op here, from its tf_op stat, else the innermost "name:Type" level of its
annotation stack; the time per framework op and per type must equal the
command's to the nanosecond, and every kernel must be counted.

XLA (the JAX traces): the framework ops' times must add up to the ops' per
line kind, and each op's type must be its name's last frame where the HLO
gives none (JAX writes no op_type).

usage: framework_check.py SOURCE_DIR XPLANE_STAT
"""
import glob
import json
import os
import subprocess
import sys


def run(binary, *args, lines=False):
    out = subprocess.run([binary, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("%s %s: exit %d: %s" % (binary, " ".join(args), out.returncode, out.stderr))
    if lines:
        return [json.loads(x) for x in out.stdout.splitlines() if x]
    return json.loads(out.stdout)


def framework_op(text, annotation):
    """(name, type) of "name:Type" (the innermost level naming one, for an annotation), or None."""
    found = None
    for level in (text.split("::") if annotation else [text]):
        head = level.split("#", 1)[0]
        name, colon, kind = head.rpartition(":")
        if colon and name and kind:
            found = (name, kind)
    return found


def check_tf(binary, path):
    failures = 0
    ops, types, kernels, named = {}, {}, 0, 0
    for ev in run(binary, "events", "--list", "--json", "--reader", "protobuf-c", "--plane", "/device:GPU",
                  "--line", "Stream", path, lines=True):
        stats = ev.get("stats", {})
        if "kernel_details" not in stats:
            continue
        kernels += 1
        fw = None
        if isinstance(stats.get("tf_op"), str):
            fw = framework_op(stats["tf_op"], False)
        if fw is None and isinstance(stats.get("annotation"), str):
            fw = framework_op(stats["annotation"], True)
        if fw is None:
            continue
        named += 1
        ops[fw] = ops.get(fw, 0) + round(ev["duration_ns"])
        types[fw[1]] = types.get(fw[1], 0) + round(ev["duration_ns"])
    doc = run(binary, "ops", "--by", "framework", "--json", path)
    got_ops = {(r["name"], r["type"]): r["total_ns"] for r in doc["frameworks"]}
    got_types = {r["name"]: r["total_ns"] for r in doc["framework_types"]}
    if got_ops != ops:
        diff = sorted(set(got_ops.items()) ^ set(ops.items()))[:5]
        print("FAIL %s: framework ops differ from the kernels listed (first: %s)" % (path, diff))
        failures += 1
    if got_types != types:
        print("FAIL %s: types differ: %s against %s" % (path, got_types, types))
        failures += 1
    occ = sum(r["occurrences"] for r in doc["frameworks"])
    if occ != named or doc["kernels_without_hlo_op"] != kernels - named or not named:
        print("FAIL %s: %d kernels counted, %d left out; listed %d naming an op of %d" %
              (path, occ, doc["kernels_without_hlo_op"], named, kernels))
        failures += 1
    print("%s: %d kernels, %d framework ops, %d types" % (os.path.basename(path), kernels, len(ops), len(types)))
    return failures


def check_xla(binary, path):
    failures = 0
    doc = run(binary, "ops", "--by", "framework", "--json", path)
    per_line = {}
    for r in doc["frameworks"]:
        per_line[r["line"]] = per_line.get(r["line"], 0) + r["total_ns"]
        if not r["name"].startswith("(") and r["type"] != r["name"].rsplit("/", 1)[-1]:
            print("FAIL %s: %r has type %r, not its last frame" % (path, r["name"], r["type"]))
            failures += 1
    for line in doc["lines"]:
        ops = sum(r["total_ns"] for r in doc["ops"] if r["line"] == line["line"])
        if abs(per_line.get(line["line"], 0) - ops) > 1e-6 * max(ops, 1):
            print("FAIL %s: %s framework ops total %s, ops %s" % (path, line["line"], per_line.get(line["line"]), ops))
            failures += 1
    print("%s: %d framework ops" % (os.path.basename(path), len(doc["frameworks"])))
    return failures


def main():
    src, binary = sys.argv[1], sys.argv[2]
    real = os.path.join(src, "testdata/real")
    failures = check_tf(binary, os.path.join(real, "v100_tf_bert.xplane.pb"))
    for path in sorted(glob.glob(os.path.join(real, "*jax*.xplane.pb"))) + \
            sorted(glob.glob(os.path.join(real, "tpu_*.xplane.pb"))):
        failures += check_xla(binary, path)
    if failures:
        sys.exit("%d failure(s)" % failures)


if __name__ == "__main__":
    main()
