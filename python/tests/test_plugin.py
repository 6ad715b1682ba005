# SPDX-License-Identifier: Apache-2.0
"""The pytest plugin end to end, in a pytest of its own with the stand-in jax
(tests/standin: the traces it "records" are the synthetic diff rounds): one
summary line per measured test that `xplane-stat diff` reads, the -v table,
and the gate failing the session on the slow rounds and passing on the same."""
import glob
import json
import os
import subprocess
import sys

from conftest import BUILD, ROOT

STANDIN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "standin")
XPS = os.path.join(BUILD, "xplane-stat")
DIFF = os.path.join(BUILD, "synth", "diff")

TESTS = '''
def autotune_fn_0(x):
    return x

def autotune_fn_1(x):
    return x

def test_fn0(xplane_bench):
    row = xplane_bench.measure(autotune_fn_0, 1, rounds=50, warmup=2)
    assert row["name"] == "jit_autotune_fn_0" and row["executions"] == 50

def test_fn1(xplane_bench):
    assert xplane_bench.measure(autotune_fn_1, 1, rounds=50)["executions"] == 50

def test_twice(xplane_bench):
    # two measures in one test: each gated against the same measure of the baseline
    assert xplane_bench.measure(autotune_fn_1, 1, rounds=50)["executions"] == 50
    assert xplane_bench.measure(autotune_fn_1, 1, rounds=50)["executions"] == 50
'''


def run_pytest(tmp_path, traces, *args):
    (tmp_path / "test_bench.py").write_text(TESTS)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([STANDIN, os.path.join(ROOT, "python")]), XPLANE_STAT=XPS,
               XPS_STANDIN_TRACES=os.pathsep.join(sorted(glob.glob(os.path.join(DIFF, traces, "*.xplane.pb")))),
               PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "xplane_stat.pytest_plugin", "-p",
                           "no:cacheprovider", str(tmp_path / "test_bench.py"), *args],
                          capture_output=True, text=True, env=env, cwd=tmp_path)


def test_summary_lines_and_table(tmp_path):
    out = tmp_path / "bench.jsonl"
    r = run_pytest(tmp_path, "base", "-v", "--xplane-stat-out", str(out))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "xplane-stat: device time per round" in r.stdout
    assert "jit_autotune_fn_0" in r.stdout
    # a line per file of each test's profile: the stand-in writes the 5 rounds as 5 hosts' files
    tags = [json.loads(line)["tags"] for line in out.read_text().splitlines()]
    assert [t[0] for t in tags] == (["test=test_bench.py::test_fn0#0"] * 5 + ["test=test_bench.py::test_fn1#0"] * 5 +
                                    ["test=test_bench.py::test_twice#0"] * 5 + ["test=test_bench.py::test_twice#1"] * 5)
    assert len({t[1] for t in tags}) == 1 and tags[0][1].startswith("session=")
    d = subprocess.run([XPS, "diff", str(out), str(out)], capture_output=True, text=True)
    assert d.returncode == 0, d.stderr


def test_gate(tmp_path):
    # the baseline: a run of the same tests on the base rounds; the gate compares test by test
    base = tmp_path / "base.jsonl"
    first = run_pytest(tmp_path, "base", "--xplane-stat-out", str(base))
    assert first.returncode == 0, first.stdout + first.stderr
    same = run_pytest(tmp_path, "base", "--xplane-stat-gate", "5", str(base))
    assert same.returncode == 0, same.stdout + same.stderr
    assert "passed" in same.stdout.split("xplane-stat: gate =")[-1]
    slow = run_pytest(tmp_path, "slow", "--xplane-stat-gate", "5", str(base))
    assert slow.returncode == 1, slow.stdout + slow.stderr
    gate = slow.stdout.split("xplane-stat: gate =")[-1]
    assert "FAILED: slower beyond the limit" in gate
    assert "test_bench.py::test_fn0#0:" in gate and "slower" in gate
    assert "test_bench.py::test_twice#1:" in gate and "undecided" not in gate
    # a baseline in another folder (pytest's rootdir moves with the paths given): the same tests still match
    elsewhere = tmp_path.parent / (tmp_path.name + "-baseline")
    elsewhere.mkdir(parents=True)
    moved = elsewhere / "base.jsonl"
    moved.write_text(base.read_text())
    far = run_pytest(tmp_path, "slow", "--xplane-stat-gate", "5", str(moved))
    assert far.returncode == 1 and "not in the baseline" not in far.stdout, far.stdout + far.stderr
    # a baseline without these tests: each is new, nothing gated
    other = tmp_path / "other.jsonl"
    other.write_text("")
    new = run_pytest(tmp_path, "slow", "--xplane-stat-gate", "5", str(other))
    assert new.returncode == 0 and "not in the baseline (new)" in new.stdout, new.stdout + new.stderr


def test_gate_with_sessions_appended(tmp_path):
    """A baseline --xplane-stat-out appended to twice: the last session is the baseline (not two runs,
    which would leave one sample a side); a current file holding earlier sessions: this one alone."""
    base = tmp_path / "base.jsonl"
    for _ in range(2):
        assert run_pytest(tmp_path, "base", "--xplane-stat-out", str(base)).returncode == 0
    slow = run_pytest(tmp_path, "slow", "--xplane-stat-gate", "5", str(base))
    assert slow.returncode == 1 and "too few samples" not in slow.stdout, slow.stdout + slow.stderr
    runs = tmp_path / "runs.jsonl"
    for _ in range(3):
        assert run_pytest(tmp_path, "base", "--xplane-stat-out", str(runs)).returncode == 0
    mixed = run_pytest(tmp_path, "slow", "--xplane-stat-out", str(runs), "--xplane-stat-gate", "5", str(base))
    assert mixed.returncode == 1, mixed.stdout + mixed.stderr
    assert len(runs.read_text().splitlines()) == 4 * 20  # every session kept in --xplane-stat-out
