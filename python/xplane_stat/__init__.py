# SPDX-License-Identifier: Apache-2.0
"""xplane-stat from Python: device time per jitted function and autotune
statistics from XPlane profile dumps (*.xplane.pb), computed by the C library
libxplane-stat in this process.

    >>> import xplane_stat
    >>> rows = xplane_stat.functions("profile.xplane.pb")
    >>> rows[0]["name"], rows[0]["mean_ns"]
    >>> xplane_stat.autotune("profiles/")["fastest"]

Each function returns plain lists and dicts with the field names and units
of the command's JSON (`xplane-stat functions --json`, `autotune --json`,
`kernels`, `ops`, `overview`, `memory`, `compile` and `diff --json`: xplane-stat(1));
options are the command's long options with '-' as '_'.
Failures raise xplane_stat.Error subclasses named after the command's exit
codes. The library is found through XPLANE_STAT_LIBRARY, beside this
package, or by the loader's search (libxplane-stat.so.0).
"""
import contextlib
import ctypes
import math
import os
import re
import stat as stat_module

from . import _lib
from .errors import Error, InputError, NothingFound, NoWinner, OutOfMemory, ReadError, UsageError

# compile is left out: `from xplane_stat import *` would hide Python's own (xplane_stat.compile it is)
__all__ = ["functions", "autotune", "kernels", "ops", "overview", "memory", "diff", "summarize", "expand_paths",
           "version", "Error", "ReadError", "UsageError", "InputError", "NothingFound", "NoWinner", "OutOfMemory"]

_TIMES = {"busy": 0, "span": 1}
_RUN_BY = ("auto", "dir", "file")  # XPS_RUN_BY_* in their order
_UNITS = {"ps": 1, "ns": 1e3, "us": 1e6, "ms": 1e9, "s": 1e12}


def version():
    """The library's version, as "0.6.0"."""
    return _lib.lib().xps_version_string().decode()


def _duration_ps(value, what):
    """A duration as the command takes it ("1us", "250ns") or a number of seconds, in picoseconds."""
    if value is None:
        return 0
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        ps = value * 1e12
    else:
        m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(ps|ns|us|ms|s)\s*", str(value))
        if not m:
            raise UsageError(f"{what}: '{value}' is not a duration (a number and ps, ns, us, ms or s)")
        ps = float(m.group(1)) * _UNITS[m.group(2)]
    if not (ps >= 0 and math.isfinite(ps) and ps <= 9.2e18):
        raise UsageError(f"{what}: '{value}' is not a duration from 0 to about 106 days")
    return int(round(ps))


def _is_trace(name):
    return name.endswith(".xplane.pb") or name.endswith(".xplane.pb.gz")


def expand_paths(paths):
    """Inputs as the command takes them: a path or several; a folder stands for
    the *.xplane.pb and *.xplane.pb.gz files under it, in name order, depth first."""
    if isinstance(paths, (str, bytes, os.PathLike)):
        paths = [paths]
    out = []

    def walk(d, seen):
        st = os.stat(d)
        key = (st.st_dev, st.st_ino)
        if key in seen:
            return  # a link back to an enclosing folder
        seen = seen | {key}
        for name in sorted(os.listdir(d), key=os.fsencode):
            full = os.path.join(d, name)
            if os.path.isdir(full):
                walk(full, seen)
            elif _is_trace(name) and os.path.exists(full):
                out.append(full)

    for p in paths:
        p = os.fspath(p)
        if isinstance(p, bytes):
            p = os.fsdecode(p)
        if os.path.isdir(p):
            walk(p, frozenset())
        else:
            out.append(p)
    if not out:
        raise UsageError("no input given (no *.xplane.pb file under the folders given)")
    return out


def _enc(s, what="an option"):
    """An option's text as the library takes it: str (UTF-8), bytes as they are, None."""
    if s is None or isinstance(s, bytes):
        return s
    if isinstance(s, str):
        return s.encode("utf-8", "surrogateescape")
    raise UsageError(f"{what}: {s!r} is not a string")


def _dec(b):
    return None if b is None else b.decode("utf-8", "surrogateescape")


def _time_code(time, children, what):
    if children is not None:
        if time not in (None, "busy"):
            raise UsageError(f"{what}: children and time='{time}' exclude each other")
        return 2
    if time not in _TIMES:
        raise UsageError(f"{what}: time '{time}' is not one of busy, span")
    return _TIMES[time]


@contextlib.contextmanager
def _computed(what, result_type, paths, opts, threads):
    """Opens the inputs, runs the library's xps_<what>_compute on them, frees
    the traces; yields the result's contents and frees the result after."""
    files = expand_paths(paths)
    L = _lib.lib()
    if not hasattr(L, f"xps_{what}_compute"):
        raise Error(f"the library loaded ({_lib.loaded_path()}) has no xps_{what}_compute: it is older than this "
                    "package; install the library built with it (make install), or set XPLANE_STAT_LIBRARY")
    res = ctypes.POINTER(result_type)()
    err = ctypes.create_string_buffer(1024)
    with _lib.Traces(files, threads) as handles:
        _lib.check(getattr(L, f"xps_{what}_compute")(handles, len(files), ctypes.byref(opts), ctypes.byref(res),
                                                     err, len(err)), err)
    try:
        yield res.contents
    finally:
        getattr(L, f"xps_{what}_free")(res)


def _fields(s, names):
    """The named fields of a ctypes structure, as a dict under the same names."""
    return {n: getattr(s, n) for n in names.split()}


def _check_trim(trim):
    if isinstance(trim, bool) or not isinstance(trim, int) or trim < 0:
        raise UsageError(f"trim: {trim!r} is not a non-negative integer")


def _int_or_none(has, v):
    return int(v) if has else None


def _warnings(r):
    """A result's warnings, as the command's JSON gives them under "warnings" (bytes that are not UTF-8 as
    the text \\xNN)."""
    return [r.warnings[i].decode("utf-8", "backslashreplace") for i in range(r.nwarnings)]


def functions(paths, *, device=None, match=None, time="busy", children=None, min_duration=None, trim=0,
              per_device=False, whole=False, threads=0):
    """Device time per jitted function, as `xplane-stat functions --json`: a
    list of rows (dicts: name, program_id, fingerprint, devices, executions,
    executions_used, events, total_ns, mean_ns, std_ns, min_ns, median_ns,
    max_ns, share; device too with per_device), largest total first. With
    whole=True the whole document (the counts around the rows, the rows
    under "functions"). Raises NothingFound when no execution is found, as
    the command exits 4. The command's warnings are in the whole document, under
    "warnings"."""
    _check_trim(trim)
    opts = _lib._FunctionsOpts(_enc(device, "device"), _enc(match, "match"), _time_code(time, children, "functions"),
                               _enc(children, "children"),
                               _duration_ps(min_duration, "min_duration"), trim, 1 if per_device else 0)
    with _computed("functions", _lib._Functions, paths, opts, threads) as f:
        rows = []
        for i in range(f.nrows):
            r = f.rows[i]
            row = {"name": _dec(r.name), "program_id": _int_or_none(r.has_program_id, r.program_id),
                   "fingerprint": _dec(r.fingerprint)}
            if per_device:
                row["device"] = _dec(r.device)
            row.update(_fields(r, "devices executions executions_used events total_ns mean_ns std_ns min_ns "
                                  "median_ns max_ns share"))
            rows.append(row)
        doc = {"schema_version": 1, "command": "functions", "time": {0: "busy", 1: "span", 2: "children"}[f.time],
               **_fields(f, "trim inputs devices executions functions_count device_busy_ns device_events "
                            "dropped_short_events unattributed_events unattributed_busy_ns runs_rule_executions "
                            "runs_rule_split runs_rule_repeating stray_end_events")}
        if children is not None:
            doc["stray_end_children"] = f.stray_end_children
        doc["functions"] = rows
        doc["warnings"] = _warnings(f)
    if not rows:
        raise NothingFound("no jitted function executions found" +
                           (" (no device plane matched)" if not doc["devices"] else
                            ": no device event carries an hlo_module stat (not an XLA program?)"))
    return doc if whole else rows


def _stats(c):
    """A candidate row's statistics, as the command's JSON (p below 1e-300 as the string "<1e-300")."""
    d = {"mean_s": c.mean_s, "std_s": c.std_s, "n": c.n, "n_used": c.n_used,
         "trimmed_each_end": c.trimmed_each_end, "inputs": c.inputs, "min_s": c.min_s, "median_s": c.median_s,
         "max_s": c.max_s, "ci95_low_s": c.ci95_low_s, "ci95_high_s": c.ci95_high_s, "rank": c.rank}
    if c.tied_with_fastest < 0:
        d.update(tied_with_fastest=None, p_vs_fastest=None, log10_p_vs_fastest=None)
    else:
        d["tied_with_fastest"] = bool(c.tied_with_fastest)
        d["p_vs_fastest"] = c.p_vs_fastest if c.p_vs_fastest >= 1e-300 else "<1e-300"
        d["log10_p_vs_fastest"] = c.log10_p_vs_fastest if math.isfinite(c.log10_p_vs_fastest) else None
    return d


def _programs(c):
    return ([None] if c.has_unknown_program else []) + [int(c.program_ids[j]) for j in range(c.nprogram_ids)]


def autotune(paths, *, device=None, id_regex=None, time="busy", children=None, min_duration=None, trim=None,
             alpha=0.05, all_devices=False, pool_programs=False, keep_duplicates=False, compat=None,
             samples="runs", run_by="auto", threads=0):
    """Per autotune candidate, as `xplane-stat autotune --json` (schema 2): a
    dict with "candidates" ({id: {mean_s, std_s, n, n_used, ..., rank,
    tied_with_fastest, p_vs_fastest, program_ids}}), "fastest" (the single
    fastest id or None), "no_fastest_because" and "rival". A candidate
    compiled into several programs has null statistics and a row per program
    under "programs" (pool_programs=True pools them). Copies of a run count
    once unless keep_duplicates. With several runs each candidate's mean
    in each run is a sample (samples="runs"; "samples" and "runs" in the
    dict say so); samples="executions" takes every execution (`--samples`;
    trim=None: 1, but run means are trimmed only from 5 runs on). A run is a
    profile, or the profiles of a session directory, each named after its
    host (<host>.xplane.pb: one job's hosts), as the command groups them
    (run_by="auto"; "dir": a directory's profiles; "file": each profile; as
    `--run-by`). compat="ejkernel" gives the numbers of
    ejkernel's Python profiler, limits included (`--compat=ejkernel`). Raises
    NothingFound without candidates."""
    if samples not in ("runs", "executions"):
        raise UsageError(f"samples: {samples!r} is not runs or executions")
    if run_by not in _RUN_BY:
        raise UsageError(f"run_by: {run_by!r} is not auto, dir or file")
    if compat not in (None, "ejkernel"):
        raise UsageError(f"compat: {compat!r} is not a known profiler (ejkernel is)")
    if compat and (time != "busy" or children is not None or min_duration is not None or trim not in (None, 1) or
                   id_regex is not None or all_devices):
        raise UsageError("compat='ejkernel' fixes time, children, min_duration, trim, id_regex and all_devices")
    if trim is not None:
        _check_trim(trim)
    if not (0 < alpha < 1):
        raise UsageError(f"alpha: {alpha!r} is not between 0 and 1")
    opts = _lib._AutotuneOpts(_enc(device, "device"), _enc(id_regex, "id_regex"),
                              _time_code(time, children, "autotune"), _enc(children, "children"),
                              _duration_ps(min_duration, "min_duration"), trim or 0, 0 if trim is None or compat else 1, alpha,
                              1 if all_devices else 0, 1 if pool_programs else 0, 1 if keep_duplicates else 0,
                              1 if compat else 0, 1 if samples == "executions" else 0,
                              _RUN_BY.index(run_by))
    with _computed("autotune", _lib._Autotune, paths, opts, threads) as a:
        cands = {}
        i = 0
        while i < a.nrows:
            c = a.rows[i]
            rows = max(1, c.id_rows)
            if rows == 1:
                entry = _stats(c)
                if not compat:  # the original's reading knows no programs
                    entry["program_ids"] = _programs(c)
            else:
                entry = dict.fromkeys(_stats(c), None)
                entry["program_ids"] = [p for j in range(rows) for p in _programs(a.rows[i + j])]
                entry["programs"] = []
                for j in range(rows):
                    r = a.rows[i + j]
                    progs = _programs(r)
                    entry["programs"].append({"program_id": progs[0] if progs else None, **_stats(r)})
            cands[_dec(c.id)] = entry
            i += rows
        doc = {"schema_version": 2, "command": "autotune", "candidates": cands, "fastest": _dec(a.fastest),
               "no_fastest_because": _dec(a.no_fastest_because), "rival": _dec(a.rival),
               "samples": "run means" if a.samples_are_runs else "executions", "runs": a.runs,
               "warnings": _warnings(a)}
    if not cands:
        raise NothingFound("no autotune candidate found: no function name matches the id regex "
                           f"'{id_regex or '^jit_autotune_fn_([0-9]+)'}'")
    return doc


_OPS_SORTS = ("time", "self", "flops", "bytes")  # XPS_OPS_SORT_* in their order


def _num_or_none(v):
    return v if math.isfinite(v) else None


def _op_row(r, cat, category="category"):
    row = {"name": _dec(r.name), "line": _dec(r.line), "async": bool(r.async_), category: _dec(r.category)}
    if not cat:
        row.update({"hlo": _dec(r.hlo), "module": _dec(r.module),
                    "program_id": _int_or_none(r.has_program_id, r.program_id)})
    row.update({"occurrences": r.occurrences, "calls": _int_or_none(r.has_calls, r.calls),
                "calls_from": _dec(r.calls_from),
                **_fields(r, "total_ns self_ns mean_ns"), "call_mean_ns": _num_or_none(r.call_mean_ns),
                **_fields(r, "share"),
                "flops": _int_or_none(r.has_flops, r.flops),
                "model_flops": _int_or_none(r.has_model_flops, r.model_flops),
                "bytes_accessed": _int_or_none(r.has_bytes_accessed, r.bytes_accessed),
                "flops_per_s": _num_or_none(r.flops_per_s), "bytes_per_s": _num_or_none(r.bytes_per_s),
                "intensity": _num_or_none(r.intensity), "bound_by": _dec(r.bound_by),
                "cost_from": _dec(r.cost_from)})
    return row


def _within_top(rows, top):
    """The rows within top of their line kind (rows come grouped by line), as --top keeps them."""
    if not top:
        return rows
    kept, seen = [], {}
    for r in rows:
        seen[r["line"]] = seen.get(r["line"], 0) + 1
        if seen[r["line"]] <= top:
            kept.append(r)
    return kept


def _scopes_within_top(scopes, top):
    """The scopes --top shows: a scope beyond the first top children of its parent hides its subtree."""
    if not top:
        return scopes
    kept, rank, hide_below = [], {}, None
    for sc in scopes:
        d = sc["depth"]
        if hide_below is not None and d > hide_below:
            continue
        hide_below = None
        rank[d] = rank.get(d, 0) + 1
        rank[d + 1] = 0
        if d >= 64 or rank[d] <= top:
            kept.append(sc)
        else:
            hide_below = d
    return kept


def ops(paths, *, device=None, by="op", sort="time", top=None, threads=0):
    """HLO ops as `xplane-stat ops --json` gives them (its document, less its
    warnings): "lines", "devices", the counts, and "ops" (a row per op, module
    and program: occurrences, total_ns, self_ns, mean_ns, share, flops,
    bytes_accessed, flops_per_s, bytes_per_s, intensity, bound_by, and
    cost_from: "trace", or "hlo" for GPU ops costed from their HLO's shapes,
    counted in "gpu_cost"; grouped by line kind, each sorted by sort: time,
    self, flops or bytes); by="category"
    adds "categories", by="source" "sources" (a row per source line) and
    "hlo" (where the ops were found in the HLO the traces carry), by="framework"
    "frameworks" (a row per framework op: name and type) and "framework_types"
    (a row per type), with "hlo". by="scope"
    gives instead "self_ns", "hlo" and "scopes", the tree of name scopes in
    pre-order (scope, name, depth, total_ns, self_ns, share, occurrences,
    top_op, top_op_module, top_op_program_id). top keeps that many rows of
    each line kind (by="scope": children of each scope). Raises NothingFound
    without HLO ops, as the command exits 4."""
    if by not in ("op", "category", "scope", "source", "framework"):
        raise UsageError(f"by: {by!r} is not op, category, scope, source or framework")
    if sort not in _OPS_SORTS:
        raise UsageError(f"sort: {sort!r} is not time, self, flops or bytes")
    if top is not None and (isinstance(top, bool) or not isinstance(top, int) or top < 1):
        raise UsageError(f"top: {top!r} is not a positive integer")
    opts = _lib._OpsOpts(_enc(device, "device"), 1 if by == "category" else 0, _OPS_SORTS.index(sort),
                         1 if by == "scope" else 0, 1 if by == "source" else 0, 1 if by == "framework" else 0)
    with _computed("ops", _lib._Ops, paths, opts, threads) as o:
        lines = [{"line": _dec(x.line), **_fields(x, "events ops_count total_ns self_ns")}
                 for x in (o.lines[i] for i in range(o.nlines))]
        devices = [{"name": _dec(d.name), "chip": _dec(d.chip), "peak_source": _dec(d.peak_source),
                    "peak_flops_per_s": _num_or_none(d.peak_flops_per_s),
                    "peak_bytes_per_s": _num_or_none(d.peak_bytes_per_s),
                    **_fields(d, "op_events stray_end_events partial_overlaps odd_values kernels_without_hlo_op")}
                   for d in (o.devices[i] for i in range(o.ndevices))]
        rows = [_op_row(o.rows[i], False) for i in range(o.nrows)]
        cats = [_op_row(o.categories[i], True) for i in range(o.ncategories)]
        sources = [_op_row(o.sources[i], True) for i in range(o.nsources)]
        frameworks = [_op_row(o.frameworks[i], True, "type") for i in range(o.nframeworks)]
        fwtypes = [_op_row(o.framework_types[i], True) for i in range(o.nframework_types)]
        scopes = [{"scope": _dec(x.scope), "name": _dec(x.name),
                   **_fields(x, "depth total_ns self_ns share occurrences"),
                   "top_op": _dec(x.top_op), "top_op_module": _dec(x.top_op_module),
                   "top_op_program_id": _int_or_none(x.has_top_op_program_id, x.top_op_program_id)}
                  for x in (o.scopes[i] for i in range(o.nscopes))]
        gc = o.gpu_cost
        gpu_cost = {**_fields(gc, "ops_from_hlo without_flops calls_unknown not_in_hlo cost_unknown"),
                    "not_known": [_dec(gc.not_known[i]) for i in range(gc.nnot_known)]}
        hlo = _fields(o.hlo, "ops found found_without_op_name not_in_hlo without_hlo modules "
                             "tensorflow_ops modules_not_decoded inputs_without_hlo") if o.has_hlo else None
        if by == "scope":
            doc = {"schema_version": 1, "command": "ops", "by": "scope", **_fields(o, "inputs"),
                   "self_ns": o.scopes_self_ns, "hlo": hlo, "scopes": _scopes_within_top(scopes, top)}
        else:
            doc = {"schema_version": 1, "command": "ops", "sort": sort, "by": by, "top": top,
                   **_fields(o, "inputs"), "lines": lines, "devices": devices,
                   **_fields(o, "stray_end_events partial_overlaps odd_values overflowed_sums partial_sums "
                                "kernels_without_hlo_op calls_from_host aggregated_occurrences"),
                   "gpu_cost": gpu_cost,
                   "ops": rows if by in ("category", "source", "framework") else _within_top(rows, top)}
            if by == "category":
                doc["categories"] = _within_top(cats, top)
            if by == "source":
                doc["hlo"] = hlo
                doc["sources"] = _within_top(sources, top)
            if by == "framework":
                doc["hlo"] = hlo
                doc["frameworks"] = _within_top(frameworks, top)
                doc["framework_types"] = _within_top(fwtypes, top)
        doc["warnings"] = _warnings(o)
    if not rows:
        raise NothingFound("no framework ops found: the device planes have no 'XLA Ops' line, and no GPU kernel "
                           "carries an hlo_op stat or names a TensorFlow op" if by == "framework" else
                           "no HLO ops found: the device planes have no 'XLA Ops' line and no GPU kernel")
    return doc


def memory(paths, *, memory=None, threads=0):
    """Per memory (allocator) of each input, as `xplane-stat memory --json`
    gives it (its document, its warnings under "warnings"): "events" and "memories", each
    with input, memory_id, capacity_bytes, peak_bytes_in_use, peak_time_ns,
    fragmentation_at_peak, lifetime_peak_bytes, allocations, ... (None where
    not known). memory selects by id as --memory does. Raises NothingFound
    without memory events, as the command exits 4."""
    opts = _lib._MemoryOpts(_enc(memory, "memory"))
    with _computed("memory", _lib._Memory, paths, opts, threads) as m:
        rows = []
        for i in range(m.nrows):
            r = m.rows[i]
            peak = bool(r.has_peak)
            rows.append({"input": _dec(r.input), "memory_id": _dec(r.memory_id), "id_from": _dec(r.id_from),
                         "capacity_bytes": _int_or_none(r.has_capacity, r.capacity_bytes),
                         "capacity_varies": bool(r.capacity_varies),
                         **{f: (getattr(r, f) if peak else None)
                            for f in ("peak_bytes_in_use", "peak_time_ns", "peak_bytes_allocated",
                                      "peak_bytes_reserved", "last_bytes_in_use")},
                         "fragmentation_at_peak": _num_or_none(r.fragmentation_at_peak),
                         "lifetime_peak_bytes": _int_or_none(r.has_lifetime_peak, r.lifetime_peak_bytes),
                         **_fields(r, "allocations deallocations events_without_state largest_allocation_bytes "
                                      "first_event_ns last_event_ns live_at_peak live_at_peak_bytes "
                                      "allocated_before_profile_bytes frees_of_unseen_allocations "
                                      "addresses_reused_while_live")})
        doc = {"schema_version": 1, "command": "memory", "events": m.events, "memories": rows,
               "warnings": _warnings(m)}
    if not rows:
        raise NothingFound("no memory events: no MemoryAllocation or MemoryDeallocation event on a host plane" +
                           (f" of a memory matching '{memory}'" if memory else ""))
    return doc


def _compile_event(e):
    return {"name": _dec(e.name), "phase": _dec(e.phase), "call": int(e.call) if e.call else None,
            "where": _dec(e.where), **_fields(e, "start_ns duration_ns"),
            "nested_in_same_phase": bool(e.nested_in_same_phase), **_fields(e, "inner_events inner_ns")}


def compile(paths, *, function=None, threads=0):  # noqa: A001 (the command's name)
    """Compile time per jitted function of each input, as `xplane-stat compile
    --json` gives it (its document, its warnings under "warnings"): "totals" and
    "functions" (a row per function and program: program_id, calls,
    first_call_ns, later_median_ns, overhead_ns, trace_ns, lower_ns,
    compile_ns, compiling_calls and each compiler event), and the
    "unattributed_events". function selects by name as --function does.
    Raises NothingFound without calls or compiler events, as the command
    exits 4."""
    opts = _lib._CompileOpts(_enc(function, "function"))
    with _computed("compile", _lib._Compile, paths, opts, threads) as c:
        fns = []
        for i in range(c.nfunctions):
            f = c.functions[i]
            later = bool(f.has_later)
            fns.append({"input": _dec(f.input), "name": _dec(f.name),
                        "program_id": _int_or_none(f.has_program_id, f.program_id),
                        **_fields(f, "calls first_call_ns first_call_start_ns"),
                        "later_median_ns": f.later_median_ns if later else None,
                        "overhead_ns": f.overhead_ns if later else None,
                        **_fields(f, "trace_ns lower_ns compile_ns compiling_calls"),
                        "compiler_events": [_compile_event(f.events[k]) for k in range(f.nevents)]})
        doc = {"schema_version": 1, "command": "compile",
               "totals": {**_fields(c, "call_events calls calls_with_program calls_ambiguous calls_unsearched "
                                       "compiler_events trace_ns lower_ns compile_ns compiler_ns host_span_ns"),
                          "unattributed_events": c.unattributed_events, "unattributed_ns": c.unattributed_ns},
               "functions": fns,
               "unattributed_events": [_compile_event(c.unattributed[k]) for k in range(c.nunattributed)],
               "warnings": _warnings(c)}
        found = fns or (not function and c.compiler_events)
    if not found:
        raise NothingFound(f"no function matches '{function}'" if function else
                           "no PjitFunction call or compiler event: the host plane holds no JAX function calls")
    return doc


def _dist(d, p99):
    if not d.count:
        return None
    names = "mean_ns median_ns p99_ns min_ns max_ns" if p99 else "mean_ns median_ns min_ns max_ns"
    return {"count": d.count, **_fields(d, names)}


def _nan_none(v):
    return None if math.isnan(v) else v


def _write_whole(path, data):
    """data into path as the command's -o writes it: a symbolic link's target; a regular file (or a new one)
    through a temporary name beside it, synced and renamed over it, keeping an existing file's mode (a new
    one's as the umask gives); anything else (a FIFO, a device) written in place."""
    path = os.path.realpath(os.fspath(path))
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    if st is not None and not stat_module.S_ISREG(st.st_mode):
        with open(path, "wb") as f:
            f.write(data)
        return
    folder = os.path.dirname(path)
    for _ in range(100):
        tmp = os.path.join(folder, f".{os.path.basename(path)}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
            break
        except FileExistsError:
            continue
    else:
        raise OSError(f"no temporary name free beside '{path}'")
    try:
        if st is not None:
            os.fchmod(fd, stat_module.S_IMODE(st.st_mode))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    dfd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dfd)
    finally:
        os.close(dfd)


def summarize(paths, out=None, *, device=None, children=None, min_duration=None, tags=None, threads=0):
    """One summary line per trace, as `xplane-stat summarize` writes them
    (byte for byte: functions, autotune, kernels, ops, diff, merge and
    history read them in place of the traces): the lines as strings (bytes
    not UTF-8 kept as surrogate escapes), and with out, written into that
    file whole, as `summarize -o OUT` does (a temporary name, synced,
    renamed: the file is never half written). tags: {"key": "value"} or
    ["key=value", ...], as --tag. A file reached twice (a folder and a link
    into it) gives one line, as in the command. Unlike the command, which
    writes the lines it could and exits 6, an input that fails raises and
    nothing is written; summary files are not inputs here, and appending is
    the command's (summarize --append)."""
    if isinstance(tags, dict):
        tags = [f"{k}={v}" for k, v in tags.items()]
    tags = list(tags or [])
    for t in tags:
        if not isinstance(t, str) or "=" not in t or t.startswith("=") or "," in t:
            raise UsageError(f"tags: {t!r} is not KEY=VALUE (no ',')")
    files, seen = [], set()
    for f in expand_paths(paths):  # a file reached twice is summarised once, as the command does
        st = os.stat(f) if f != "-" else None
        if st is None or (st.st_dev, st.st_ino) not in seen:
            files.append(f)
            seen.add(st and (st.st_dev, st.st_ino))
    L = _lib.lib()
    if not hasattr(L, "xps_summary_line"):
        raise Error(f"the library loaded ({_lib.loaded_path()}) has no xps_summary_line: it is older than this "
                    "package; install the library built with it (make install), or set XPLANE_STAT_LIBRARY")
    enc_tags = [_enc(t, "tags") for t in tags]
    ctags = (ctypes.c_char_p * (len(enc_tags) + 1))(*enc_tags, None)
    opts = _lib._SummaryOpts(_enc(device, "device"), _enc(children, "children"),
                             _duration_ps(min_duration, "min_duration"), ctags, len(enc_tags))
    lines = []
    for f in files:
        with _lib.Traces([f], threads) as h:
            line = ctypes.c_void_p()
            n = ctypes.c_size_t()
            err = ctypes.create_string_buffer(1024)
            _lib.check(L.xps_summary_line(h[0], ctypes.byref(opts), ctypes.byref(line), ctypes.byref(n), err,
                                          len(err)), err)
            try:
                lines.append(ctypes.string_at(line, n.value))
            finally:
                L.xps_summary_line_free(line)
    if out is not None:
        _write_whole(out, b"".join(lines))
    return [b.decode("utf-8", "surrogateescape") for b in lines]


def _diff_side(d):
    if not d.n:
        return {"n": d.n, "runs": d.runs, "mean_ns": None}
    return _fields(d, "n runs mean_ns median_ns min_ns max_ns p95_ns std_ns")


def _diff_row(r, level):
    row = {"key": _dec(r.key), "name": _dec(r.name), "program_id": _int_or_none(r.has_program_id, r.program_id),
           "level": level, "verdict": _dec(r.verdict)}
    if r.approximate:
        row["approximate"] = True
    p = _nan_none(r.p_value)
    row.update({"change": _nan_none(r.change),
                "change_ci95": None if math.isnan(r.change_ci95_lo) else [r.change_ci95_lo, r.change_ci95_hi],
                "p_value": p, "p_exact": None if p is None else bool(r.p_exact),
                "p_adjusted": _nan_none(r.p_adjusted), "p_welch": _nan_none(r.p_welch),
                "p95_change": _nan_none(r.p95_change), "base": _diff_side(r.base),
                "current": _diff_side(r.current), "delta_ns": r.delta_ns})
    return row


def diff(base, current, *, level="functions", device=None, match=None, id_regex=None, time="busy", children=None,
         min_duration=None, alpha=0.05, min_effect=None, correction="holm", gate=None, gate_p95=None,
         keep_duplicates=False, run_by="auto", threads=0):
    """What changed between two sets of runs, as `xplane-stat diff --json
    BASE CURRENT` gives it: "rows" (key, name, program_id, verdict, change and
    its change_ci95, p_value, p_adjusted, p_welch, p95_change, each side's
    statistics, delta_ns), the sides' runs and profiles, "gate" with gate or
    gate_p95 (percentages: the rows they mark under "failed"), "warnings".
    base and current are traces or directories of them (summaries are the
    command's); level "functions" or "autotune" (kernels and ops: the
    command). Raises NothingFound when neither side has a row, as the
    command exits 4; a gate that fails raises nothing: read "failed"."""
    if level not in ("functions", "autotune"):
        raise UsageError(f"level: {level!r} is not functions or autotune (kernels and ops: the command's --level)")
    if correction not in ("holm", "none"):
        raise UsageError(f"correction: {correction!r} is not holm or none")
    if run_by not in _RUN_BY:
        raise UsageError(f"run_by: {run_by!r} is not one of {', '.join(_RUN_BY)}")
    for what, v, lo, hi in (("alpha", alpha, 1e-12, 0.5), ("min_effect", min_effect, 0, 1e6), ("gate", gate, 0, 1e9),
                            ("gate_p95", gate_p95, 0, 1e9)):
        if (v is not None or what == "alpha") and not (isinstance(v, (int, float)) and lo <= v <= hi):
            raise UsageError(f"{what}: {v!r} is not a number from {lo:g} to {hi:g}")
    opts = _lib._DiffOpts(1 if level == "autotune" else 0, _enc(device, "device"), _enc(match, "match"),
                          _enc(id_regex, "id_regex"), _time_code(time, children, "diff"), _enc(children, "children"),
                          _duration_ps(min_duration, "min_duration"), alpha, 0 if min_effect is None else 1,
                          float(min_effect or 0), 1 if correction == "none" else 0,
                          0 if gate is None else 1, float(gate or 0), 0 if gate_p95 is None else 1,
                          float(gate_p95 or 0), 1 if keep_duplicates else 0, _RUN_BY.index(run_by))
    sides = [expand_paths(base), expand_paths(current)]
    L = _lib.lib()
    if not hasattr(L, "xps_diff_compute"):
        raise Error(f"the library loaded ({_lib.loaded_path()}) has no xps_diff_compute: it is older than this "
                    "package; install the library built with it (make install), or set XPLANE_STAT_LIBRARY")
    res = ctypes.POINTER(_lib._Diff)()
    err = ctypes.create_string_buffer(1024)
    with _lib.Traces(sides[0], threads) as b, _lib.Traces(sides[1], threads) as c:
        _lib.check(L.xps_diff_compute(b, len(sides[0]), c, len(sides[1]), ctypes.byref(opts), ctypes.byref(res),
                                      err, len(err)), err)
    try:
        d = res.contents
        lv = _dec(d.level)
        doc = {"schema_version": 1, "level": lv, "alpha": d.alpha, "correction": _dec(d.correction),
               "rows_tested": d.rows_tested, "min_effect_pct": d.min_effect_pct}
        for i, name in enumerate(("base", "current")):
            doc[name] = {"runs": d.runs[i], "profiles": d.profiles[i], "samples": _dec(d.samples)}
        doc["rows"] = [_diff_row(d.rows[i], lv) for i in range(d.nrows)]
        if gate is not None or gate_p95 is not None:
            doc["gate"] = {"pct": gate, "p95_pct": gate_p95,
                           "failed": [_dec(d.rows[i].key) for i in range(d.nrows) if d.rows[i].gated]}
        doc["warnings"] = _warnings(d)
    finally:
        L.xps_diff_free(res)
    if not doc["rows"]:
        raise NothingFound("nothing to compare: no " + ("autotune candidate" if level == "autotune" else
                                                        "function execution") + " on either side")
    return doc


def _stragglers(s):
    """overview --stragglers --json's "stragglers" object."""
    devices = [{"name": _dec(d.name), "host": _dec(d.host), "plane": _dec(d.plane), **_fields(d, "groups last"),
                **{k: _nan_none(getattr(d, k)) for k in ("late_mean_ns", "waited_mean_ns", "slow_mean_ns")}}
               for d in (s.devices[i] for i in range(s.ndevices))]
    hosts = [{"name": _dec(h.name), **_fields(h, "groups slowest"), "slow_mean_ns": _nan_none(h.slow_mean_ns)}
             for h in (s.hosts[i] for i in range(s.nhosts))]
    return {**_fields(s, "groups unmatched_functions"), "devices": devices,
            **_fields(s, "host_groups host_runs host_unmatched_functions"), "hosts": hosts,
            "slowest_host": _dec(s.slowest_host)}


def overview(paths, *, device=None, stragglers=False, run_by="auto", steps=False, threads=0):
    """The device timeline per device, as `xplane-stat overview --json` gives
    it (its document, its warnings under "warnings"): "devices" (name, host,
    plane, work, span_ns, busy_ns, idle_ns, duty_cycle, compute_ns,
    collective_ns, collective_exposed_ns, memcpy_ns, memcpy_exposed_ns, steps,
    utilization (the FLOPs of its work over span and peak) and, on GPU,
    launch_latency) and "host_steps"; with stragglers=True, as
    `--stragglers`, "stragglers" too: which device the others wait for, and
    which host of a run of several (run_by "auto", "dir" or "file", as
    --run-by); with steps=True, as `--steps`, "steps": each step of each
    device's Steps line (device, input, name, index, start_ns, duration_ns,
    busy_ns and its split, idle_ns, and on TPU flops, flops_per_s,
    flops_utilization, flops_of), "aligned_steps" (per trace, the steps
    every device of it with steps ran: input, name, devices, max_ns, min_ns, slowest_device) and
    "steps_unaligned". Raises NothingFound without a device plane with
    events, unless a trace is of the host alone with steps (those steps then
    stand alone), as the command exits 4."""
    if run_by not in _RUN_BY:
        raise UsageError(f"run_by: {run_by!r} is not one of {', '.join(_RUN_BY)}")
    opts = _lib._OverviewOpts(_enc(device, "device"), 1 if stragglers else 0, _RUN_BY.index(run_by),
                              1 if steps else 0)
    with _computed("overview", _lib._Overview, paths, opts, threads) as o:
        devices = []
        for i in range(o.ndevices):
            d = o.devices[i]
            lat = None
            if d.has_launch_latency:
                lat = {**_fields(d, "events_with_correlation_id no_launch ambiguous off_scale"),
                       "latency": _dist(d.latency, True), "queued": d.queued,
                       "queue_wait": _dist(d.queue_wait, True), "overhead": _dist(d.overhead, True)}
            devices.append({"name": _dec(d.name), "host": _dec(d.host), "plane": _dec(d.plane),
                            "work": _dec(d.work),
                            **_fields(d, "planes events span_ns busy_ns idle_ns duty_cycle compute_ns "
                                         "collective_ns collective_exposed_ns memcpy_ns memcpy_exposed_ns "
                                         "collective_events memcpy_events stray_end_events"),
                            "steps": _dist(d.steps, False),
                            "utilization": {"flops": _int_or_none(d.has_flops, d.flops),
                                            "model_flops": _int_or_none(d.has_model_flops, d.model_flops),
                                            **_fields(d, "work_ns flops_work_ns model_flops_work_ns"),
                                            "flops_per_s": _num_or_none(d.flops_per_s),
                                            "peak_source": _dec(d.peak_source),
                                            "peak_flops_per_s": _num_or_none(d.peak_flops_per_s),
                                            "flops_utilization": _num_or_none(d.flops_utilization),
                                            "model_flops_utilization":
                                                _num_or_none(d.model_flops_utilization),
                                            **_fields(d, "kernel_ns tensor_core_ns")},
                            "launch_latency": lat})
        doc = {"schema_version": 1, "command": "overview", "devices": devices,
               "host_steps": _dist(o.host_steps, False), "host_only_steps": _dist(o.host_only_steps, False),
               "warnings": _warnings(o)}
        if steps:
            doc["steps"] = [{"device": _dec(x.device), "input": _dec(x.input), "name": _dec(x.name),
                             **_fields(x, "index start_ns duration_ns busy_ns compute_ns collective_exposed_ns "
                                          "memcpy_exposed_ns host_wait_ns idle_ns"),
                             "flops": _int_or_none(x.has_flops, x.flops),
                             "flops_per_s": _num_or_none(x.flops_per_s),
                             "flops_utilization": _num_or_none(x.flops_utilization),
                             "flops_of": _num_or_none(x.flops_of)}
                            for x in (o.steps[i] for i in range(o.nsteps))]
            doc["aligned_steps"] = [{"input": _dec(x.input), "name": _dec(x.name),
                                     **_fields(x, "devices max_ns min_ns"),
                                     "slowest_device": _dec(x.slowest_device)}
                                    for x in (o.aligned_steps[i] for i in range(o.naligned_steps))]
            doc["steps_unaligned"] = o.steps_unaligned
        if stragglers:
            doc["stragglers"] = _stragglers(o.stragglers.contents)
        host_only = o.host_only_traces
    if not devices and not host_only:  # a profile of the host alone keeps its steps, as the command does
        raise NothingFound("no device plane with events" + (" matching the device pattern" if device else ""))
    return doc


def kernels(paths, *, device=None, whole=False, threads=0):
    """GPU kernels per name, as `xplane-stat kernels --json`: a list of rows
    (name, tensor_core, instances, total_ns, mean_ns, median_ns, min_ns,
    max_ns, std_ns, p90_ns, p99_ns, share), largest total first. With
    whole=True the whole document: the counts, the rows under "kernels",
    copies and memsets per kind under "memcpy". Raises NothingFound when no
    GPU kernel, copy or memset is found, as the command exits 4."""
    opts = _lib._KernelsOpts(_enc(device, "device"))
    with _computed("kernels", _lib._Kernels, paths, opts, threads) as k:
        rows = []
        for i in range(k.nrows):
            r = k.rows[i]
            rows.append({"name": _dec(r.name), "tensor_core": bool(r.tensor_core),
                         **_fields(r, "instances total_ns mean_ns median_ns min_ns max_ns std_ns p90_ns p99_ns "
                                      "share")})
        copies = []
        for i in range(k.ncopies):
            c = k.copies[i]
            copies.append({"kind": _dec(c.kind), **_fields(c, "count total_ns mean_ns bytes"),
                           "bytes_saturated": bool(c.bytes_saturated), "without_bytes": c.without_bytes,
                           "gb_per_s": c.gb_per_s if math.isfinite(c.gb_per_s) else None})
        doc = {"schema_version": 1, "command": "kernels", "by": "name",
               **_fields(k, "inputs devices stream_lines kernel_instances kernel_total_ns kernel_busy_ns "
                            "tensor_core_ns"),
               "rows": k.nrows, "rows_omitted": 0,
               **_fields(k, "copy_events stray_end_events zero_duration_kernels kernel_details_missing "
                            "kernel_details_unparsable kernel_details_implausible kernel_details_partial"),
               "kernels": rows, "memcpy": copies, "warnings": _warnings(k)}
    if not doc["devices"] or not (doc["kernel_instances"] + doc["copy_events"]):
        raise NothingFound("no GPU kernels, copies or memsets" +
                           (": no GPU device plane has 'Stream #' lines" if not doc["devices"] else ""))
    return doc if whole else rows
