# SPDX-License-Identifier: Apache-2.0
"""xplane_stat.jax with a stand-in jax (tests/standin/jax: jax.profiler.trace
copies real traces into the folder it is given). It checks the plumbing (the
folder, the reading, the result's shape and numbers against the command on
the same traces), not JAX: that ran on a GPU (tools/gpu/check.sh, CAPTURE.md)."""
import json
import os
import subprocess
import sys
import warnings

import pytest

from conftest import BUILD, ROOT

STANDIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "standin")
REAL = os.path.join(ROOT, "testdata", "real")
XPS = os.path.join(BUILD, "xplane-stat")
PROFILES = [os.path.join(REAL, "nvidia_h200_autotune", f"profile_{i}.xplane.pb") for i in range(3)]


@pytest.fixture
def standin(monkeypatch):
    monkeypatch.syspath_prepend(STANDIN)
    for m in [m for m in sys.modules if m == "jax" or m.startswith("jax.")]:
        monkeypatch.delitem(sys.modules, m)
    import jax
    jax.calls.clear()
    return jax


def test_profile_time_by_function_id(standin, monkeypatch):
    from xplane_stat.jax import profile_time_by_function_id
    monkeypatch.setenv("XPS_STANDIN_TRACES", os.pathsep.join(PROFILES))
    ran = []
    got = profile_time_by_function_id(lambda: ran.append(1), "gpu", 30)
    assert ran == [1]
    out = subprocess.run([XPS, "autotune", "--json", "--device", "gpu", "--pool-programs", "--samples", "executions",
                          *PROFILES],
                         capture_output=True, text=True)
    doc = json.loads(out.stdout)
    assert set(got) == {0, 1}
    for cid, (mean_s, std_s) in got.items():
        c = doc["candidates"][str(cid)]
        assert mean_s == pytest.approx(c["mean_s"], rel=1e-15)
        assert std_s == pytest.approx(c["std_s"], rel=1e-15)
    # fewer executions than the calls announced: warned
    with pytest.warns(RuntimeWarning, match="fewer than the 31 calls"):
        profile_time_by_function_id(lambda: None, "gpu", 31)


def test_profile_time_by_function_id_no_candidates(standin, monkeypatch):
    import xplane_stat
    from xplane_stat.jax import profile_time_by_function_id
    monkeypatch.setenv("XPS_STANDIN_TRACES", os.path.join(REAL, "nvidia_h200_jax_matmul.xplane.pb"))
    with pytest.raises(xplane_stat.NothingFound, match="timing_closure"):
        profile_time_by_function_id(lambda: None, "gpu", 10)


def test_profile(standin, monkeypatch):
    from xplane_stat.jax import profile
    monkeypatch.setenv("XPS_STANDIN_TRACES", os.path.join(REAL, "nvidia_h200_jax_matmul.xplane.pb"))

    def matmul(a, b):
        return a

    row = profile(matmul, 1, 2, rounds=10, warmup=2)
    assert row["name"] == "jit_matmul" and row["executions"] == 10
    assert len([c for c in standin.calls if c[0] == "block_until_ready"]) == 12
    out = subprocess.run([XPS, "functions", "--json", os.path.join(REAL, "nvidia_h200_jax_matmul.xplane.pb")],
                         capture_output=True, text=True)
    assert row["total_ns"] == json.loads(out.stdout)["functions"][0]["total_ns"]


def test_without_jax(tmp_path):
    code = ("import sys; sys.path.insert(0, sys.argv[1])\n"
            "import xplane_stat, xplane_stat.jax\n"
            "try:\n    xplane_stat.jax.profile(len, [1])\nexcept xplane_stat.Error as e:\n    print('Error:', e)\n")
    out = subprocess.run([sys.executable, "-c", code, os.path.join(ROOT, "python")], capture_output=True,
                         text=True, env=dict(os.environ, PYTHONPATH=""))
    if "Error:" not in out.stdout:
        pytest.skip("this Python has jax: the error without it cannot be shown here")
    assert "needs jax" in out.stdout


def test_profile_time_by_function_id_compat(standin, monkeypatch):
    """compat='ejkernel': the original profiler's numbers, as autotune --compat=ejkernel gives them."""
    from xplane_stat.jax import profile_time_by_function_id
    monkeypatch.setenv("XPS_STANDIN_TRACES", os.pathsep.join(PROFILES))
    got = profile_time_by_function_id(lambda: None, "gpu", 30, compat="ejkernel")
    out = subprocess.run([XPS, "autotune", "--json", "--compat=ejkernel", *PROFILES], capture_output=True, text=True)
    doc = json.loads(out.stdout)
    assert set(got) == {int(k) for k in doc["candidates"]}
    for cid, (mean_s, std_s) in got.items():
        assert mean_s == pytest.approx(doc["candidates"][str(cid)]["mean_s"], rel=1e-15)
        assert std_s == pytest.approx(doc["candidates"][str(cid)]["std_s"], rel=1e-15)
