# SPDX-License-Identifier: Apache-2.0
"""The real NVIDIA JAX traces (testdata/real/nvidia_h200_*) against a second,
independent reading: a protobuf wire walk written here from the XSpace schema
(proto/xplane.proto), with no code of the tool's.

For each device event carrying hlo_module and program_id stats (in the event
or its metadata; a ref_value names a stat metadata), the function's busy
time is the union of its events' intervals over the whole trace; the scripts
ran each function's executions one after another (block_until_ready), so
that union is the sum of per-execution unions that `functions --json` calls
total_ns. Executions are what the scripts ran (tools/gpu/jax_*.py, the counts
in testdata/real/README.md): they must match exactly.

python3 nvidia_check.py XPLANE_STAT REAL_DIR
"""
import json
import os
import subprocess
import sys


def varint(b, i):
    v = s = 0
    while True:
        c = b[i]
        i += 1
        v |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return v, i


def fields(b):
    """(field number, wire type, value) of one message: ints, or bytes for length-delimited."""
    i = 0
    while i < len(b):
        key, i = varint(b, i)
        f, wt = key >> 3, key & 7
        if wt == 0:
            v, i = varint(b, i)
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 2:
            n, i = varint(b, i)
            v, i = b[i:i + n], i + n
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        else:
            raise ValueError(f"wire type {wt}")
        yield f, wt, v


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def stat(b):
    """(metadata id, value): int, str, or ('ref', id)."""
    mid, val = 0, None
    for f, _, v in fields(b):
        if f == 1:
            mid = signed(v)
        elif f in (3, 4):
            val = signed(v) if f == 4 else v
        elif f == 5:
            val = v.decode("utf-8", "replace")
        elif f == 7:
            val = ("ref", v)
    return mid, val


def map_entry(b):
    key, val = 0, b""
    for f, _, v in fields(b):
        if f == 1:
            key = signed(v)
        elif f == 2:
            val = v
    return key, val


def plane_functions(pb):
    name, lines, evmeta, statname = "", [], {}, {}
    for f, _, v in fields(pb):
        if f == 2:
            name = v.decode()
        elif f == 3:
            lines.append(v)
        elif f == 4:
            k, m = map_entry(v)
            evmeta[k] = [s for ff, _, s in fields(m) if ff == 5]
        elif f == 5:
            k, m = map_entry(v)
            statname[k] = next((s.decode() for ff, _, s in fields(m) if ff == 2), "")
    if not name.startswith("/device:GPU"):
        return {}

    def value(val):
        return statname.get(val[1], "") if isinstance(val, tuple) else val

    spans = {}
    for lb in lines:
        ts, events = 0, []
        for f, _, v in fields(lb):
            if f == 3:
                ts = signed(v)
            elif f == 4:
                events.append(v)
        for eb in events:
            mid, off, dur, st = 0, 0, 0, []
            for f, _, v in fields(eb):
                if f == 1:
                    mid = signed(v)
                elif f == 2:
                    off = signed(v)
                elif f == 3:
                    dur = signed(v)
                elif f == 4:
                    st.append(v)
            kv = {}
            for s in evmeta.get(mid, []) + st:  # the event's own stats override its metadata's
                k, val = stat(s)
                kv[statname.get(k, "")] = value(val)
            if "hlo_module" in kv and "program_id" in kv:
                start = ts * 1000 + off
                spans.setdefault((kv["hlo_module"], int(kv["program_id"])), []).append((start, start + dur))
    return spans


def union_ps(iv):
    total, end = 0, None
    for a, b in sorted(iv):
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def independent(path):
    spans = {}
    for f, _, v in fields(open(path, "rb").read()):
        if f == 1:
            for k, iv in plane_functions(v).items():
                spans.setdefault(k, []).extend(iv)
    return {k: union_ps(iv) for k, iv in spans.items()}


# file: {function name: executions of each of its programs}, from the scripts
EXPECTED = {
    "nvidia_h200_jax_matmul.xplane.pb": {"jit_matmul": 10},
    "nvidia_h200_jax_model.xplane.pb": {"jit_mlp": 5, "jit_layer_norm": 5, "jit_scan_steps": 5,
                                        "jit_fusion_chain": 5},
    "nvidia_h200_jax_model_graphs_off.xplane.pb": {"jit_mlp": 5, "jit_layer_norm": 5, "jit_scan_steps": 5,
                                                   "jit_fusion_chain": 5},
    # its host plane removed: executions from XLA's scope ranges alone (the runs rule gave 17)
    "../derived/nvidia_h200_jax_model_graphs_off_nohost.xplane.pb": {"jit_mlp": 5, "jit_layer_norm": 5,
                                                                  "jit_scan_steps": 5, "jit_fusion_chain": 5},
    "nvidia_h200_jax_model_graphs_min1.xplane.pb": {"jit_mlp": 5, "jit_layer_norm": 5, "jit_scan_steps": 5,
                                                    "jit_fusion_chain": 5},
    "nvidia_h200_jax_memory.xplane.pb": {"jit_widen": 4, "jit_fill": 8},
    "nvidia_h200_autotune/profile_0.xplane.pb": {"jit_autotune_fn_0": 5, "jit_autotune_fn_1": 5},
    "nvidia_h200_autotune/profile_1.xplane.pb": {"jit_autotune_fn_0": 5, "jit_autotune_fn_1": 5},
    "nvidia_h200_autotune/profile_2.xplane.pb": {"jit_autotune_fn_0": 5, "jit_autotune_fn_1": 5},
    "nvidia_h200_two_processes/process_0.xplane.pb": {"jit__lambda": 4},
    "nvidia_h200_two_processes/process_1.xplane.pb": {"jit__lambda": 4},
    "nvidia_h200_capture_matmul.xplane.pb": {"jit_matmul": 10},
    "nvidia_h200_capture_model.xplane.pb": {"jit_mlp": 5, "jit_layer_norm": 5, "jit_scan_steps": 5,
                                            "jit_fusion_chain": 5},
    "nvidia_h200_capture_autotune.xplane.pb": {"jit_autotune_fn_0": 5, "jit_autotune_fn_1": 5},
    "nvidia_h200_capture_vector_add.xplane.pb": {"vector_add": 20},
}


def main():
    xps, real = sys.argv[1], sys.argv[2]
    bad = 0
    for name, execs in EXPECTED.items():
        path = os.path.join(real, name)
        want = independent(path)
        out = subprocess.run([xps, "functions", "--json", path], capture_output=True, text=True)
        if out.returncode != 0:
            print(f"{name}: exit {out.returncode}: {out.stderr.strip()}")
            bad += 1
            continue
        doc = json.loads(out.stdout)
        if doc["warnings"]:
            print(f"{name}: warnings {doc['warnings']}")
            bad += 1
        got = {(fn["name"], int(fn["program_id"])): fn for fn in doc["functions"]}
        if set(got) != set(want):
            print(f"{name}: functions {sorted(got)} != independent {sorted(want)}")
            bad += 1
            continue
        for key, ps in sorted(want.items()):
            fn = got[key]
            if round(fn["total_ns"] * 1000) != ps:
                print(f"{name}: {key} total {fn['total_ns']} ns, independent {ps / 1000} ns")
                bad += 1
            if fn["executions"] != execs.get(key[0]):
                print(f"{name}: {key} {fn['executions']} executions, the script ran {execs.get(key[0])}")
                bad += 1
        print(f"{name}: {len(want)} function(s) agree")
    sys.exit(1 if bad else 0)


main()
