# SPDX-License-Identifier: Apache-2.0
"""Profiling JAX code into xplane-stat's numbers: jax.profiler.trace writes
the profile into a temporary folder, the library reads it in this process.
jax is imported when these are called, not before."""
import contextlib
import re
import tempfile
import warnings

from . import autotune, functions
from .errors import Error, NothingFound


def _jax():
    try:
        import jax
    except ImportError as e:
        raise Error(f"xplane_stat.jax needs jax ({e}): install jax, or use xplane_stat.functions/autotune "
                    "on profiles written elsewhere") from e
    return jax


@contextlib.contextmanager
def _trace(run, profile_dir=None):
    """Runs run() under jax.profiler.trace into profile_dir (kept), or a
    temporary folder (removed after), given while it exists."""
    jax = _jax()
    with contextlib.ExitStack() as stack:
        d = profile_dir if profile_dir is not None else stack.enter_context(
            tempfile.TemporaryDirectory(prefix="xplane-stat-"))
        with jax.profiler.trace(d):
            run()
        yield d


def profile_time_by_function_id(timing_closure, platform, total_calls_number, *, trim=1, id_regex=None,
                                profile_dir=None, compat=None):
    """The autotuning profiler's call: runs timing_closure() (which calls the
    candidates jit_autotune_fn_<i>, total_calls_number calls in all) under
    jax.profiler and returns {i: (mean_s, std_s)}, the trimmed mean (trim
    fastest and slowest dropped) and population std of each candidate's
    device time. platform ("gpu", "tpu") picks the device planes. A
    candidate compiled into several programs is pooled, as the original
    pooled it; fewer executions than total_calls_number in the profile is
    warned about (some calls were not recorded). With profile_dir the
    profile is written there and kept (`xplane-stat autotune DIR` reads it).
    compat="ejkernel" reproduces the original's numbers, its trimming and
    limits included (trim and id_regex are then fixed)."""
    with _trace(timing_closure, profile_dir) as d:
        try:
            if compat:
                res = autotune(d, device=platform, compat=compat)
            else:
                # one profiling session: its executions are the samples, as the original took them
                res = autotune(d, device=platform, trim=trim, id_regex=id_regex, pool_programs=True,
                               samples="executions")
        except NothingFound as e:
            raise NothingFound(f"{e} (did timing_closure call the candidates?)") from None
    out, seen = {}, 0
    for cid, c in res["candidates"].items():
        out[int(cid)] = (c["mean_s"], c["std_s"])
        seen += c["n"]
    if total_calls_number is not None and seen < total_calls_number:
        warnings.warn(f"xplane_stat: the profile holds {seen} executions of candidates, fewer than the "
                      f"{total_calls_number} calls expected: some were not recorded", RuntimeWarning, stacklevel=2)
    return out


def _jit_name(fn):
    name = getattr(fn, "__name__", None) or getattr(getattr(fn, "__wrapped__", None), "__name__", None)
    if not name:
        raise Error("xplane_stat.jax.profile: the function has no __name__ to find its executions by")
    return "jit_" + name


def profile(fn, *args, rounds=10, warmup=1, name=None, platform=None, profile_dir=None, **kwargs):
    """Runs fn(*args, **kwargs) warmup times (compiling it), then rounds times
    under jax.profiler, each waited for, and returns the row of
    xplane_stat.functions for its jitted function (jit_<name>): executions,
    mean_ns, std_ns, min_ns, median_ns, max_ns, ... over the rounds. name
    overrides the function name searched for; with profile_dir the profile
    is kept there."""
    jax = _jax()
    if rounds < 1 or warmup < 0:
        raise ValueError("rounds must be at least 1 and warmup at least 0")
    for _ in range(warmup):
        jax.block_until_ready(fn(*args, **kwargs))

    def run():
        for _ in range(rounds):
            jax.block_until_ready(fn(*args, **kwargs))

    want = name or _jit_name(fn)
    with _trace(run, profile_dir) as d:
        rows = functions(d, device=platform, match="^" + re.escape(want) + "$")
    return max(rows, key=lambda r: r["executions"])
