# SPDX-License-Identifier: Apache-2.0
"""The shared library libxplane-stat through ctypes: finding it, its structs
(include/xplane_stat.h, field for field) and its error codes as exceptions."""
import ctypes
import os

from .errors import error_for

_LIB_NAME = "libxplane-stat.so.0"


# The warnings every result ends with (xplane_stat.h: Warnings).
_WARNINGS = [("warnings", ctypes.POINTER(ctypes.c_char_p)), ("nwarnings", ctypes.c_size_t)]


class _FunctionsOpts(ctypes.Structure):
    _fields_ = [
        ("device", ctypes.c_char_p),
        ("match", ctypes.c_char_p),
        ("time", ctypes.c_int),
        ("children", ctypes.c_char_p),
        ("min_duration_ps", ctypes.c_int64),
        ("trim", ctypes.c_uint64),
        ("per_device", ctypes.c_int),
    ]


class _Function(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p),
        ("program_id", ctypes.c_uint64),
        ("has_program_id", ctypes.c_int),
        ("fingerprint", ctypes.c_char_p),
        ("device", ctypes.c_char_p),
        ("devices", ctypes.c_uint64),
        ("executions", ctypes.c_uint64),
        ("executions_used", ctypes.c_uint64),
        ("events", ctypes.c_uint64),
        ("total_ns", ctypes.c_double),
        ("mean_ns", ctypes.c_double),
        ("std_ns", ctypes.c_double),
        ("min_ns", ctypes.c_double),
        ("median_ns", ctypes.c_double),
        ("max_ns", ctypes.c_double),
        ("share", ctypes.c_double),
    ]


class _Functions(ctypes.Structure):
    _fields_ = [
        ("rows", ctypes.POINTER(_Function)),
        ("nrows", ctypes.c_size_t),
        ("time", ctypes.c_int),
        ("trim", ctypes.c_uint64),
        ("inputs", ctypes.c_uint64),
        ("devices", ctypes.c_uint64),
        ("executions", ctypes.c_uint64),
        ("functions_count", ctypes.c_uint64),
        ("device_busy_ns", ctypes.c_double),
        ("device_events", ctypes.c_uint64),
        ("dropped_short_events", ctypes.c_uint64),
        ("unattributed_events", ctypes.c_uint64),
        ("unattributed_busy_ns", ctypes.c_double),
        ("runs_rule_executions", ctypes.c_uint64),
        ("runs_rule_split", ctypes.c_uint64),
        ("runs_rule_repeating", ctypes.c_uint64),
        ("stray_end_events", ctypes.c_uint64),
        ("stray_end_children", ctypes.c_uint64),
    ] + _WARNINGS


class _AutotuneOpts(ctypes.Structure):
    _fields_ = [
        ("device", ctypes.c_char_p),
        ("id_regex", ctypes.c_char_p),
        ("time", ctypes.c_int),
        ("children", ctypes.c_char_p),
        ("min_duration_ps", ctypes.c_int64),
        ("trim", ctypes.c_uint64),
        ("trim_given", ctypes.c_int),
        ("alpha", ctypes.c_double),
        ("all_devices", ctypes.c_int),
        ("pool_programs", ctypes.c_int),
        ("keep_duplicates", ctypes.c_int),
        ("compat", ctypes.c_int),
        ("samples_executions", ctypes.c_int),
        ("run_by", ctypes.c_int),
    ]


class _Candidate(ctypes.Structure):
    _fields_ = [
        ("id", ctypes.c_char_p),
        ("program_ids", ctypes.POINTER(ctypes.c_uint64)),
        ("nprogram_ids", ctypes.c_size_t),
        ("has_unknown_program", ctypes.c_int),
        ("id_rows", ctypes.c_size_t),
        ("n", ctypes.c_uint64),
        ("n_used", ctypes.c_uint64),
        ("trimmed_each_end", ctypes.c_uint64),
        ("inputs", ctypes.c_uint64),
        ("mean_s", ctypes.c_double),
        ("std_s", ctypes.c_double),
        ("min_s", ctypes.c_double),
        ("median_s", ctypes.c_double),
        ("max_s", ctypes.c_double),
        ("ci95_low_s", ctypes.c_double),
        ("ci95_high_s", ctypes.c_double),
        ("rank", ctypes.c_uint64),
        ("tied_with_fastest", ctypes.c_int),
        ("p_vs_fastest", ctypes.c_double),
        ("log10_p_vs_fastest", ctypes.c_double),
    ]


class _Autotune(ctypes.Structure):
    _fields_ = [
        ("rows", ctypes.POINTER(_Candidate)),
        ("nrows", ctypes.c_size_t),
        ("fastest", ctypes.c_char_p),
        ("no_fastest_because", ctypes.c_char_p),
        ("rival", ctypes.c_char_p),
        ("inputs", ctypes.c_uint64),
        ("inputs_without", ctypes.c_uint64),
        ("copies", ctypes.c_uint64),
        ("dropped_short_events", ctypes.c_uint64),
        ("samples_are_runs", ctypes.c_int),
        ("runs", ctypes.c_uint64),
    ] + _WARNINGS


class _KernelsOpts(ctypes.Structure):
    _fields_ = [("device", ctypes.c_char_p)]


class _Kernel(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("tensor_core", ctypes.c_int), ("instances", ctypes.c_uint64)] + [
        (f, ctypes.c_double) for f in ("total_ns", "mean_ns", "median_ns", "min_ns", "max_ns", "std_ns", "p90_ns",
                                       "p99_ns", "share")]


class _CopyKind(ctypes.Structure):
    _fields_ = [
        ("kind", ctypes.c_char_p),
        ("count", ctypes.c_uint64),
        ("total_ns", ctypes.c_double),
        ("mean_ns", ctypes.c_double),
        ("bytes", ctypes.c_uint64),
        ("bytes_saturated", ctypes.c_int),
        ("without_bytes", ctypes.c_uint64),
        ("gb_per_s", ctypes.c_double),
    ]


class _Kernels(ctypes.Structure):
    _fields_ = [
        ("rows", ctypes.POINTER(_Kernel)),
        ("nrows", ctypes.c_size_t),
        ("copies", ctypes.POINTER(_CopyKind)),
        ("ncopies", ctypes.c_size_t),
    ] + [(f, ctypes.c_uint64) for f in ("inputs", "devices", "stream_lines", "kernel_instances")] + [
        (f, ctypes.c_double) for f in ("kernel_total_ns", "kernel_busy_ns", "tensor_core_ns")] + [
        (f, ctypes.c_uint64) for f in ("copy_events", "stray_end_events", "zero_duration_kernels",
                                       "kernel_details_missing", "kernel_details_unparsable",
                                       "kernel_details_implausible", "kernel_details_partial")] + _WARNINGS


class _OpsOpts(ctypes.Structure):
    _fields_ = [("device", ctypes.c_char_p), ("by_category", ctypes.c_int), ("sort", ctypes.c_int),
                ("by_scope", ctypes.c_int), ("by_source", ctypes.c_int), ("by_framework", ctypes.c_int)]


class _Op(ctypes.Structure):
    _fields_ = [
        ("name", ctypes.c_char_p), ("line", ctypes.c_char_p), ("async_", ctypes.c_int),
        ("category", ctypes.c_char_p), ("hlo", ctypes.c_char_p), ("module", ctypes.c_char_p),
        ("program_id", ctypes.c_uint64), ("has_program_id", ctypes.c_int), ("occurrences", ctypes.c_uint64),
    ] + [(f, ctypes.c_double) for f in ("total_ns", "self_ns", "mean_ns", "share")] + [
        (f, ctypes.c_uint64) for f in ("flops", "model_flops", "bytes_accessed")] + [
        (f, ctypes.c_int) for f in ("has_flops", "has_model_flops", "has_bytes_accessed")] + [
        (f, ctypes.c_double) for f in ("flops_per_s", "bytes_per_s", "intensity")] + [
        ("bound_by", ctypes.c_char_p), ("calls", ctypes.c_uint64), ("has_calls", ctypes.c_int),
        ("calls_from", ctypes.c_char_p), ("call_mean_ns", ctypes.c_double), ("cost_from", ctypes.c_char_p)]


class _OpsGpuCost(ctypes.Structure):
    _fields_ = [(f, ctypes.c_uint64) for f in ("ops_from_hlo", "without_flops", "calls_unknown", "not_in_hlo",
                                               "cost_unknown")] + [
        ("not_known", ctypes.POINTER(ctypes.c_char_p)), ("nnot_known", ctypes.c_size_t)]


class _OpsLine(ctypes.Structure):
    _fields_ = [("line", ctypes.c_char_p), ("events", ctypes.c_uint64), ("ops_count", ctypes.c_uint64),
                ("total_ns", ctypes.c_double), ("self_ns", ctypes.c_double)]


class _OpsDevice(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("chip", ctypes.c_char_p), ("peak_source", ctypes.c_char_p),
                ("peak_flops_per_s", ctypes.c_double), ("peak_bytes_per_s", ctypes.c_double)] + [
        (f, ctypes.c_uint64) for f in ("op_events", "stray_end_events", "partial_overlaps", "odd_values",
                                       "kernels_without_hlo_op")]


class _OpsScope(ctypes.Structure):
    _fields_ = [("scope", ctypes.c_char_p), ("name", ctypes.c_char_p), ("depth", ctypes.c_uint64)] + [
        (f, ctypes.c_double) for f in ("total_ns", "self_ns", "share")] + [
        ("occurrences", ctypes.c_uint64), ("top_op", ctypes.c_char_p), ("top_op_module", ctypes.c_char_p),
        ("top_op_program_id", ctypes.c_uint64), ("has_top_op_program_id", ctypes.c_int)]


class _OpsHlo(ctypes.Structure):
    _fields_ = [(f, ctypes.c_uint64) for f in ("ops", "found", "found_without_op_name", "not_in_hlo",
                                               "without_hlo", "modules", "modules_not_decoded",
                                               "inputs_without_hlo", "tensorflow_ops")]


class _Ops(ctypes.Structure):
    _fields_ = [
        ("rows", ctypes.POINTER(_Op)), ("nrows", ctypes.c_size_t),
        ("categories", ctypes.POINTER(_Op)), ("ncategories", ctypes.c_size_t),
        ("lines", ctypes.POINTER(_OpsLine)), ("nlines", ctypes.c_size_t),
        ("devices", ctypes.POINTER(_OpsDevice)), ("ndevices", ctypes.c_size_t),
    ] + [(f, ctypes.c_uint64) for f in ("inputs", "stray_end_events", "partial_overlaps", "odd_values",
                                        "overflowed_sums", "partial_sums", "kernels_without_hlo_op",
                                        "calls_from_host", "aggregated_occurrences")] + [
        ("scopes", ctypes.POINTER(_OpsScope)), ("nscopes", ctypes.c_size_t), ("scopes_self_ns", ctypes.c_double),
        ("sources", ctypes.POINTER(_Op)), ("nsources", ctypes.c_size_t),
        ("frameworks", ctypes.POINTER(_Op)), ("nframeworks", ctypes.c_size_t),
        ("framework_types", ctypes.POINTER(_Op)), ("nframework_types", ctypes.c_size_t), ("has_hlo", ctypes.c_int),
        ("hlo", _OpsHlo), ("gpu_cost", _OpsGpuCost)] + _WARNINGS


class _MemoryOpts(ctypes.Structure):
    _fields_ = [("memory", ctypes.c_char_p)]


class _MemoryRow(ctypes.Structure):
    _fields_ = [
        ("input", ctypes.c_char_p), ("memory_id", ctypes.c_char_p), ("id_from", ctypes.c_char_p),
        ("capacity_bytes", ctypes.c_uint64), ("has_capacity", ctypes.c_int), ("capacity_varies", ctypes.c_int),
        ("has_peak", ctypes.c_int), ("peak_bytes_in_use", ctypes.c_uint64), ("peak_time_ns", ctypes.c_double),
    ] + [(f, ctypes.c_uint64) for f in ("peak_bytes_allocated", "peak_bytes_reserved", "last_bytes_in_use")] + [
        ("fragmentation_at_peak", ctypes.c_double), ("lifetime_peak_bytes", ctypes.c_uint64),
        ("has_lifetime_peak", ctypes.c_int),
    ] + [(f, ctypes.c_uint64) for f in ("allocations", "deallocations", "events_without_state",
                                        "largest_allocation_bytes")] + [
        (f, ctypes.c_double) for f in ("first_event_ns", "last_event_ns")] + [
        (f, ctypes.c_uint64) for f in ("live_at_peak", "live_at_peak_bytes", "allocated_before_profile_bytes",
                                       "frees_of_unseen_allocations", "addresses_reused_while_live")]


class _Memory(ctypes.Structure):
    _fields_ = [("rows", ctypes.POINTER(_MemoryRow)), ("nrows", ctypes.c_size_t), ("events", ctypes.c_uint64)] + _WARNINGS


class _CompileOpts(ctypes.Structure):
    _fields_ = [("function", ctypes.c_char_p)]


class _CompileEvent(ctypes.Structure):
    _fields_ = [("input", ctypes.c_char_p), ("name", ctypes.c_char_p), ("phase", ctypes.c_char_p), ("call", ctypes.c_uint64),
                ("where", ctypes.c_char_p), ("start_ns", ctypes.c_double), ("duration_ns", ctypes.c_double),
                ("nested_in_same_phase", ctypes.c_int), ("inner_events", ctypes.c_uint64),
                ("inner_ns", ctypes.c_double)]


class _CompileFunction(ctypes.Structure):
    _fields_ = [("input", ctypes.c_char_p), ("name", ctypes.c_char_p), ("program_id", ctypes.c_uint64),
                ("has_program_id", ctypes.c_int), ("calls", ctypes.c_uint64),
                ("first_call_ns", ctypes.c_double), ("first_call_start_ns", ctypes.c_double),
                ("has_later", ctypes.c_int)] + [
        (f, ctypes.c_double) for f in ("later_median_ns", "overhead_ns", "trace_ns", "lower_ns", "compile_ns")] + [
        ("compiling_calls", ctypes.c_uint64), ("events", ctypes.POINTER(_CompileEvent)),
        ("nevents", ctypes.c_size_t)]


class _Compile(ctypes.Structure):
    _fields_ = [("functions", ctypes.POINTER(_CompileFunction)), ("nfunctions", ctypes.c_size_t),
                ("unattributed", ctypes.POINTER(_CompileEvent)), ("nunattributed", ctypes.c_size_t)] + [
        (f, ctypes.c_uint64) for f in ("call_events", "calls", "compiler_events", "unattributed_events",
                                       "calls_with_program", "calls_ambiguous", "calls_unsearched")] + [
        (f, ctypes.c_double) for f in ("trace_ns", "lower_ns", "compile_ns", "compiler_ns", "host_span_ns",
                                       "unattributed_ns")] + [("unselected", ctypes.c_uint64)] + _WARNINGS


class _OverviewOpts(ctypes.Structure):
    _fields_ = [("device", ctypes.c_char_p), ("stragglers", ctypes.c_int), ("run_by", ctypes.c_int),
                ("steps", ctypes.c_int)]


class _OverviewStep(ctypes.Structure):
    _fields_ = [("device", ctypes.c_char_p), ("input", ctypes.c_char_p), ("name", ctypes.c_char_p),
                ("index", ctypes.c_uint64)] + [
        (f, ctypes.c_double) for f in ("start_ns", "duration_ns", "busy_ns", "compute_ns", "collective_exposed_ns",
                                       "memcpy_exposed_ns", "host_wait_ns", "idle_ns")] + [
        ("flops", ctypes.c_uint64), ("has_flops", ctypes.c_int)] + [
        (f, ctypes.c_double) for f in ("flops_per_s", "flops_utilization", "flops_of")]


class _OverviewAligned(ctypes.Structure):
    _fields_ = [("input", ctypes.c_char_p), ("name", ctypes.c_char_p), ("devices", ctypes.c_uint64),
                ("max_ns", ctypes.c_double), ("min_ns", ctypes.c_double), ("slowest_device", ctypes.c_char_p)]


class _Dist(ctypes.Structure):
    _fields_ = [("count", ctypes.c_uint64)] + [
        (f, ctypes.c_double) for f in ("mean_ns", "median_ns", "p99_ns", "min_ns", "max_ns")]


class _OverviewDevice(ctypes.Structure):
    _fields_ = [(f, ctypes.c_char_p) for f in ("name", "host", "plane", "work")] + [
        (f, ctypes.c_uint64) for f in ("planes", "events")] + [
        (f, ctypes.c_double) for f in ("span_ns", "busy_ns", "idle_ns", "duty_cycle", "compute_ns",
                                       "collective_ns", "collective_exposed_ns", "memcpy_ns",
                                       "memcpy_exposed_ns")] + [
        (f, ctypes.c_uint64) for f in ("collective_events", "memcpy_events", "stray_end_events")] + [
        ("steps", _Dist), ("flops", ctypes.c_uint64), ("model_flops", ctypes.c_uint64),
        ("has_flops", ctypes.c_int), ("has_model_flops", ctypes.c_int)] + [
        (f, ctypes.c_double) for f in ("work_ns", "flops_work_ns", "model_flops_work_ns", "flops_per_s")] + [
        ("peak_source", ctypes.c_char_p)] + [
        (f, ctypes.c_double) for f in ("peak_flops_per_s", "flops_utilization", "model_flops_utilization",
                                       "kernel_ns", "tensor_core_ns")] + [
        ("has_launch_latency", ctypes.c_int)] + [
        (f, ctypes.c_uint64) for f in ("events_with_correlation_id", "no_launch", "ambiguous", "off_scale",
                                       "queued")] + [
        (f, _Dist) for f in ("latency", "queue_wait", "overhead")]


class _StragglerDevice(ctypes.Structure):
    _fields_ = [(f, ctypes.c_char_p) for f in ("name", "host", "plane")] + [
        (f, ctypes.c_uint64) for f in ("groups", "last")] + [
        (f, ctypes.c_double) for f in ("late_mean_ns", "waited_mean_ns", "slow_mean_ns")]


class _StragglerHost(ctypes.Structure):
    _fields_ = [("name", ctypes.c_char_p), ("groups", ctypes.c_uint64), ("slowest", ctypes.c_uint64),
                ("slow_mean_ns", ctypes.c_double)]


class _Stragglers(ctypes.Structure):
    _fields_ = [(f, ctypes.c_uint64) for f in ("groups", "unmatched_functions")] + [
        ("devices", ctypes.POINTER(_StragglerDevice)), ("ndevices", ctypes.c_size_t)] + [
        (f, ctypes.c_uint64) for f in ("host_groups", "host_runs", "host_unmatched_functions")] + [
        ("hosts", ctypes.POINTER(_StragglerHost)), ("nhosts", ctypes.c_size_t), ("slowest_host", ctypes.c_char_p)]


class _Overview(ctypes.Structure):
    _fields_ = [("devices", ctypes.POINTER(_OverviewDevice)), ("ndevices", ctypes.c_size_t),
                ("host_steps", _Dist), ("host_only_steps", _Dist), ("host_only_traces", ctypes.c_uint64),
                ("stragglers", ctypes.POINTER(_Stragglers)),
                ("steps", ctypes.POINTER(_OverviewStep)), ("nsteps", ctypes.c_size_t),
                ("aligned_steps", ctypes.POINTER(_OverviewAligned)), ("naligned_steps", ctypes.c_size_t),
                ("steps_unaligned", ctypes.c_uint64)] + _WARNINGS


class _DiffOpts(ctypes.Structure):
    _fields_ = [("level", ctypes.c_int)] + [(f, ctypes.c_char_p) for f in ("device", "match", "id_regex")] + [
        ("time", ctypes.c_int), ("children", ctypes.c_char_p), ("min_duration_ps", ctypes.c_int64),
        ("alpha", ctypes.c_double), ("min_effect_given", ctypes.c_int), ("min_effect_pct", ctypes.c_double),
        ("no_correction", ctypes.c_int),
        ("gate", ctypes.c_int), ("gate_pct", ctypes.c_double), ("gate_p95", ctypes.c_int),
        ("gate_p95_pct", ctypes.c_double), ("keep_duplicates", ctypes.c_int), ("run_by", ctypes.c_int)]


class _DiffSide(ctypes.Structure):
    _fields_ = [(f, ctypes.c_uint64) for f in ("n", "runs")] + [
        (f, ctypes.c_double) for f in ("mean_ns", "median_ns", "min_ns", "max_ns", "p95_ns", "std_ns")]


class _DiffRow(ctypes.Structure):
    _fields_ = [(f, ctypes.c_char_p) for f in ("key", "name")] + [
        ("program_id", ctypes.c_uint64), ("has_program_id", ctypes.c_int), ("verdict", ctypes.c_char_p),
        ("approximate", ctypes.c_int)] + [
        (f, ctypes.c_double) for f in ("change", "change_ci95_lo", "change_ci95_hi", "p_value")] + [
        ("p_exact", ctypes.c_int)] + [(f, ctypes.c_double) for f in ("p_adjusted", "p_welch", "p95_change")] + [
        ("base", _DiffSide), ("current", _DiffSide), ("delta_ns", ctypes.c_double), ("gated", ctypes.c_int)]


class _Diff(ctypes.Structure):
    _fields_ = [("level", ctypes.c_char_p), ("alpha", ctypes.c_double), ("min_effect_pct", ctypes.c_double),
                ("correction", ctypes.c_char_p), ("rows_tested", ctypes.c_uint64),
                ("runs", ctypes.c_uint64 * 2), ("profiles", ctypes.c_uint64 * 2), ("samples", ctypes.c_char_p),
                ("rows", ctypes.POINTER(_DiffRow)), ("nrows", ctypes.c_size_t), ("gated", ctypes.c_uint64),
                ("copies", ctypes.c_uint64)] + _WARNINGS


class _SummaryOpts(ctypes.Structure):
    _fields_ = [("device", ctypes.c_char_p), ("children", ctypes.c_char_p), ("min_duration_ps", ctypes.c_int64),
                ("tags", ctypes.POINTER(ctypes.c_char_p)), ("ntags", ctypes.c_size_t)]


class _ReadOpts(ctypes.Structure):
    _fields_ = [("max_input_size", ctypes.c_uint64), ("threads", ctypes.c_uint)]


def _candidates():
    """Where the library is looked for, in order: XPLANE_STAT_LIBRARY, beside
    the package, the folder make install put it in (or in a source checkout
    the build/ that make built), the loader's own search."""
    env = os.environ.get("XPLANE_STAT_LIBRARY")
    if env:
        return [env]
    here = os.path.dirname(os.path.realpath(__file__))
    out = [os.path.join(here, _LIB_NAME)]
    try:
        from ._paths import LIBDIR  # written by make install
        out.append(os.path.join(LIBDIR, _LIB_NAME))
    except ImportError:
        # a source checkout (python/xplane_stat): the library `make` built in build/
        out.append(os.path.join(here, "..", "..", "build", _LIB_NAME))
    return out + [_LIB_NAME]


def _load():
    tried = []
    for path in _candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append(f"{path} ({e})")
            continue
        lib.xps_version_number.restype = ctypes.c_uint
        if lib.xps_version_number() // 100 != _LAYOUT // 100:
            v = lib.xps_version_number()
            tried.append(f"{path} (version {v // 10000}.{v // 100 % 100}: this package reads the structs of "
                         f"{_LAYOUT // 10000}.{_LAYOUT // 100 % 100})")
            continue
        _declare(lib)
        global _path
        _path = path
        return lib
    raise ImportError("xplane_stat: cannot load the library libxplane-stat: tried " + "; ".join(tried) +
                      " (set XPLANE_STAT_LIBRARY to its path, or install it: make install)")


# The library's structs these definitions mirror: its major and minor version (0.2: ops by scope).
_LAYOUT = 600


def _declare(lib):
    vp = ctypes.c_void_p
    lib.xps_version_number.restype = ctypes.c_uint
    lib.xps_version_string.restype = ctypes.c_char_p
    lib.xps_trace_open.argtypes = [ctypes.c_char_p, ctypes.POINTER(_ReadOpts), ctypes.POINTER(vp),
                                   ctypes.c_char_p, ctypes.c_size_t]
    lib.xps_trace_open.restype = ctypes.c_int
    lib.xps_trace_free.argtypes = [vp]
    lib.xps_functions_compute.argtypes = [ctypes.POINTER(vp), ctypes.c_size_t, ctypes.POINTER(_FunctionsOpts),
                                          ctypes.POINTER(ctypes.POINTER(_Functions)), ctypes.c_char_p,
                                          ctypes.c_size_t]
    lib.xps_functions_compute.restype = ctypes.c_int
    lib.xps_functions_free.argtypes = [ctypes.POINTER(_Functions)]
    lib.xps_autotune_compute.argtypes = [ctypes.POINTER(vp), ctypes.c_size_t, ctypes.POINTER(_AutotuneOpts),
                                         ctypes.POINTER(ctypes.POINTER(_Autotune)), ctypes.c_char_p,
                                         ctypes.c_size_t]
    lib.xps_autotune_compute.restype = ctypes.c_int
    lib.xps_autotune_free.argtypes = [ctypes.POINTER(_Autotune)]
    lib.xps_kernels_compute.argtypes = [ctypes.POINTER(vp), ctypes.c_size_t, ctypes.POINTER(_KernelsOpts),
                                        ctypes.POINTER(ctypes.POINTER(_Kernels)), ctypes.c_char_p, ctypes.c_size_t]
    lib.xps_kernels_compute.restype = ctypes.c_int
    lib.xps_kernels_free.argtypes = [ctypes.POINTER(_Kernels)]
    # added later: bound where the library has them (an older one still serves the others)
    for what, opts_t, res_t in (("ops", _OpsOpts, _Ops), ("memory", _MemoryOpts, _Memory),
                                ("compile", _CompileOpts, _Compile), ("overview", _OverviewOpts, _Overview)):
        if not hasattr(lib, f"xps_{what}_compute"):
            continue
        compute, free = getattr(lib, f"xps_{what}_compute"), getattr(lib, f"xps_{what}_free")
        compute.argtypes = [ctypes.POINTER(vp), ctypes.c_size_t, ctypes.POINTER(opts_t),
                            ctypes.POINTER(ctypes.POINTER(res_t)), ctypes.c_char_p, ctypes.c_size_t]
        compute.restype = ctypes.c_int
        free.argtypes = [ctypes.POINTER(res_t)]
    if hasattr(lib, "xps_summary_line"):
        lib.xps_summary_line.argtypes = [vp, ctypes.POINTER(_SummaryOpts), ctypes.POINTER(vp),
                                         ctypes.POINTER(ctypes.c_size_t), ctypes.c_char_p, ctypes.c_size_t]
        lib.xps_summary_line.restype = ctypes.c_int
        lib.xps_summary_line_free.argtypes = [vp]
    if hasattr(lib, "xps_diff_compute"):
        lib.xps_diff_compute.argtypes = [ctypes.POINTER(vp), ctypes.c_size_t, ctypes.POINTER(vp), ctypes.c_size_t,
                                         ctypes.POINTER(_DiffOpts), ctypes.POINTER(ctypes.POINTER(_Diff)),
                                         ctypes.c_char_p, ctypes.c_size_t]
        lib.xps_diff_compute.restype = ctypes.c_int
        lib.xps_diff_free.argtypes = [ctypes.POINTER(_Diff)]


_lib = None


_path = None


def loaded_path():
    """Where the loaded library was found (None before it is loaded)."""
    return _path


def lib():
    """The loaded library (loaded at the first call)."""
    global _lib
    if _lib is None:
        _lib = _load()
    return _lib


def check(code, errbuf):
    """Raises the exception for a negative code, with the library's message."""
    if code < 0:
        raise error_for(code, errbuf.value.decode("utf-8", "backslashreplace"))


class Traces:
    """Traces opened for one call and freed after it (a context manager)."""

    def __init__(self, paths, threads=0):
        self.handles = []
        self.paths = paths
        self.threads = threads

    def __enter__(self):
        L = lib()
        opts = _ReadOpts(0, self.threads)
        try:
            for p in self.paths:
                h = ctypes.c_void_p()
                err = ctypes.create_string_buffer(1024)
                check(L.xps_trace_open(os.fsencode(p), ctypes.byref(opts), ctypes.byref(h), err, len(err)), err)
                self.handles.append(h)
        except BaseException:
            self.__exit__(None, None, None)
            raise
        return (ctypes.c_void_p * len(self.handles))(*[h.value for h in self.handles])

    def __exit__(self, *exc):
        L = lib()
        for h in self.handles:
            L.xps_trace_free(h)
        self.handles = []
        return False
