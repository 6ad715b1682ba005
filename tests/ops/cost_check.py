#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The cost model from HLO shapes against a second source, on the bundled traces.

TPU (tpu_*.xplane.pb): every op with the trace's own flops and bytes_accessed
is looked up with `hlo --op --json`; the model's FLOPs per occurrence must
equal the trace's, and its bytes too, but for one explained difference: the
TPU leaves out rank-0 operands (scalars live in its scalar memory, not HBM),
which the model counts, so a difference must be exactly those operands'
bytes (read here from the instruction's text).

MI300X GEMMs (mi300x_jax_gemm): every __cublas$gemm custom-call's FLOPs must
be 2*M*N*K from its shapes, read here from its text.

usage: cost_check.py SOURCE_DIR XPLANE_STAT
"""
import glob
import json
import os
import re
import subprocess
import sys

BYTES = {"pred": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2, "f16": 2, "bf16": 2, "s32": 4, "u32": 4, "f32": 4,
         "s64": 8, "u64": 8, "f64": 8, "c64": 8, "c128": 16}


def run(binary, *args):
    out = subprocess.run([binary, *args], capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit("%s %s: exit %d: %s" % (binary, " ".join(args), out.returncode, out.stderr))
    return json.loads(out.stdout)


def instruction(binary, path, op, module):
    return run(binary, "hlo", "--json", "--op", op, "--module", module, path)["instructions"][0]


def operands(text):
    """The operands' (type, dims) of an instruction line: "opcode(f32[] %a, bf16[2,3] %b)"."""
    inside = text.split(" = ", 1)[1]
    inside = inside[inside.index("(", inside.index(" ") if not inside.startswith("(") else
                                 inside.index(") ") + 1) + 1:]
    return [(t, [int(d) for d in dims.split(",") if d]) for t, dims in re.findall(r"(\w+)\[([\d,]*)\] %", inside)]


def main():
    src, binary = sys.argv[1], sys.argv[2]
    failures = checked = explained = 0
    tpu = sorted(glob.glob(os.path.join(src, "testdata/real/tpu_*.xplane.pb")))
    if not tpu:
        sys.exit("no TPU trace in testdata/real")
    for path in tpu:
        for o in run(binary, "ops", "--json", path)["ops"]:
            if o["flops"] is None or o["bytes_accessed"] is None:
                continue
            ins = instruction(binary, path, o["name"], o["module"])
            occ = o["occurrences"]
            tf, tb = o["flops"] / occ, o["bytes_accessed"] / occ
            checked += 1
            if ins["flops"] != tf:
                failures += 1
                print("%s: %s: model %s FLOPs, trace %s" % (path, o["name"], ins["flops"], tf), file=sys.stderr)
            if ins["bytes_accessed"] != tb:
                scalars = sum(BYTES[t] for t, dims in operands(ins["text"]) if not dims)
                if ins["bytes_accessed"] - tb == scalars and scalars:
                    explained += 1
                else:
                    failures += 1
                    print("%s: %s: model %s bytes, trace %s (scalar operands %d)"
                          % (path, o["name"], ins["bytes_accessed"], tb, scalars), file=sys.stderr)
    print("TPU: %d ops compared, FLOPs equal; bytes equal but %d that differ by their scalar operands"
          % (checked, explained))
    gemm = os.path.join(src, "testdata/real/mi300x_jax_gemm.xplane.pb")
    ngemm, gemms = 0, {}
    for m in run(binary, "hlo", "--json", gemm)["modules"]:
        if m["name"] != "jit_dot":
            continue
        for op in ("custom-call.1", "custom-call"):
            r = subprocess.run([binary, "hlo", "--json", "--op", op, "--module",
                                "%s(%s)" % (m["name"], m["program_id"]), gemm], capture_output=True, text=True)
            if r.returncode:
                continue
            ins = json.loads(r.stdout)["instructions"][0]
            if ins["opcode"] != "custom-call" or "gemm" not in (ins["custom_call_target"] or ""):
                continue
            result = re.match(r"%\S+ = \((\w+)\[([\d,]+)\]", ins["text"])
            (_, lhs), (_, rhs) = operands(ins["text"])[:2]
            out = [int(d) for d in result.group(2).split(",")]
            mm, nn, kk = out[0], out[1], lhs[1]
            ngemm += 1
            if op == "custom-call.1":
                gemms[int(m["program_id"])] = 2 * mm * nn * kk
            if lhs[0] != mm or rhs != [kk, nn] or ins["flops"] != 2 * mm * nn * kk:
                failures += 1
                print("%s: %s(%s) %s: model %s FLOPs, 2*M*N*K = %d" % (gemm, m["name"], m["program_id"], op,
                      ins["flops"], 2 * mm * nn * kk), file=sys.stderr)
    if ngemm < 5:
        failures += 1
        print("%s: %d GEMMs found, expected the jit_dot programs" % (gemm, ngemm), file=sys.stderr)
    print("MI300X: %d GEMMs, FLOPs 2*M*N*K" % ngemm)
    # ops on GPU: each jit_dot GEMM row's FLOPs are its calls times 2*M*N*K (the kernels carry no
    # scope_range_id: the calls come from the host), with a bound against the derived peaks
    rows = [o for o in run(binary, "ops", "--json", gemm)["ops"]
            if o["module"] == "jit_dot" and o["name"] == "custom-call.1"]
    for o in rows:
        want = gemms.get(int(o["program_id"]))
        if (want is None or o["calls"] is None or o["flops"] != o["calls"] * want or o["calls_from"] != "host"
                or o["cost_from"] != "hlo" or o["bound_by"] is None or o["calls"] != o["occurrences"]):
            failures += 1
            print("%s: ops: jit_dot(%s) custom-call.1: %s calls (%s), %s FLOPs, bound %s; 2*M*N*K = %s" % (
                gemm, o["program_id"], o["calls"], o["calls_from"], o["flops"], o["bound_by"], want),
                file=sys.stderr)
    if len(rows) != len(gemms) or len(rows) < 5:
        failures += 1
        print("%s: ops: %d jit_dot GEMM rows for %d programs" % (gemm, len(rows), len(gemms)), file=sys.stderr)
    print("MI300X ops: %d jit_dot GEMM rows, FLOPs = calls x 2*M*N*K, each with a bound" % len(rows))
    # every GPU op costed from the HLO: its FLOPs and bytes its calls times its instruction's (hlo --op)
    costed = 0
    for path in sorted(glob.glob(os.path.join(src, "testdata/real/*.xplane.pb"))):
        doc = subprocess.run([binary, "ops", "--json", path], capture_output=True, text=True)
        if doc.returncode:
            continue
        for o in json.loads(doc.stdout)["ops"]:
            if o["cost_from"] != "hlo":
                continue
            ins = instruction(binary, path, o["name"], "%s(%s)" % (o["module"], o["program_id"]))
            costed += 1
            for k in ("flops", "bytes_accessed"):
                if (ins[k] is None) != (o[k] is None) or (o[k] is not None and o[k] != o["calls"] * ins[k]):
                    failures += 1
                    print("%s: ops: %s(%s) %s: %s %s, %s calls x %s" % (path, o["module"], o["program_id"],
                          o["name"], k, o[k], o["calls"], ins[k]), file=sys.stderr)
    if costed < 50:
        failures += 1
        print("only %d GPU ops costed from the HLO over the bundled traces" % costed, file=sys.stderr)
    print("GPU: %d ops costed from the HLO, each its calls x its instruction's cost" % costed)
    sys.exit(1 if failures else 0)


main()
