# SPDX-License-Identifier: Apache-2.0
"""pytest plugin: the xplane_bench fixture measures jitted functions by their
device time (xplane_stat.jax.profile), appends one summary line per test in
the tool's summary format (`xplane-stat diff`, `history` and `report` read
them) and can fail the session on a significant slowdown.

    def test_matmul(xplane_bench):
        row = xplane_bench.measure(jax.jit(matmul), a, b, rounds=20)
        assert row["executions"] == 20

    pytest --xplane-stat-out baseline.jsonl -v
    pytest --xplane-stat-gate 5 baseline.jsonl

The gate compares each measure of each test (tagged test=FILE::TEST#K)
with the same measure's lines in the baseline (a file an earlier
--xplane-stat-out wrote, its last session): a function's samples are its
executions there.

Summary lines and the gate go through the xplane-stat command (XPLANE_STAT,
else the one on PATH): its append protocol and its statistics.
"""
import json
import os
import shutil
import subprocess
import tempfile
import time

import pytest

from .errors import Error


def pytest_addoption(parser):
    g = parser.getgroup("xplane-stat", "device time of jitted functions (xplane_bench)")
    g.addoption("--xplane-stat-out", metavar="FILE",
                help="append one summary line per measured test to FILE (xplane-stat summarize --append)")
    g.addoption("--xplane-stat-gate", nargs=2, metavar=("PCT", "BASELINE"),
                help="fail the session when a function is slower than in BASELINE (a summary file) by more "
                     "than PCT percent in the mean with p < 0.05 (xplane-stat diff --gate)")
    g.addoption("--xplane-stat-rounds", type=int, metavar="N", help="rounds for every measure() (default: its own)")


def _binary():
    exe = os.environ.get("XPLANE_STAT") or shutil.which("xplane-stat")
    if not exe:
        raise pytest.UsageError("xplane-stat: the command is needed for --xplane-stat-out and --xplane-stat-gate: "
                                "put it on PATH or name it in XPLANE_STAT")
    return exe


class _State:
    def __init__(self, config):
        self.config = config
        self.out = config.getoption("xplane_stat_out")
        self.gate = config.getoption("xplane_stat_gate")
        self.rounds = config.getoption("xplane_stat_rounds")
        self.tmp = tempfile.mkdtemp(prefix="xplane-stat-bench-")
        # this session's lines alone (the gate's current side), whatever --xplane-stat-out holds before
        self.lines = os.path.join(self.tmp, "session.jsonl")
        self.session = f"{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
        self.results = []
        self.measures = {}  # per test, the last measure's number
        self.exe = _binary() if self.out or self.gate else None

    def summarize(self, key, profile_dir):
        # a test's measures apart: each its own profile, compared with the same measure of the baseline
        k = self.measures[key] = self.measures.get(key, -1) + 1
        tags = "test=" + key.replace(",", ";") + f"#{k},session=" + self.session
        for dest in [self.lines] + ([self.out] if self.out else []):
            r = subprocess.run([self.exe, "summarize", "--append", "-o", dest, "--tag", tags, profile_dir],
                               capture_output=True, text=True)
            if r.returncode != 0:
                raise Error(f"xplane-stat summarize --append -o {dest} failed (exit {r.returncode}): "
                            f"{r.stderr.strip()}")


class XplaneBench:
    """The fixture: measure() profiles a jitted function and keeps the result."""

    def __init__(self, state, nodeid):
        self._state = state
        self._nodeid = nodeid
        self.results = []

    def measure(self, fn, *args, rounds=10, warmup=1, name=None, platform=None, **kwargs):
        """Calls fn(*args, **kwargs) once (timing the first call, compilation
        included), warmup - 1 more times, then rounds times under the
        profiler; returns xplane_stat.functions' row for its jitted function
        with first_call_s added."""
        from . import jax as xjax
        jax = xjax._jax()
        if self._state.rounds:
            rounds = self._state.rounds
        t0 = time.perf_counter()
        jax.block_until_ready(fn(*args, **kwargs))
        first = time.perf_counter() - t0
        d = tempfile.mkdtemp(prefix="profile-", dir=self._state.tmp)
        row = xjax.profile(fn, *args, rounds=rounds, warmup=max(warmup - 1, 0), name=name, platform=platform,
                           profile_dir=d, **kwargs)
        row = dict(row, first_call_s=first, rounds=rounds)
        if self._state.exe:
            self._state.summarize(self._nodeid, d)
        self.results.append(row)
        self._state.results.append((self._nodeid, row))
        return row


def pytest_configure(config):
    config._xplane_stat = _State(config)


def pytest_unconfigure(config):
    st = getattr(config, "_xplane_stat", None)
    if st:
        shutil.rmtree(st.tmp, ignore_errors=True)


@pytest.fixture
def xplane_bench(request):
    """Measures jitted functions by device time: xplane_bench.measure(fn, *args, rounds=, warmup=)."""
    return XplaneBench(request.config._xplane_stat, _test_key(request.node))


def _test_key(node):
    """The test's name in summary tags: its file's path from the folder pytest
    was started in and the rest of its node id ("tests/test_x.py::test_y[a]"),
    which does not move with pytest's rootdir (the paths given, a baseline in
    another folder among them, decide that)."""
    rest = node.nodeid.split("::", 1)[1] if "::" in node.nodeid else node.name
    path = getattr(node, "path", None) or getattr(node, "fspath", None)
    if not path:
        return node.nodeid
    start = node.config.invocation_params.dir
    return f"{os.path.relpath(str(path), str(start))}::{rest}"


def _lines_by_test(path):
    """A summary file's lines by the test tag the plugin gave them, of each
    test the last session's only (a file --xplane-stat-out appended to
    over several sessions holds them all): {test: [line, ...]}."""
    sessions = {}
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        for line in f:
            if not line.strip():
                continue
            try:
                tags = json.loads(line).get("tags") or []
            except ValueError:
                continue
            test = next((t[5:] for t in tags if t.startswith("test=")), None)
            session = next((t[8:] for t in tags if t.startswith("session=")), "")
            if test is None:
                continue
            by = sessions.setdefault(test, {})
            by.setdefault(session, []).append(line)
            by[session] = by.pop(session)  # the session seen last goes last
    return {test: list(by.values())[-1] for test, by in sessions.items()}


def _gate(st):
    """Each test's lines against the baseline's lines of the same test (xplane-stat diff --gate):
    within a test a function's samples are its executions, as a test measures one run of it."""
    pct, base = st.gate
    try:
        before = _lines_by_test(base)
    except OSError as e:
        return f"cannot read the baseline '{base}': {e.strerror}", 2
    now = _lines_by_test(st.lines)
    out, worst = [], 0
    for test, lines in now.items():
        if test not in before:
            out.append(f"{test}: not in the baseline (new)")
            continue
        paths = []
        for side, ls in (("base", before[test]), ("current", lines)):
            p = os.path.join(st.tmp, f"gate-{side}.jsonl")
            with open(p, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.writelines(ls)
            paths.append(p)
        r = subprocess.run([st.exe, "diff", "--gate", pct, *paths], capture_output=True, text=True)
        out.append(f"{test}:")
        out.extend("  " + line if line else "" for line in (r.stdout + r.stderr).rstrip().splitlines())
        # an error above all, then slower (8), then undecided (10)
        rank = {0: 0, 10: 1, 8: 2}
        if rank.get(r.returncode, 3) > rank.get(worst, 3) or (worst in rank and r.returncode not in rank):
            worst = r.returncode
    return "\n".join(out), worst


def pytest_sessionfinish(session, exitstatus):
    """The gate, after the tests (pytest prints the terminal summary after this)."""
    st = getattr(session.config, "_xplane_stat", None)
    if not (st and st.gate):
        return
    if not st.results:
        st.gate_out, st.gate_rc = "no test measured anything: nothing to gate", 0
        return
    st.gate_out, st.gate_rc = _gate(st)
    if st.gate_rc != 0 and session.exitstatus == 0:
        session.exitstatus = 1  # 8: slower beyond the limit; anything else: the gate could not run


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    st = config._xplane_stat
    tr = terminalreporter
    if st.results and config.getoption("verbose") > 0:
        tr.section("xplane-stat: device time per round")
        tr.write_line(f"{'TEST':40} {'FUNCTION':24} {'ROUNDS':>6} {'MEAN (us)':>11} {'STD (us)':>10} "
                      f"{'MIN (us)':>10} {'FIRST CALL (ms)':>16}")
        for nodeid, r in st.results:
            tr.write_line(f"{nodeid[-40:]:40} {r['name'][:24]:24} {r['executions']:>6} {r['mean_ns'] / 1e3:>11.3f} "
                          f"{r['std_ns'] / 1e3:>10.3f} {r['min_ns'] / 1e3:>10.3f} {r['first_call_s'] * 1e3:>16.3f}")
    if st.gate and hasattr(st, "gate_rc"):
        tr.section("xplane-stat: gate")
        for line in st.gate_out.splitlines():
            tr.write_line(line)
        verdict = {0: "passed", 8: "FAILED: slower beyond the limit",
                   10: "FAILED: undecided (too few samples, or nothing in common)"}.get(
                       st.gate_rc, f"could not run (exit {st.gate_rc})")
        tr.write_line(f"gate {st.gate[0]}% against {st.gate[1]}: {verdict}")
