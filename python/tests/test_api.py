# SPDX-License-Identifier: Apache-2.0
"""xplane_stat.functions and autotune against the command's --json on every
real trace and the synthetic autotune cases: equal, field by field (JSON
ids past 2^53 are strings, which are compared as the integers they are)."""
import ctypes
import glob
import json
import math
import os
import shutil
import subprocess
import sys

import pytest

import xplane_stat
from conftest import BUILD, ROOT

XPS = os.path.join(BUILD, "xplane-stat")
REAL = os.path.join(ROOT, "testdata", "real")
SYNTH = os.path.join(BUILD, "synth")
REAL_TRACES = sorted(glob.glob(os.path.join(REAL, "**", "*.xplane.pb"), recursive=True))


def command(*args):
    out = subprocess.run([XPS, *args], capture_output=True, text=True)
    return out.returncode, json.loads(out.stdout) if out.stdout.strip().startswith("{") else None, out.stderr


def ids_as_ints(v):
    if isinstance(v, dict):
        return {k: ids_as_ints(x) for k, x in v.items()}
    if isinstance(v, list):
        return [ids_as_ints(x) for x in v]
    return v


def as_json(v):
    """v as the command's JSON prints it: cJSON writes a double with 15
    significant digits when that reads back within DBL_EPSILON (relative) of
    it, else with 17; the library's own doubles are exact."""
    if isinstance(v, dict):
        return {k: as_json(x) for k, x in v.items()}
    if isinstance(v, list):
        return [as_json(x) for x in v]
    if isinstance(v, float) and math.isfinite(v):
        short = float("%.15g" % v)
        if abs(short - v) <= max(abs(short), abs(v)) * sys.float_info.epsilon:
            return short
        return float("%.17g" % v)
    return v


def norm_id(v):
    return int(v) if isinstance(v, str) and v.isdigit() else v


def same_rows(api_rows, json_rows):
    assert len(api_rows) == len(json_rows)
    for a, j in zip(api_rows, json_rows):
        j = dict(j, program_id=norm_id(j["program_id"]))
        assert as_json(a) == j


# a CPU-only JAX profile (tests/synth/EXPECTED.md 27): XLA:CPU's thunks taken as a device, as the command takes them
FUNCTION_TRACES = REAL_TRACES + [os.path.join(SYNTH, "cpu.xplane.pb")]


@pytest.mark.parametrize("path", FUNCTION_TRACES, ids=lambda p: os.path.basename(p))
@pytest.mark.parametrize("opts,args", [({}, []), ({"per_device": True, "trim": 1}, ["--per-device", "--trim", "1"])])
def test_functions_like_json(path, opts, args):
    rc, doc, err = command("functions", "--json", *args, path)
    if rc == 4:
        with pytest.raises(xplane_stat.NothingFound):
            xplane_stat.functions(path, **opts)
        return
    assert rc == 0, err
    whole = xplane_stat.functions(path, whole=True, **opts)
    same_rows(whole.pop("functions"), doc.pop("functions"))
    assert as_json(whole) == doc


def test_functions_pooled_directory():
    rc, doc, err = command("functions", "--json", os.path.join(REAL, "nvidia_h200_autotune"))
    assert rc == 0, err
    same_rows(xplane_stat.functions(os.path.join(REAL, "nvidia_h200_autotune")), doc["functions"])


def test_functions_options():
    path = os.path.join(REAL, "mi300x_jax_gemm.xplane.pb")
    rc, doc, err = command("functions", "--json", "--match", "^jit_dot$", "--time", "span", "--min-duration",
                           "1us", path)
    assert rc == 0, err
    same_rows(xplane_stat.functions(path, match="^jit_dot$", time="span", min_duration="1us"), doc["functions"])


def autotune_cases():
    yield "h200", [os.path.join(REAL, "nvidia_h200_autotune")], {}, []
    yield "h200_trim0", [os.path.join(REAL, "nvidia_h200_autotune")], {"trim": 0}, ["--trim", "0"]
    yield "synth", [os.path.join(SYNTH, "autotune")], {}, []
    yield "synth_all", [os.path.join(SYNTH, "autotune")], {"all_devices": True}, ["--all-devices"]
    yield "programs", [os.path.join(SYNTH, "autotune_programs.xplane.pb")], {}, []
    yield "programs_pooled", [os.path.join(SYNTH, "autotune_programs.xplane.pb")], {"pool_programs": True}, \
        ["--pool-programs"]
    yield "one_sample_each", [os.path.join(SYNTH, "autotune", "round_0.xplane.pb")], {}, []
    yield "compat_h200", [os.path.join(REAL, "nvidia_h200_autotune")], {"compat": "ejkernel"}, ["--compat=ejkernel"]
    yield "compat_synth", [os.path.join(SYNTH, "autotune")], {"compat": "ejkernel"}, ["--compat=ejkernel"]
    yield "compat_gpu_device", [os.path.join(REAL, "nvidia_h200_autotune")], {"compat": "ejkernel", "device": "GPU:0"}, \
        ["--compat=ejkernel", "--device", "GPU:0"]
    # sessions of 2 hosts (tests/synth/EXPECTED.md 5c): 4 runs of 2 profiles, grouped as the command groups them
    step = {"id_regex": "^jit_(step)"}
    sessions = os.path.join(SYNTH, "sessions")
    yield "session", [os.path.join(sessions, "base")], step, ["--id-regex", "^jit_(step)"]
    yield "session_by_file", [os.path.join(sessions, "base")], dict(step, run_by="file"), \
        ["--id-regex", "^jit_(step)", "--run-by", "file"]
    yield "mixed_by_dir", [os.path.join(sessions, "mixed")], dict(step, run_by="dir"), \
        ["--id-regex", "^jit_(step)", "--run-by", "dir"]
    yield "partial", [os.path.join(sessions, "partial")], step, ["--id-regex", "^jit_(step)"]


@pytest.mark.parametrize("name,paths,opts,args", list(autotune_cases()), ids=[c[0] for c in autotune_cases()])
def test_autotune_like_json(name, paths, opts, args):
    rc, doc, err = command("autotune", "--json", *args, *paths)
    assert rc == 0, err
    res = xplane_stat.autotune(paths, **opts)
    assert as_json(res) == ids_as_ints(doc)


def without_copy_notes(doc):
    """The command's JSON less its notes of runs given twice: the command's own doing, the library counts
    them in "copies" (xplane_stat.h: Warnings)."""
    doc["warnings"] = [w for w in doc["warnings"] if "--keep-duplicates counts every copy" not in w]
    return doc


def test_autotune_copies_count_once(tmp_path):
    src = os.path.join(REAL, "nvidia_h200_autotune", "profile_0.xplane.pb")
    for n in ("a", "b"):
        shutil.copy(src, tmp_path / f"{n}.xplane.pb")
    once = xplane_stat.autotune(tmp_path)
    every = xplane_stat.autotune(tmp_path, keep_duplicates=True)
    executions = xplane_stat.autotune(tmp_path, keep_duplicates=True, samples="executions")
    # one run: its 5 executions; two (the copy kept): a mean each; every execution of both: 10
    assert once["candidates"]["0"]["n"] == 5 and once["samples"] == "executions" and once["runs"] == 1
    assert every["candidates"]["0"]["n"] == 2 and every["samples"] == "run means" and every["runs"] == 2
    assert executions["candidates"]["0"]["n"] == 10 and executions["samples"] == "executions"
    rc, doc, err = command("autotune", "--json", str(tmp_path))
    assert doc["warnings"] and not once["warnings"]
    assert as_json(once) == ids_as_ints(without_copy_notes(doc))


def test_autotune_session_runs():
    """4 runs of 2 hosts: a mean per run (4 samples, EXPECTED.md 5c), not one per profile (8)."""
    base = os.path.join(SYNTH, "sessions", "base")
    runs = xplane_stat.autotune(base, id_regex="^jit_(step)")
    files = xplane_stat.autotune(base, id_regex="^jit_(step)", run_by="file")
    assert runs["runs"] == 4 and runs["candidates"]["step"]["n"] == 4
    assert files["runs"] == 8 and files["candidates"]["step"]["n"] == 8
    assert runs["candidates"]["step"]["mean_s"] == pytest.approx(106.5e-6, rel=1e-12)
    with pytest.raises(xplane_stat.UsageError):
        xplane_stat.autotune(base, run_by="host")


def test_errors(tmp_path):
    with pytest.raises(xplane_stat.ReadError) as e:
        xplane_stat.functions(tmp_path / "missing.xplane.pb")
    assert "missing.xplane.pb" in str(e.value) and e.value.exit_code == 1
    with pytest.raises(xplane_stat.InputError) as e:
        xplane_stat.functions(os.path.join(ROOT, "testdata", "bad", "corrupt_utf8_mangled.xplane.pb"))
    assert e.value.exit_code == 3
    with pytest.raises(xplane_stat.NothingFound):
        xplane_stat.functions(os.path.join(REAL, "v100_tf_bert.xplane.pb"))
    with pytest.raises(xplane_stat.UsageError) as e:
        xplane_stat.functions(os.path.join(REAL, "mi300x_jax_gemm.xplane.pb"), match="(")
    assert "match" in str(e.value)
    with pytest.raises(xplane_stat.UsageError):
        xplane_stat.autotune(os.path.join(REAL, "nvidia_h200_autotune"), id_regex="^jit_")
    with pytest.raises(xplane_stat.NothingFound):
        xplane_stat.autotune(os.path.join(REAL, "mi300x_jax_gemm.xplane.pb"))
    with pytest.raises(xplane_stat.UsageError):
        xplane_stat.functions(tmp_path)  # a folder without traces
    with pytest.raises(xplane_stat.UsageError):
        xplane_stat.functions(os.path.join(REAL, "mi300x_jax_gemm.xplane.pb"), min_duration="fast")
    with pytest.raises(xplane_stat.UsageError):
        xplane_stat.functions(os.path.join(REAL, "mi300x_jax_gemm.xplane.pb"), time="wall")
    with pytest.raises(xplane_stat.UsageError):
        xplane_stat.functions(os.path.join(REAL, "mi300x_jax_gemm.xplane.pb"), device=1)
    # bytes are taken as they are
    assert xplane_stat.functions(os.path.join(REAL, "mi300x_jax_gemm.xplane.pb"), device=b"gpu")[0]["name"] == "jit_dot"
    # every failure is an xplane_stat.Error; out of memory is a MemoryError too
    assert issubclass(xplane_stat.OutOfMemory, xplane_stat.Error) and issubclass(xplane_stat.OutOfMemory, MemoryError)


def test_library_not_found(tmp_path):
    code = ("import os, sys; sys.path.insert(0, sys.argv[1]); os.environ['XPLANE_STAT_LIBRARY'] = sys.argv[2]\n"
            "import xplane_stat\n"
            "try:\n    xplane_stat.version()\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run(["python3", "-c", code, os.path.join(ROOT, "python"), str(tmp_path / "nope.so")],
                         capture_output=True, text=True)
    assert "nope.so" in out.stdout and "XPLANE_STAT_LIBRARY" in out.stdout, out.stdout + out.stderr


def test_pip_install_offline(tmp_path):
    """pip install --no-build-isolation from the checkout, offline: the package
    and its pytest11 entry point (skipped without pip and setuptools)."""
    probe = subprocess.run([sys.executable, "-c", "import setuptools, pip"], capture_output=True)
    if probe.returncode:
        pytest.skip("no pip or setuptools for this python3")
    r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-build-isolation", "--no-deps",
                        "--no-index", "--target", str(tmp_path / "site"), os.path.join(ROOT, "python")],
                       capture_output=True, text=True, cwd=tmp_path)
    for junk in ("build", "xplane_stat.egg-info", "xplane_stat.egg-info"):
        shutil.rmtree(os.path.join(ROOT, "python", junk), ignore_errors=True)
    assert r.returncode == 0, r.stderr
    eps = subprocess.run([sys.executable, "-c", "import sys, importlib.metadata as m; sys.path.insert(0, sys.argv[1]);"
                          "print([e.value for e in m.entry_points(group='pytest11') if e.name == 'xplane_stat'])",
                          str(tmp_path / "site")], capture_output=True, text=True)
    assert "xplane_stat.pytest_plugin" in eps.stdout, eps.stderr
    assert os.path.exists(tmp_path / "site" / "xplane_stat" / "py.typed")


@pytest.mark.parametrize("path", REAL_TRACES, ids=lambda p: os.path.relpath(p, REAL))
def test_kernels_like_json(path):
    rc, doc, err = command("kernels", "--json", path)
    if rc == 4:
        with pytest.raises(xplane_stat.NothingFound):
            xplane_stat.kernels(path)
        return
    assert rc == 0, err
    assert as_json(xplane_stat.kernels(path, whole=True)) == doc


def test_kernels_pooled_and_device():
    paths = [os.path.join(REAL, "mi300x_jax_conv.xplane.pb"), os.path.join(REAL, "mi300x_jax_gemm.xplane.pb")]
    for opts, args in (({}, []), ({"device": "GPU:1"}, ["--device", "GPU:1"])):
        rc, doc, err = command("kernels", "--json", *args, *paths)
        assert rc == 0, err
        assert as_json(xplane_stat.kernels(paths, whole=True, **opts)) == doc


def ops_doc(doc):
    """ops --json, its rows' program ids (strings past 2^53) as integers."""
    for r in doc.get("ops", []):
        if "program_id" in r:
            r["program_id"] = norm_id(r["program_id"])
    for r in doc.get("scopes", []):
        r["top_op_program_id"] = norm_id(r["top_op_program_id"])
    return doc


OPS_TRACES = REAL_TRACES + [os.path.join(SYNTH, f"ops_{n}.xplane.pb") for n in ("tpu", "gpu", "gpu_cost")] + [
    os.path.join(SYNTH, "cpu.xplane.pb"), os.path.join(SYNTH, "aggregated.xplane.pb")]


@pytest.mark.parametrize("path", OPS_TRACES, ids=[os.path.basename(p) for p in OPS_TRACES])
def test_ops_like_json(path):
    rc, doc, err = command("ops", "--json", path)
    if rc == 4:
        with pytest.raises(xplane_stat.NothingFound):
            xplane_stat.ops(path)
        return
    assert rc == 0, err
    assert as_json(xplane_stat.ops(path)) == ops_doc(doc)


@pytest.mark.parametrize("args,opts", [
    (["--by", "category"], {"by": "category"}),
    (["--sort", "self", "--top", "2"], {"sort": "self", "top": 2}),
    (["--sort", "bytes", "--by", "category", "--top", "1"], {"sort": "bytes", "by": "category", "top": 1}),
    (["--device", "TPU:1"], {"device": "TPU:1"}),
])
def test_ops_options(args, opts):
    path = os.path.join(REAL, "tpu_v6e_inference.xplane.pb")
    rc, doc, err = command("ops", "--json", *args, path)
    assert rc == 0, err
    assert as_json(xplane_stat.ops(path, **opts)) == ops_doc(doc)


HLO_TRACES = [p for p in REAL_TRACES if "_jax_" in p or "tpu_" in p] + [os.path.join(SYNTH, "ops_hlo.xplane.pb")]
# by framework also reads TensorFlow's kernels, which name no HLO op
HLO_BY = [(p, by) for p in HLO_TRACES for by in ("scope", "source", "framework")] + [
    (p, "framework") for p in [os.path.join(REAL, "v100_tf_bert.xplane.pb"),
                               os.path.join(SYNTH, "ops_framework.xplane.pb")]]


@pytest.mark.parametrize("path,by", HLO_BY, ids=["%s-%s" % (os.path.basename(p), by) for p, by in HLO_BY])
def test_ops_by_hlo_like_json(path, by):
    """ops by scope, source and framework, joined to the HLO the traces carry, as the command's --json."""
    rc, doc, err = command("ops", "--json", "--by", by, path)
    assert rc == 0, err
    assert as_json(xplane_stat.ops(path, by=by)) == ops_doc(doc)
    rc, doc, err = command("ops", "--json", "--by", by, "--top", "1", path)
    assert rc == 0, err
    assert as_json(xplane_stat.ops(path, by=by, top=1)) == ops_doc(doc)


def test_ops_by_framework_tf():
    """TensorFlow kernels by the op they ran for (tests/synth/EXPECTED.md 17j), worked by hand."""
    doc = xplane_stat.ops(os.path.join(SYNTH, "ops_framework.xplane.pb"), by="framework")
    assert [(r["name"], r["type"], r["occurrences"], r["total_ns"]) for r in doc["frameworks"]] == [
        ("model/dense/MatMul", "MatMul", 2, 30000), ("(no HLO)", None, 1, 7000),
        ("model/dense/BiasAdd", "BiasAdd", 1, 6000), ("inner/Relu", "Relu", 1, 5000), ("out", "AddV2", 1, 4000),
        ("Mul_1", "Mul", 1, 3000), ("out", "Identity", 1, 2000), ("evil\x1b[31m/op", "Ty\tpe", 1, 1000)]
    assert [r["name"] for r in doc["framework_types"]][:2] == ["MatMul", "-"]
    assert doc["kernels_without_hlo_op"] == 1 and doc["hlo"]["tensorflow_ops"] == 7


def test_ops_gpu_cost():
    """GPU ops costed from their HLO (tests/synth/EXPECTED.md 17d), worked by hand."""
    doc = xplane_stat.ops(os.path.join(SYNTH, "ops_gpu_cost.xplane.pb"))
    rows = {r["name"]: r for r in doc["ops"]}
    assert (rows["custom-call.1"]["flops"], rows["custom-call.1"]["bytes_accessed"]) == (131072, 14336)
    assert (rows["fusion.1"]["flops"], rows["fusion.1"]["bytes_accessed"]) == (768, 9216)
    assert rows["custom-call.1"]["bound_by"] == "compute" and rows["fusion.1"]["bound_by"] == "memory"
    assert [rows[n]["cost_from"] for n in ("custom-call.1", "fusion.1", "custom-call.2", "odd.1", "add.3")] == \
        ["hlo", "hlo", "hlo", None, None]
    assert doc["gpu_cost"] == {"ops_from_hlo": 3, "without_flops": 1, "calls_unknown": 1, "not_in_hlo": 1,
                               "cost_unknown": 0, "not_known": ["__my$kernel"]}


def test_ops_usage():
    path = os.path.join(REAL, "tpu_v6e_inference.xplane.pb")
    for bad in ({"sort": "flop"}, {"by": "module"}, {"top": 0}):
        with pytest.raises(xplane_stat.UsageError):
            xplane_stat.ops(path, **bad)


def test_several_inputs_like_json():
    """ops, memory, compile and overview over several inputs at once (every real trace) as the commands."""
    for what, norm in (("ops", ops_doc), ("memory", None), ("compile", compile_doc), ("overview", None)):
        rc, doc, err = command(what, "--json", *REAL_TRACES)
        assert rc == 0, err
        doc = norm(doc) if norm else doc
        assert as_json(getattr(xplane_stat, what)(REAL_TRACES)) == doc, what


@pytest.mark.parametrize("path", REAL_TRACES + [os.path.join(SYNTH, "memory.xplane.pb")],
                         ids=[os.path.basename(p) for p in REAL_TRACES] + ["synth_memory"])
def test_memory_like_json(path):
    rc, doc, err = command("memory", "--json", path)
    if rc == 4:
        with pytest.raises(xplane_stat.NothingFound):
            xplane_stat.memory(path)
        return
    assert rc == 0, err
    assert as_json(xplane_stat.memory(path)) == doc


def test_memory_selects():
    path = os.path.join(REAL, "nvidia_h200_jax_memory.xplane.pb")
    rc, doc, err = command("memory", "--json", "--memory", "host", path)
    assert rc == 0, err
    got = xplane_stat.memory(path, memory="host")
    assert as_json(got) == doc and got["memories"] and all("host" in m["memory_id"] for m in got["memories"])
    with pytest.raises(xplane_stat.NothingFound):
        xplane_stat.memory(path, memory="no-such-memory")


COMPILE_TRACES = REAL_TRACES + [os.path.join(SYNTH, f) for f in ("compile.xplane.pb", "compile_nested.xplane.pb",
                                                                   "compile_programs.xplane.pb",
                                                                   "compile_programs_tpu.xplane.pb")]


def compile_doc(doc):
    """compile --json, program ids as Python gives them (ints)."""
    for f in doc["functions"]:
        f["program_id"] = norm_id(f["program_id"])
    return doc


@pytest.mark.parametrize("path", COMPILE_TRACES, ids=[os.path.basename(p) for p in COMPILE_TRACES])
def test_compile_like_json(path):
    rc, doc, err = command("compile", "--json", path)
    if rc == 4:
        with pytest.raises(xplane_stat.NothingFound):
            xplane_stat.compile(path)
        return
    assert rc == 0, err
    assert as_json(xplane_stat.compile(path)) == compile_doc(doc)


def test_compile_selects():
    path = os.path.join(REAL, "tpu_v6e_inference.xplane.pb")
    rc, doc, err = command("compile", "--json", "--function", "psum", path)
    assert rc == 0, err
    got = xplane_stat.compile(path, function="psum")
    assert as_json(got) == doc and [f["name"] for f in got["functions"]] == ["_psum"]
    with pytest.raises(xplane_stat.NothingFound):
        xplane_stat.compile(path, function="no-such-function")


DIFF_CASES = [
    ("h200_profiles", os.path.join(REAL, "nvidia_h200_autotune", "profile_0.xplane.pb"),
     os.path.join(REAL, "nvidia_h200_autotune", "profile_1.xplane.pb"), {}, []),
    ("h200_graphs", os.path.join(REAL, "nvidia_h200_jax_model_graphs_off.xplane.pb"),
     os.path.join(REAL, "nvidia_h200_jax_model.xplane.pb"), {"match": "mlp|scan"}, ["--match", "mlp|scan"]),
    ("autotune_slow_gate", os.path.join(SYNTH, "diff", "base"), os.path.join(SYNTH, "diff", "slow"),
     {"level": "autotune", "gate": 5}, ["--level", "autotune", "--gate", "5"]),
    ("autotune_options", os.path.join(SYNTH, "diff", "base"), os.path.join(SYNTH, "diff", "slow"),
     {"level": "autotune", "alpha": 0.01, "correction": "none", "min_effect": 10, "gate_p95": 3},
     ["--level", "autotune", "--alpha", "0.01", "--correction", "none", "--min-effect", "10", "--gate-p95", "3"]),
    ("same", os.path.join(SYNTH, "diff", "base"), os.path.join(SYNTH, "diff", "same"), {"level": "autotune"},
     ["--level", "autotune"]),
    ("sessions", os.path.join(SYNTH, "sessions", "base"), os.path.join(SYNTH, "sessions", "cur"), {}, []),
    ("sessions_by_file", os.path.join(SYNTH, "sessions", "base"), os.path.join(SYNTH, "sessions", "cur"),
     {"run_by": "file"}, ["--run-by", "file"]),
    ("sessions_partial", os.path.join(SYNTH, "sessions", "partial"), os.path.join(SYNTH, "sessions", "cur"), {}, []),
]


@pytest.mark.parametrize("name,base,cur,opts,args", DIFF_CASES, ids=[c[0] for c in DIFF_CASES])
def test_diff_like_json(name, base, cur, opts, args):
    """diff(base, current) as diff --json: rows, verdicts, p-values, sides, the gate, warnings."""
    rc, doc, err = command("diff", "--json", *args, base, cur)
    assert rc in (0, 8), err
    for r in doc["rows"]:
        r["program_id"] = norm_id(r["program_id"])
    got = xplane_stat.diff(base, cur, **opts)
    assert as_json(got) == doc
    assert ("gate" in got) == ("gate" in opts or "gate_p95" in opts)
    assert rc != 8 or got["gate"]["failed"]


SUMMARY_CASES = [
    ([os.path.join(REAL, f) for f in sorted(os.listdir(REAL)) if f.endswith(".xplane.pb")], {}, []),
    ([os.path.join(SYNTH, "diff", "base")], {"tags": {"batch": "3", "gpu": "h100"}}, ["--tag", "batch=3,gpu=h100"]),
    ([os.path.join(SYNTH, "compile_programs.xplane.pb"), os.path.join(SYNTH, "gpu_host.xplane.pb")],
     {"device": "GPU", "min_duration": "1us"}, ["--device", "GPU", "--min-duration", "1us"]),
    ([os.path.join(REAL, "tpu_v6e_inference.xplane.pb")], {"children": "fusion"}, ["--children", "fusion"]),
]


@pytest.mark.parametrize("paths,opts,args", SUMMARY_CASES, ids=["real", "tags", "device", "children"])
def test_summarize_like_command(tmp_path, paths, opts, args):
    """summarize(paths, out) writes the command's lines byte for byte, and the command reads them back."""
    want = tmp_path / "want.jsonl"
    got = tmp_path / "got.jsonl"
    out = subprocess.run([XPS, "summarize", *args, *paths, "-o", str(want)], capture_output=True)
    assert out.returncode == 0, out.stderr
    lines = xplane_stat.summarize(paths, got, **opts)
    assert got.read_bytes() == want.read_bytes() and len(lines) == len(want.read_bytes().splitlines())
    assert not list(tmp_path.glob(".*.tmp"))
    if "device" not in opts and "children" not in opts:
        rc, doc, err = command("functions", "--json", str(got))
        rc2, doc2, err2 = command("functions", "--json", *paths)
        assert rc == rc2 and (rc != 0 or doc["functions"] == doc2["functions"])


def test_summarize_errors(tmp_path):
    path = os.path.join(REAL, "mi300x_jax_gemm.xplane.pb")
    for bad in ({"tags": ["nokey"]}, {"tags": ["=v"]}, {"tags": ["a=b,c=d"]}):
        with pytest.raises(xplane_stat.UsageError):
            xplane_stat.summarize(path, **bad)
    with pytest.raises(xplane_stat.UsageError):
        xplane_stat.summarize(path, children="(")
    assert xplane_stat.summarize(path)[0].startswith('{"xplane_stat_summary":1,')
    with pytest.raises(OSError):
        xplane_stat.summarize(path, tmp_path / "no-such-folder" / "s.jsonl")


def test_summarize_writes_as_the_command(tmp_path):
    """-o's ways: a link's target written, an existing file's mode kept, a file reached twice summarised once,
    a trace changed after it was opened refused."""
    src = os.path.join(REAL, "mi300x_jax_gemm.xplane.pb")
    (tmp_path / "runs").mkdir()
    shutil.copy(src, tmp_path / "runs" / "a.xplane.pb")
    os.symlink("a.xplane.pb", tmp_path / "runs" / "b.xplane.pb")
    target = tmp_path / "target.jsonl"
    target.write_text("old\n")
    os.chmod(target, 0o640)
    os.symlink("target.jsonl", tmp_path / "link.jsonl")
    lines = xplane_stat.summarize(tmp_path / "runs", tmp_path / "link.jsonl")
    assert len(lines) == 1 and os.path.islink(tmp_path / "link.jsonl")
    assert target.read_text() == lines[0] and (os.stat(target).st_mode & 0o777) == 0o640
    out = subprocess.run([XPS, "summarize", str(tmp_path / "runs"), "-o", "-"], capture_output=True, text=True)
    assert out.stdout == lines[0]
    trace = xplane_stat._lib.Traces([str(tmp_path / "runs" / "a.xplane.pb")])
    with trace as h:
        shutil.copy(os.path.join(REAL, "mi300x_jax_conv.xplane.pb"), tmp_path / "runs" / "a.xplane.pb")
        line, n = ctypes.c_void_p(), ctypes.c_size_t()
        err = ctypes.create_string_buffer(512)
        rc = xplane_stat._lib.lib().xps_summary_line(h[0], None, ctypes.byref(line), ctypes.byref(n), err, 512)
        assert rc < 0 and b"changed or moved since it was opened" in err.value and not line.value


def test_warnings_like_json(tmp_path):
    """Warnings as the commands give them, a trace without a device among several included, and a path that
    is not UTF-8 (its byte as the text \\xff, as the command's JSON writes it)."""
    odd = os.path.join(os.fsencode(tmp_path), b"h\xff.xplane.pb")
    shutil.copy(os.path.join(SYNTH, "memory.xplane.pb"), odd)
    paths = [os.fsdecode(odd), os.path.join(SYNTH, "ops_tpu.xplane.pb")]
    for what, call in (("functions", lambda: xplane_stat.functions(paths, whole=True)),
                       ("ops", lambda: xplane_stat.ops(paths)), ("overview", lambda: xplane_stat.overview(paths))):
        rc, doc, err = command(what, "--json", *paths)
        assert rc == 0, err
        got = call()["warnings"]
        assert got == doc["warnings"] and any("no device plane" in w and "\\xff" in w for w in got), what


def test_diff_copies_and_errors(tmp_path):
    src = os.path.join(SYNTH, "diff", "base")
    for i in range(5):
        shutil.copy(os.path.join(src, f"round_{i}.xplane.pb"), tmp_path / f"a_{i}.xplane.pb")
        shutil.copy(os.path.join(src, f"round_{i}.xplane.pb"), tmp_path / f"b_{i}.xplane.pb")
    once = xplane_stat.diff(tmp_path, os.path.join(SYNTH, "diff", "slow"), level="autotune")
    every = xplane_stat.diff(tmp_path, os.path.join(SYNTH, "diff", "slow"), level="autotune", keep_duplicates=True)
    assert once["base"]["runs"] == 5 and every["base"]["runs"] == 10
    for bad in ({"level": "kernels"}, {"correction": "bonferroni"}, {"run_by": "host"}, {"alpha": 0.7}):
        with pytest.raises(xplane_stat.UsageError):
            xplane_stat.diff(src, src, **bad)
    with pytest.raises(xplane_stat.NothingFound):
        xplane_stat.diff(src, src, level="functions", match="^no-such-function$")


STRAGGLER_CASES = [
    ([os.path.join(SYNTH, "stragglers.xplane.pb")], {}, []),
    ([os.path.join(SYNTH, "sessions", "pod")], {}, []),
    ([os.path.join(SYNTH, "sessions", "pod")], {"run_by": "file"}, ["--run-by", "file"]),
    ([os.path.join(REAL, "tpu_v6e_inference.xplane.pb"), os.path.join(REAL, "mi300x_jax_conv.xplane.pb")], {}, []),
    ([os.path.join(REAL, "nvidia_h200_two_processes")], {"run_by": "dir"}, ["--run-by", "dir"]),
]


def test_overview_steps_tpu():
    """Steps on TPU (tests/synth/EXPECTED.md 18a), worked by hand."""
    doc = xplane_stat.overview(os.path.join(SYNTH, "steps_tpu.xplane.pb"), steps=True)
    assert [(s["busy_ns"], s["compute_ns"], s["collective_exposed_ns"], s["memcpy_exposed_ns"], s["idle_ns"])
            for s in doc["steps"]] == [(13000, 10000, 0, 3000, 7000), (20000, 10000, 10000, 0, 0)]
    assert [s["flops"] for s in doc["steps"]] == [400000000, 2100000000]
    assert [s["flops_utilization"] for s in doc["steps"]] == pytest.approx([0.1, 0.525], rel=1e-12)


@pytest.mark.parametrize("paths,opts,args", STRAGGLER_CASES,
                         ids=["-".join(os.path.basename(p) for p in c[0]) + "".join(c[2]) for c in STRAGGLER_CASES])
def test_overview_stragglers_like_json(paths, opts, args):
    """overview(stragglers=True) as overview --stragglers --json: devices, hosts, the slowest host, warnings."""
    rc, doc, err = command("overview", "--stragglers", "--json", *args, *paths)
    assert rc == 0, err
    got = xplane_stat.overview(paths, stragglers=True, **opts)
    assert "stragglers" in got and as_json(got) == doc
    assert "stragglers" not in xplane_stat.overview(paths)
    with pytest.raises(xplane_stat.UsageError):
        xplane_stat.overview(paths, stragglers=True, run_by="host")


OVERVIEW_CASES = [(p, []) for p in REAL_TRACES] + [
    (os.path.join(SYNTH, "sessions", "base", "run_0"), []),
    (os.path.join(REAL, "tpu_v6e_inference.xplane.pb"), ["--device", "TPU:1"]),
    (os.path.join(REAL, "v100_tf_bert.xplane.pb"), ["--steps"]),
    (os.path.join(SYNTH, "steps_tpu.xplane.pb"), ["--steps"]),
    (os.path.join(SYNTH, "overview.xplane.pb"), ["--steps"]),
    (os.path.join(SYNTH, "steps_host.xplane.pb"), ["--steps"]),
    (os.path.join(SYNTH, "steps_host_only.xplane.pb"), []),
    (os.path.join(SYNTH, "steps_devices.xplane.pb"), ["--steps"]),
    (os.path.join(SYNTH, "steps_host.xplane.pb"), ["--device", "gpu:7"]),
    (os.path.join(SYNTH, "steps_host_only.xplane.pb"), ["--device", "gpu:7"]),
    (os.path.join(SYNTH, "cpu.xplane.pb"), []),
]


@pytest.mark.parametrize("path,args", OVERVIEW_CASES, ids=[os.path.basename(p) + "".join(a) for p, a in OVERVIEW_CASES])
def test_overview_like_json(path, args):
    rc, doc, err = command("overview", "--json", *args, path)
    opts = {"device": args[1]} if args[:1] == ["--device"] else {"steps": True} if args else {}
    if rc == 4:
        with pytest.raises(xplane_stat.NothingFound):
            xplane_stat.overview(path, **opts)
        return
    assert rc == 0, err
    assert as_json(xplane_stat.overview(path, **opts)) == doc
