/* SPDX-License-Identifier: Apache-2.0 */
/*
 * libxplane-stat: read XPlane profile dumps (*.xplane.pb, the XSpace files that
 * JAX, TensorFlow and XLA profilers write) and compute what the xplane-stat
 * command reports, as plain C structs.
 *
 *   cc prog.c $(pkg-config --cflags --libs xplane-stat)
 *
 * Ownership: every object the library returns is freed by its xps_*_free
 * function, which accepts NULL; strings and arrays inside a result belong to
 * that result and live until it is freed. The library keeps no pointer to
 * what the caller passes (paths, options, patterns) after the call returns.
 *
 * Errors: every function that can fail returns 0 or a negative XPS_E* code,
 * and on failure writes a one-line message (NUL-terminated, cut to errlen
 * bytes) to errbuf when errbuf is not NULL and errlen is not 0; on failure
 * its output pointer is set to NULL. Nothing is printed and nothing exits.
 *
 * Names (functions, devices) are the file's bytes: usually UTF-8, not
 * always. The command escapes bytes that are not when it prints them.
 *
 * Warnings: every result carries, in warnings[0..nwarnings), what the
 * command warns of for the same traces and options, in its order and
 * words (without "xplane-stat: warning: "): what the reader found odd in a
 * trace (events naming metadata it lacks, aggregated events skipped, the
 * profiler's own errors), what the analysis could not count as asked, and
 * the limits that bit. Those about the command's own doings (files given
 * twice, inputs skipped, files written) are not among them. Nothing found
 * is a result with empty rows, not a warning.
 *
 * Threads: what a call returns depends on its arguments alone (options
 * travel in them; there are no process-wide settings). Different objects
 * may be used on different threads at once; one trace by one thread at a
 * time, as an analysis reads the parts of the file it needs into it.
 *
 * Versions: the shared library's soname carries the major version
 * (libxplane-stat.so.0). While that is 0 the interface is young: a minor
 * version may still change the structs below, so a program built against
 * one compares xps_version_number() with its XPLANE_STAT_VERSION_NUMBER.
 *
 * The implementation is src/api/ of xplane-stat's sources; the command
 * (xplane-stat functions --json) prints exactly the numbers these give.
 */
#ifndef XPLANE_STAT_H
#define XPLANE_STAT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XPLANE_STAT_VERSION_MAJOR 0
#define XPLANE_STAT_VERSION_MINOR 6
#define XPLANE_STAT_VERSION_PATCH 0
/* MAJOR * 10000 + MINOR * 100 + PATCH: 300 for 0.3.0. */
#define XPLANE_STAT_VERSION_NUMBER                                                                 \
	(XPLANE_STAT_VERSION_MAJOR * 10000 + XPLANE_STAT_VERSION_MINOR * 100 + XPLANE_STAT_VERSION_PATCH)

#if defined(__GNUC__) && __GNUC__ >= 4
#define XPS_API __attribute__((visibility("default")))
#else
#define XPS_API
#endif

/* The library's version, as XPLANE_STAT_VERSION_NUMBER and as "0.1.0". */
XPS_API unsigned xps_version_number(void);
XPS_API const char *xps_version_string(void);

/* Error codes: 0 is success, these are negative. */
enum {
	XPS_EOK = 0,
	XPS_ENOMEM = -1,	/* out of memory */
	XPS_EIO = -2,		/* cannot open or read the input */
	XPS_EFORMAT = -3,	/* the input is not a valid XSpace (or gzip of one) */
	XPS_ELIMIT = -4,	/* the input exceeds a limit (max_input_size, a time range) */
	XPS_EINVAL = -5,	/* a bad argument: NULL where an object is needed, a bad pattern, an enum out of range */
};

/* What code means, in a few words ("out of memory"); never NULL. */
XPS_API const char *xps_strerror(int code);

/* ------------------------------------------------------------------------ */
/* A trace: one XSpace file, read. */

typedef struct xps_trace xps_trace;	/* opaque */

/* How to read a trace; all zero (or a NULL pointer) is the default. */
struct xps_read_opts {
	/*
	 * The most bytes read from standard input or a pipe, or inflated from
	 * gzip; a larger input fails with XPS_ELIMIT. 0: 16 GiB. A plain file
	 * is mapped, whatever its size.
	 */
	uint64_t max_input_size;
	/* Threads that decode the file's planes; 0: one per online CPU. The result is the same for any. */
	unsigned threads;
};

/*
 * Reads the trace at path: a .xplane.pb file, its gzip (.xplane.pb.gz), or
 * "-" for standard input. The device planes are decoded now, the host
 * planes when an analysis needs them: the trace keeps the input's bytes
 * until xps_trace_free (a plain file mapped, gzip or standard input in
 * memory). It keeps what any analysis may need, so it can take more memory
 * than the command, which reads for one analysis only.
 * opts may be NULL. *out: the trace, or NULL on error.
 */
XPS_API int xps_trace_open(const char *path, const struct xps_read_opts *opts, xps_trace **out,
			   char *errbuf, size_t errlen);
XPS_API void xps_trace_free(xps_trace *t);

/*
 * A file that shrinks while it is read (a profiler still writing it, rsync
 * --inplace), mapped as it is, raises SIGBUS where its pages were, which
 * ends the process unless it handles the signal; the library installs no
 * handler (signal dispositions are the program's). A program that wants
 * the reads to go on installs one (sigaction, SA_SIGINFO) that calls
 *
 *   if (!xps_input_fault(info->si_addr)) { signal(sig, SIG_DFL); raise(sig); }
 *
 * xps_input_fault (async-signal-safe) puts zero pages in place of those
 * gone when addr lies in an input the library has mapped, and returns 1;
 * else 0, for the default action. The open or the analysis that read
 * zeros then fails with XPS_EIO: "'PATH': changed while being read (it
 * shrank: is it still being written?)". 4096 files mapped at once are
 * guarded, past them a file is not; the command installs such a handler.
 */
XPS_API int xps_input_fault(void *addr);

/* ------------------------------------------------------------------------ */
/*
 * Functions: device time per jitted function (XLA module), over the
 * executions of each. A row per (function name, program id), or with
 * per_device per (function, program id, device). Times are nanoseconds
 * (doubles, from the file's picoseconds as the command's JSON gives them).
 */

/* What an execution's time is (the command's --time and --children). */
enum {
	XPS_TIME_BUSY = 0,	/* the union of its device events' intervals */
	XPS_TIME_SPAN = 1,	/* its first event's start to its last event's end */
	XPS_TIME_CHILDREN = 2,	/* the union of its contained events that children matches */
};

/* What to count; all zero (or a NULL pointer) is the command's default. */
struct xps_functions_opts {
	/*
	 * Only device planes whose name contains this, in any case ("gpu",
	 * "TPU:1"; one ending in a digit is not followed by another digit: TPU:1
	 * is not TPU:10). NULL: every device plane.
	 */
	const char *device;
	/* Only functions whose name this POSIX extended regular expression matches; NULL: all. */
	const char *match;
	/* XPS_TIME_BUSY or XPS_TIME_SPAN; children sets XPS_TIME_CHILDREN. */
	int time;
	/*
	 * An extended regular expression: an execution's time is the union of
	 * the events of its plane inside it whose name matches (the command's
	 * --children); excludes XPS_TIME_SPAN. NULL: time says.
	 */
	const char *children;
	/* Device events shorter than this (picoseconds) are dropped. */
	int64_t min_duration_ps;
	/* mean and std drop the trim fastest and trim slowest executions of a row with more than 2 * trim. */
	uint64_t trim;
	/* Nonzero: a row per function and device instead of one pooled over devices. */
	int per_device;
};

/* One row. The keys of `xplane-stat functions --json` name the same numbers. */
struct xps_function {
	const char *name;		/* the function (module) name, fingerprint removed */
	uint64_t program_id;		/* when has_program_id */
	int has_program_id;		/* 0: the file gives neither a program_id nor a fingerprint */
	const char *fingerprint;	/* the "(digits)" the name carried, or NULL */
	const char *device;		/* with per_device: "host:plane" (or the plane's name); else NULL */
	uint64_t devices;		/* distinct devices that ran it */
	uint64_t executions;
	uint64_t executions_used;	/* by mean and std, after trim */
	uint64_t events;		/* device events in its executions */
	double total_ns;		/* all executions */
	double mean_ns, std_ns;		/* of the executions used; std is the population one */
	double min_ns, median_ns, max_ns;	/* of all executions */
	double share;			/* total over the busy time of every device counted, 0 to 1 */
};

struct xps_functions {
	const struct xps_function *rows;	/* by total time, largest first */
	size_t nrows;
	int time;			/* XPS_TIME_* the times measure */
	uint64_t trim;
	uint64_t inputs;		/* traces pooled */
	uint64_t devices;		/* distinct devices with events (0: no device plane matched) */
	uint64_t executions;
	uint64_t functions_count;	/* distinct (name, program id); rows count devices apart too */
	double device_busy_ns;		/* each device's busy time (union of its events), summed */
	uint64_t device_events;
	uint64_t dropped_short_events;	/* by min_duration_ps */
	uint64_t unattributed_events;	/* device events of no function, */
	double unattributed_busy_ns;	/* and their busy time */
	uint64_t runs_rule_executions;	/* executions formed by consecutive events, without host linkage */
	uint64_t runs_rule_split;	/* of those, split where a call's kernels repeat */
	uint64_t runs_rule_repeating;	/* runs that repeat kernels but could not be split */
	uint64_t stray_end_events;	/* events left out: their end lies far beyond the plane's others */
	uint64_t stray_end_children;	/* the same among children (XPS_TIME_CHILDREN) */
	const char *const *warnings;	/* what the command warns of for these traces (see Warnings) */
	size_t nwarnings;
};

/*
 * Device time per function over the executions of ntraces traces, pooled
 * in the order given (as the command pools its inputs). A trace without a
 * device plane that matches adds no row: devices 0 and no rows is a
 * result, not an error. opts may be NULL. *out: the result, or NULL on error.
 */
XPS_API int xps_functions_compute(xps_trace *const *traces, size_t ntraces,
				  const struct xps_functions_opts *opts, struct xps_functions **out,
				  char *errbuf, size_t errlen);
XPS_API void xps_functions_free(struct xps_functions *f);

/* ------------------------------------------------------------------------ */
/*
 * Autotune: per candidate id (group 1 of id_regex in the function names,
 * jit_autotune_fn_<i> by default) the trimmed statistics of its samples
 * over many traces (its mean in each trace; with one trace, or
 * samples_executions, its executions), ranked, each tested against the
 * fastest (Welch). Times are seconds, as `xplane-stat autotune --json`
 * gives them.
 */

/* What to count; all zero (or a NULL pointer) is the command's default. */
struct xps_autotune_opts {
	const char *device;		/* as in xps_functions_opts; NULL: every device plane */
	const char *id_regex;		/* NULL: "^jit_autotune_fn_([0-9]+)"; needs a group */
	int time;			/* XPS_TIME_BUSY or XPS_TIME_SPAN; children sets XPS_TIME_CHILDREN */
	const char *children;		/* as in xps_functions_opts */
	int64_t min_duration_ps;	/* device events shorter than this are dropped */
	/* The fastest and slowest trim samples dropped from each end when over 2 * trim remain;
	 * used when trim_given is nonzero, else 1 (the command's default; run means of fewer
	 * than 5 traces are then not trimmed). */
	uint64_t trim;
	int trim_given;
	double alpha;			/* significance of "tied with the fastest"; 0: 0.05 */
	int all_devices;		/* pool every device, not the first that ran a candidate */
	int pool_programs;		/* one row per id, its programs pooled; else a row per program */
	int keep_duplicates;		/* count every copy of a run (traces whose executions are
					   identical to the picosecond); else copies count once */
	/*
	 * Nonzero: the numbers of ejkernel's Python profiler, limits included
	 * (`autotune --compat=ejkernel`): the first plane whose name contains
	 * device ("gpu" when NULL), its events one by one; time, children,
	 * min_duration_ps, trim, id_regex and all_devices must be left zero.
	 */
	int compat;
	/*
	 * 0: where the traces make several runs (run_by), each candidate's
	 * mean in each run is a sample; nonzero: every execution is
	 * (`--samples executions`). Without trim_given, a candidate with
	 * fewer than 5 run means is not trimmed.
	 * (This field, run_by and the result's samples_are_runs and runs came
	 * in 0.1.0's last changes: build against this header.)
	 */
	int samples_executions;
	/*
	 * Which traces are one run, from the paths they were opened with and
	 * the hostnames they name (`--run-by`): XPS_RUN_BY_AUTO (0), the traces
	 * of one directory each named after its host (XProf's session
	 * directory, <host>.xplane.pb: a job's hosts) are one run, any other
	 * trace a run of its own; XPS_RUN_BY_DIR, a directory's traces are one
	 * run; XPS_RUN_BY_FILE, each trace is a run.
	 */
	int run_by;
};

enum {
	XPS_RUN_BY_AUTO = 0,
	XPS_RUN_BY_DIR = 1,
	XPS_RUN_BY_FILE = 2,
};

/* One row: a candidate id, or with several programs one program of it. */
struct xps_autotune_candidate {
	const char *id;			/* digits without leading zeros */
	const uint64_t *program_ids;	/* its samples' programs (known ones), ascending */
	size_t nprogram_ids;
	int has_unknown_program;	/* some samples came without a program id */
	size_t id_rows;			/* rows its id has (> 1: split by program; this one of them) */
	uint64_t n, n_used, trimmed_each_end, inputs;
	double mean_s, std_s;		/* of the used samples; std is the population one */
	double min_s, median_s, max_s;	/* of all samples */
	double ci95_low_s, ci95_high_s;	/* Student-t interval of the mean */
	uint64_t rank;			/* 1: the fastest trimmed mean */
	int tied_with_fastest;		/* 1 tied (the fastest itself too), 0 slower, -1 untested */
	double p_vs_fastest;		/* Welch's p; -1 when untested; 0 below the smallest double */
	double log10_p_vs_fastest;	/* exact where p is not; -inf for p exactly 0 */
};

struct xps_autotune {
	const struct xps_autotune_candidate *rows;	/* by id (numeric order), programs ascending */
	size_t nrows;
	const char *fastest;		/* the single fastest id, or NULL, and then: */
	const char *no_fastest_because;	/* "no candidate", "tied", "untested", "several programs" */
	const char *rival;		/* the id tied with the fastest or untested, or NULL */
	uint64_t inputs;		/* traces added (copies left out not counted) */
	uint64_t inputs_without;	/* traces with no candidate */
	uint64_t copies;		/* traces left out as copies of a run (keep_duplicates 0) */
	uint64_t dropped_short_events;	/* by min_duration_ps */
	int samples_are_runs;		/* the samples are run means (else executions) */
	uint64_t runs;			/* the runs holding a candidate (run_by groups the traces) */
	const char *const *warnings;	/* what the command warns of for these traces (see Warnings) */
	size_t nwarnings;
};

/*
 * Candidates over the executions of ntraces traces, in the order given.
 * opts may be NULL. *out: the result, or NULL on error.
 */
XPS_API int xps_autotune_compute(xps_trace *const *traces, size_t ntraces,
				 const struct xps_autotune_opts *opts, struct xps_autotune **out,
				 char *errbuf, size_t errlen);
XPS_API void xps_autotune_free(struct xps_autotune *a);

/* ------------------------------------------------------------------------ */
/*
 * Kernels: the GPU kernels on the "Stream #" lines of GPU device planes,
 * pooled over traces and devices, a row per kernel name; copies and
 * memsets per kind. Times are nanoseconds, as `xplane-stat kernels --json`
 * gives them.
 */

struct xps_kernels_opts {
	const char *device;		/* as in xps_functions_opts; NULL: every GPU plane */
};

struct xps_kernel {
	const char *name;
	int tensor_core;		/* its name says tensor (matrix) cores (xplane-stat(1), kernels) */
	uint64_t instances;
	double total_ns, mean_ns, median_ns, min_ns, max_ns, std_ns;	/* std: the population one */
	double p90_ns, p99_ns;		/* nearest rank */
	double share;			/* of all kernel time */
};

struct xps_copy_kind {
	const char *kind;		/* "H2D", "D2H", "D2D", "P2P", "copy", "memset" */
	uint64_t count;
	double total_ns, mean_ns;
	uint64_t bytes;			/* of those that say, saturating */
	int bytes_saturated;
	uint64_t without_bytes;		/* count that gave no byte count */
	double gb_per_s;		/* bytes over their time; NAN when none gave bytes */
};

struct xps_kernels {
	const struct xps_kernel *rows;	/* by total, largest first */
	size_t nrows;
	const struct xps_copy_kind *copies;
	size_t ncopies;
	uint64_t inputs, devices, stream_lines, kernel_instances;
	double kernel_total_ns;		/* the sum of kernel durations */
	double kernel_busy_ns;		/* per device the union of its kernels, summed */
	double tensor_core_ns;		/* of rows on tensor cores */
	uint64_t copy_events, stray_end_events, zero_duration_kernels;
	uint64_t kernel_details_missing, kernel_details_unparsable, kernel_details_implausible;
	uint64_t kernel_details_partial;	/* read in part: a key not known, a bad value, grid or block missing */
	const char *const *warnings;	/* what the command warns of for these traces (see Warnings) */
	size_t nwarnings;
};

/* Kernels of ntraces traces. opts may be NULL. *out: the result, or NULL on error. */
XPS_API int xps_kernels_compute(xps_trace *const *traces, size_t ntraces, const struct xps_kernels_opts *opts,
				struct xps_kernels **out, char *errbuf, size_t errlen);
XPS_API void xps_kernels_free(struct xps_kernels *k);

/* ------------------------------------------------------------------------ */
/*
 * HLO ops: TPU "XLA Ops" (and "Async XLA Ops") events and GPU kernels by
 * their hlo_op, a row per op (name, module and program), with self time,
 * flops, bytes and what bounds it against the device's peaks, as
 * `xplane-stat ops --json` gives them (its field names; times in
 * nanoseconds, rates per second; a value not known is NAN, or a has_ flag 0).
 */

enum {
	XPS_OPS_SORT_TIME = 0,	/* total time, largest first (the command's default) */
	XPS_OPS_SORT_SELF = 1,
	XPS_OPS_SORT_FLOPS = 2,
	XPS_OPS_SORT_BYTES = 3,
};

struct xps_ops_opts {
	const char *device;		/* as in xps_functions_opts; NULL: every device plane */
	int by_category;		/* also a row per category (categories below) */
	int sort;			/* XPS_OPS_SORT_* */
	/*
	 * Look each op up in the HLO its trace carries (the compiled program
	 * JAX writes for each module), as `ops --by scope` and `--by source`:
	 * by_scope, the tree of name scopes (scopes below); by_source, a row
	 * per source line (sources). Either fills hlo.
	 */
	int by_scope, by_source;
	/*
	 * A row per framework op and per its type (frameworks,
	 * framework_types), as `ops --by framework` and XProf's framework op
	 * stats: an XLA op by its instruction's op_name and op_type (JAX
	 * writes no op_type: the op name's last frame), a TensorFlow GPU
	 * kernel without an hlo_op by its tf_op or annotation stat
	 * ("name:Type"). Fills hlo.
	 */
	int by_framework;
};

/*
 * A name scope (the framework op name XLA keeps on each op's instruction,
 * split at '/'), in pre-order: each scope followed by its children, the
 * larger total first. Ops count by their self time (Async XLA Ops left
 * out); ops without a scope count under the roots "(no op name)", "(not in
 * HLO)" and "(no HLO)".
 */
struct xps_ops_scope {
	const char *scope;		/* its path: "jit(train)/layer_0/dense" */
	const char *name;		/* its last frame */
	uint64_t depth;			/* 0 for a root */
	double total_ns, self_ns;	/* self: ops whose scope ends here */
	double share;			/* total over the roots' totals */
	uint64_t occurrences;
	const char *top_op;		/* the op of most self time under it, its module and program */
	const char *top_op_module;	/* NULL: none */
	uint64_t top_op_program_id;
	int has_top_op_program_id;
};

/*
 * Where the ops were found in the HLO (by_scope, by_source or by_framework):
 * every op in one of found, not_in_hlo, without_hlo; TensorFlow ops apart.
 */
struct xps_ops_hlo {
	uint64_t ops, found, found_without_op_name, not_in_hlo, without_hlo;
	uint64_t modules, modules_not_decoded, inputs_without_hlo;
	uint64_t tensorflow_ops;	/* by_framework: TensorFlow ops' rows, not looked up (not in ops) */
};

struct xps_op {
	const char *name;
	const char *line;		/* "XLA Ops", "Async XLA Ops" or "GPU kernels" */
	int async;
	const char *category;		/* NULL: none */
	const char *hlo, *module;	/* NULL: none (and in category rows) */
	uint64_t program_id;
	int has_program_id;
	uint64_t occurrences;
	double total_ns, self_ns, mean_ns;	/* self: less the ops nested inside it on its line */
	double share;			/* its self time over its line kind's self time */
	/* summed over its occurrences; known (has_ 1) only where every occurrence carried one */
	uint64_t flops, model_flops, bytes_accessed;
	int has_flops, has_model_flops, has_bytes_accessed;
	double flops_per_s, bytes_per_s, intensity;	/* NAN: not known */
	const char *bound_by;		/* "compute", "memory", or NULL */
	/*
	 * GPU rows: its calls, when every kernel carries a scope_range_id (XLA
	 * gives each execution of an op's thunk one; a call's kernels share
	 * it): occurrences / calls kernels per call. has_calls 0: not known.
	 */
	uint64_t calls;
	int has_calls;
	/*
	 * How the calls were counted: "scope_range_id", "host" (kernels without
	 * one, each found in the host event of the op's execution that launched
	 * it: ROCm), or NULL (not known).
	 */
	const char *calls_from;
	double call_mean_ns;		/* total_ns over calls; NAN where the calls are unknown */
	/*
	 * Where flops and bytes_accessed come from: "trace" (its events'
	 * stats, as TPUs write them), "hlo" (GPU rows, which carry none: the
	 * cost its instruction's shapes give per call, times its calls; see
	 * xps_ops_gpu_cost), or NULL (neither).
	 */
	const char *cost_from;
};

/*
 * GPU rows (after pooling) by how their FLOPs and bytes were looked up in
 * the HLO their trace carries: costed ("hlo"; of them without_flops
 * with bytes but no FLOPs), calls not known (kernels
 * without a scope_range_id: nothing to multiply the cost per call by), not
 * in their module's HLO (or no HLO), or an instruction the cost model does
 * not know. not_known: the first 8 things it did not know (an opcode, a
 * custom-call target), also of rows costed with bytes but no FLOPs.
 */
struct xps_ops_gpu_cost {
	uint64_t ops_from_hlo, without_flops, calls_unknown, not_in_hlo, cost_unknown;
	const char *const *not_known;
	size_t nnot_known;
};

struct xps_ops_line {
	const char *line;
	uint64_t events, ops_count;	/* its op events, and the rows they make */
	double total_ns, self_ns;
};

struct xps_ops_device {
	const char *name;		/* "host:plane", or the plane's name when the file names no host */
	const char *chip;		/* NULL: not stated */
	/*
	 * Where its peaks come from: "plane" (its stats, TPU), "table" (the
	 * chip table), "derived" (GPU: cores x clock x its architecture's
	 * dense bf16 FLOPs per cycle; the plane's memory bandwidth) or "none".
	 */
	const char *peak_source;
	double peak_flops_per_s, peak_bytes_per_s;	/* NAN: not known */
	uint64_t op_events;
	uint64_t stray_end_events;	/* events ending past a later one's end on their line: left out */
	uint64_t partial_overlaps;	/* ops partly overlapping another of their line (not nested) */
	uint64_t odd_values;		/* flops, model_flops or bytes_accessed negative or not integers: left out */
	uint64_t kernels_without_hlo_op;	/* GPU kernels with no hlo_op stat (by_framework: nor a TensorFlow op): left out */
};

struct xps_ops {
	const struct xps_op *rows;	/* grouped by line (XLA Ops, Async XLA Ops, GPU kernels), sorted in each */
	size_t nrows;
	const struct xps_op *categories;	/* with by_category; else none */
	size_t ncategories;
	const struct xps_ops_line *lines;	/* the line kinds with events */
	size_t nlines;
	const struct xps_ops_device *devices;
	size_t ndevices;
	uint64_t inputs, stray_end_events, partial_overlaps, odd_values;	/* the last three summed over devices */
	uint64_t overflowed_sums;	/* row sums (flops, bytes, time) that passed their limit: not known */
	uint64_t partial_sums;		/* row sums some occurrences lacked a value for: not known */
	uint64_t kernels_without_hlo_op;	/* summed over devices */
	uint64_t calls_from_host;	/* rows whose calls were counted from the host (calls_from "host") */
	/*
	 * occurrences that aggregated events stood for (events written with
	 * num_occurrences, a count and a total time and no start, as XProf's
	 * aggregated planes hold them) on TPU ops lines: in their rows, with
	 * the self_duration_ps they carry as self time (else their total),
	 * of no program
	 */
	uint64_t aggregated_occurrences;
	/* with by_scope: the scope tree, and its total (the roots' totals) */
	const struct xps_ops_scope *scopes;
	size_t nscopes;
	double scopes_self_ns;
	/* with by_source: a row per source line ("file:line", or "(no source line)") and line kind, as categories */
	const struct xps_op *sources;
	size_t nsources;
	/*
	 * with by_framework: a row per framework op (name; category its type,
	 * NULL: none) and line kind, and a row per type (name the type, "-"
	 * for none), as categories
	 */
	const struct xps_op *frameworks;
	size_t nframeworks;
	const struct xps_op *framework_types;
	size_t nframework_types;
	int has_hlo;			/* by_scope, by_source or by_framework: hlo below is filled */
	struct xps_ops_hlo hlo;
	struct xps_ops_gpu_cost gpu_cost;
	const char *const *warnings;	/* what the command warns of for these traces (see Warnings) */
	size_t nwarnings;
};

/* Ops of ntraces traces. opts may be NULL. *out: the result, or NULL on error. */
XPS_API int xps_ops_compute(xps_trace *const *traces, size_t ntraces, const struct xps_ops_opts *opts,
			    struct xps_ops **out, char *errbuf, size_t errlen);
XPS_API void xps_ops_free(struct xps_ops *o);

/* ------------------------------------------------------------------------ */
/*
 * Memory: per memory (allocator by name, or a TPU's by index_on_host) of
 * each trace, from the host planes' allocation events, as `xplane-stat
 * memory --json` gives it (its field names; bytes, times in ns from the
 * host plane's start; a value not known has its has_ flag 0, or is NAN).
 */

struct xps_memory_opts {
	const char *memory;		/* only memories whose id contains it, any case; NULL: all */
};

struct xps_memory_row {
	const char *input;		/* the trace's path, as opened */
	const char *memory_id;
	const char *id_from;		/* "allocator_name" or "index_on_host" */
	uint64_t capacity_bytes;	/* the largest in use + available seen */
	int has_capacity, capacity_varies;	/* varies: events gave other capacities */
	int has_peak;			/* the five below are known */
	uint64_t peak_bytes_in_use;	/* allocated + reserved, the most after an event */
	double peak_time_ns;
	uint64_t peak_bytes_allocated, peak_bytes_reserved, last_bytes_in_use;
	double fragmentation_at_peak;	/* NAN: not known */
	uint64_t lifetime_peak_bytes;	/* the allocator's own peak_bytes_in_use stat, the largest seen */
	int has_lifetime_peak;
	uint64_t allocations, deallocations;
	uint64_t events_without_state;	/* events without bytes_allocated: in neither peak nor counts of bytes */
	uint64_t largest_allocation_bytes;
	double first_event_ns, last_event_ns;
	uint64_t live_at_peak, live_at_peak_bytes, allocated_before_profile_bytes;
	uint64_t frees_of_unseen_allocations, addresses_reused_while_live;
};

struct xps_memory {
	const struct xps_memory_row *rows;	/* per trace in the order given, then by peak, largest first */
	size_t nrows;
	uint64_t events;		/* memory events seen (of the memories selected) */
	const char *const *warnings;	/* what the command warns of for these traces (see Warnings) */
	size_t nwarnings;
};

/* Memories of ntraces traces. opts may be NULL. *out: the result, or NULL on error. */
XPS_API int xps_memory_compute(xps_trace *const *traces, size_t ntraces, const struct xps_memory_opts *opts,
			       struct xps_memory **out, char *errbuf, size_t errlen);
XPS_API void xps_memory_free(struct xps_memory *m);

/* ------------------------------------------------------------------------ */
/*
 * Diff: what changed between two sets of runs (base and current), as
 * `xplane-stat diff --json` gives it (its field names; times in ns): per
 * row (a function and program, or an autotune candidate) each side's
 * samples and statistics, the change of the mean (current / base) with a
 * 95% interval, a Mann-Whitney U p-value (Holm-corrected over the rows
 * tested unless no_correction), Welch's p beside it, and a verdict:
 * "new" (no base samples: every row when nbase is 0), "gone" (no current
 * ones), "too few samples" (even complete separation could not reach
 * alpha: more runs decide it; a gate treats such rows as undecided, the
 * command's exit 10), "slower" or "faster" (p < alpha and a change of at
 * least min_effect_pct), else "same". Each trace is a run, but the traces
 * of one session's hosts (run_by) are one (runs counts them, profiles the
 * traces); a run given twice on a side (the same executions) counts once
 * unless keep_duplicates. Samples are the executions when each side is one
 * run, else each run's mean. The kernels and ops levels are the command's
 * (they read summaries too). A zeroed xps_diff_opts is the command's
 * defaults.
 */
enum xps_diff_level {
	XPS_DIFF_FUNCTIONS = 0,	/* rows: functions and programs */
	XPS_DIFF_AUTOTUNE = 1,	/* rows: autotune candidates (id_regex's group 1) */
};

struct xps_diff_opts {
	int level;			/* an xps_diff_level */
	const char *device;		/* as in xps_functions_opts */
	const char *match;		/* functions level: names matching (extended regex); NULL: all */
	const char *id_regex;		/* autotune level; NULL: the command's default */
	int time;			/* XPS_TIME_*, with children and min_duration_ps as in xps_functions_opts */
	const char *children;
	int64_t min_duration_ps;
	double alpha;			/* significance level, 1e-12 to 0.5; 0: 0.05 */
	int min_effect_given;		/* 0: min_effect_pct is the default, 1 */
	double min_effect_pct;		/* a smaller change of the mean is same, however significant (0 to 1e6) */
	int no_correction;		/* p-values as they are, not Holm-corrected */
	/*
	 * Gates (0 to 1e9 percent): a row is marked when its verdict is slower
	 * (its Holm-adjusted p below alpha) and its mean grew by more than
	 * gate_pct percent; or, with gate_p95, when its 95th percentile grew by
	 * more than gate_p95_pct percent and its mean did not get faster.
	 */
	int gate;
	double gate_pct;
	int gate_p95;
	double gate_p95_pct;
	int keep_duplicates;		/* count every copy of a run */
	int run_by;			/* an XPS_RUN_BY_* */
};

/* One side of a row: its samples and their statistics (NaN without samples). */
struct xps_diff_side {
	uint64_t n;			/* samples: executions, or run means */
	uint64_t runs;			/* runs of the side that have the row */
	double mean_ns, median_ns, min_ns, max_ns, p95_ns, std_ns;
};

struct xps_diff_row {
	const char *key;		/* "name(program)" or the candidate id */
	const char *name;		/* the function's name (autotune: the id) */
	uint64_t program_id;		/* when has_program_id */
	int has_program_id;
	const char *verdict;		/* "same", "faster", "slower", "new", "gone", "too few samples" */
	int approximate;		/* samples from a summary's sketch (the command's kernels level): 0 here */
	/* NaN where none: new and gone rows, a side of fewer than 2 samples */
	double change, change_ci95_lo, change_ci95_hi;
	double p_value;			/* the U test's */
	int p_exact;			/* p_value from the exact distribution */
	double p_adjusted;		/* p_value after the correction (Holm's, unless no_correction) */
	double p_welch;			/* Welch's t test, beside it */
	double p95_change;		/* current 95th percentile / base's */
	struct xps_diff_side base, current;
	double delta_ns;		/* current mean - base mean */
	int gated;			/* 1: slower beyond gate_pct, 2: p95 beyond gate_p95_pct, 3: both */
};

struct xps_diff {
	const char *level;		/* "functions" or "autotune" */
	double alpha, min_effect_pct;
	const char *correction;		/* "holm" or "none" */
	uint64_t rows_tested;		/* rows with a test: not new, gone or too few samples */
	uint64_t runs[2], profiles[2];	/* per side: 0 base, 1 current */
	const char *samples;		/* "executions" (one run a side) or "run means" */
	const struct xps_diff_row *rows;	/* by the change's size, largest first */
	size_t nrows;
	uint64_t gated;			/* rows the gates marked */
	uint64_t copies;		/* runs given again on their side, counted once */
	const char *const *warnings;	/* see Warnings */
	size_t nwarnings;
};

/*
 * Compares nbase traces with ncurrent. opts may be NULL. No row on either
 * side is a result with no rows. *out: the result, or NULL on error.
 */
XPS_API int xps_diff_compute(xps_trace *const *base, size_t nbase, xps_trace *const *current, size_t ncurrent,
			     const struct xps_diff_opts *opts, struct xps_diff **out, char *errbuf, size_t errlen);
XPS_API void xps_diff_free(struct xps_diff *d);

/* ------------------------------------------------------------------------ */
/*
 * Summaries: one line of a trace as `xplane-stat summarize` writes it (JSON
 * ending in a newline), which functions, autotune, kernels, ops, diff,
 * merge and history read in place of the trace: its provenance (the path
 * as opened; the size and crc32 of the file as stored, read from the path
 * when the line is made, 0 for standard input; hostnames; planes), the
 * options, the reader's warnings, its executions, and its kernels and ops.
 * The file must be the one opened, unchanged (same file, size and
 * modification time), else XPS_EIO. Equal to the command's line byte for
 * byte, but where the reader finds the file odd (events naming metadata it
 * lacks, aggregated events, planes it cannot decode) in device planes that
 * device leaves out, or elsewhere when the command reads the kernels and
 * ops again: xps_trace_open decodes every device plane, the command only
 * those it needs. Writing lines into a file (whole, or appended as
 * summarize --append does) is the caller's.
 */
struct xps_summary_opts {
	const char *device;		/* as in xps_functions_opts */
	const char *children;		/* as in xps_functions_opts: each execution's children time kept too */
	int64_t min_duration_ps;
	const char *const *tags;	/* free "KEY=VALUE" tags (no ','), as summarize --tag */
	size_t ntags;
};

/*
 * The summary line of t. opts may be NULL. *line: the line, a C string
 * (NUL-terminated) of *len bytes, its final newline counted (len may be
 * NULL), freed with xps_summary_line_free; NULL on error.
 */
XPS_API int xps_summary_line(xps_trace *t, const struct xps_summary_opts *opts, char **line, size_t *len,
			     char *errbuf, size_t errlen);
XPS_API void xps_summary_line_free(char *line);

/* ------------------------------------------------------------------------ */
/*
 * Compile time: per jitted function of each trace, from the host planes'
 * PjitFunction calls and the compiler's events (trace, lower, compile), as
 * `xplane-stat compile --json` gives them (its field names; times in ns,
 * starts from the trace's host plane's start). Every program of a function
 * compiles on its first call, so a function's calls are split by the
 * program each ran, named by the launches or enqueues inside the call
 * (through the device events they started): a row per function and
 * program, the calls whose program is unknown in a row of their own.
 */

struct xps_compile_opts {
	const char *function;		/* only functions whose name contains it, any case; NULL: all */
};

struct xps_compile_event {
	const char *input;		/* the trace's path, as opened */
	const char *name;
	const char *phase;		/* "trace", "lower" or "compile" */
	uint64_t call;			/* 1-based call of its function; 0: unattributed */
	const char *where;		/* "inside" its call's line, "beside" it on another, "unattributed" */
	double start_ns, duration_ns;
	int nested_in_same_phase;	/* inside another event of its phase and call: not counted again */
	uint64_t inner_events;		/* compile events: the unnamed events (passes) nested in it */
	double inner_ns;		/* the time of those that are its direct children */
};

struct xps_compile_function {
	const char *input, *name;
	uint64_t program_id;		/* when has_program_id */
	int has_program_id;		/* 0: calls that name no single program of the function */
	uint64_t calls;
	double first_call_ns, first_call_start_ns;
	int has_later;			/* two calls or more: the next two are known */
	double later_median_ns, overhead_ns;	/* first call less the later ones' median */
	double trace_ns, lower_ns, compile_ns;
	uint64_t compiling_calls;
	const struct xps_compile_event *events;	/* its compiler events, by start */
	size_t nevents;
};

struct xps_compile {
	const struct xps_compile_function *functions;	/* per trace in the order given, most compile time first */
	size_t nfunctions;
	const struct xps_compile_event *unattributed;	/* compiler events in no call */
	size_t nunattributed;
	uint64_t call_events;		/* PjitFunction events (JAX writes two nested ones per call) */
	uint64_t calls, compiler_events, unattributed_events;
	uint64_t calls_with_program;	/* calls whose program is known */
	uint64_t calls_ambiguous;	/* calls naming several programs of their function (in unknown rows) */
	uint64_t calls_unsearched;	/* calls not searched for their program: a search limit (unknown rows) */
	double trace_ns, lower_ns, compile_ns;	/* per phase, the union of its events per host line */
	double compiler_ns;		/* the union of every compiler event per host line */
	double host_span_ns;		/* per trace its host plane's first event start to last end, summed */
	double unattributed_ns;
	uint64_t unselected;		/* functions opts.function left out */
	const char *const *warnings;	/* what the command warns of for these traces (see Warnings) */
	size_t nwarnings;
};

/* Compile time of ntraces traces. opts may be NULL. *out: the result, or NULL on error. */
XPS_API int xps_compile_compute(xps_trace *const *traces, size_t ntraces, const struct xps_compile_opts *opts,
				struct xps_compile **out, char *errbuf, size_t errlen);
XPS_API void xps_compile_free(struct xps_compile *c);

/* ------------------------------------------------------------------------ */
/*
 * Overview: per device (a host's plane, pooled over the traces by host and
 * plane: span, busy and its parts are the mean over the pooled planes, one
 * trace's times; events and the counts are sums) its span, busy and idle time, duty cycle, busy
 * split into compute, collectives and memory copies, step times and on GPU
 * the launch latency, as `xplane-stat overview --json` gives them (its field
 * names; times in ns).
 */

struct xps_overview_opts {
	const char *device;		/* as in xps_functions_opts; NULL: every device plane */
	int stragglers;			/* also which device the others wait for (xps_overview.stragglers) */
	int run_by;			/* stragglers: how traces form runs of hosts, an XPS_RUN_BY_* */
	int steps;			/* also each device's steps (xps_overview.steps), as `overview --steps` */
};

/*
 * A step of a device: an event of its plane's "Steps" line, and the
 * device's work within it (busy = compute + collective_exposed +
 * memcpy_exposed; duration = busy + host_wait + idle); on TPU the FLOPs of its
 * leaf ops (those with no op nested in them) that start in it.
 */
struct xps_overview_step {
	const char *device;		/* as xps_overview_device.name */
	const char *input;		/* the trace's path */
	const char *name;		/* the step event's name */
	uint64_t index;			/* its place on its line, from 0 */
	double start_ns;		/* from the first event of the device's span in its trace */
	double duration_ns, busy_ns, compute_ns, collective_exposed_ns, memcpy_exposed_ns;
	double host_wait_ns;		/* idle while the host is inside a step (its step_num markers) */
	double idle_ns;			/* the rest: duration less busy and host wait */
	uint64_t flops;
	int has_flops;			/* TPU, with some leaf op carrying flops: flops and the rates below known */
	double flops_per_s, flops_utilization;	/* NAN: not known */
	double flops_of;		/* the share of its leaf ops' time whose flops are counted; NAN: none */
};

/*
 * A step lined up across the devices of a trace (XProf's step sequence: a
 * step, by name, that every device of the trace with steps ran).
 */
struct xps_overview_aligned_step {
	const char *input;		/* the trace's path */
	const char *name;
	uint64_t devices;
	double max_ns, min_ns;		/* the slowest device's step time (the step's time) and the fastest's */
	const char *slowest_device;
};

/* A distribution of times; count 0: none (the others 0). */
struct xps_dist {
	uint64_t count;
	double mean_ns, median_ns, p99_ns, min_ns, max_ns;	/* p99: nearest rank */
};

struct xps_overview_device {
	const char *name;		/* "host:plane" where the traces name several hosts, else the plane's */
	const char *host;		/* NULL: the trace names none */
	const char *plane;
	const char *work;		/* "XLA Ops" (TPU) or "streams" */
	uint64_t planes, events;	/* traces' planes pooled into it; its device events */
	double span_ns, busy_ns, idle_ns, duty_cycle;
	/* busy = compute + collective exposed + memcpy exposed; exposed: overlapped by no other work */
	double compute_ns, collective_ns, collective_exposed_ns, memcpy_ns, memcpy_exposed_ns;
	uint64_t collective_events, memcpy_events, stray_end_events;
	struct xps_dist steps;
	/*
	 * Utilisation: the FLOPs of its work (TPU: its XLA ops with no op
	 * nested in them, by their flops stats; GPU: its ops costed from their
	 * HLO, as xps_op.cost_from "hlo") and model FLOPs, known (has_) where
	 * some work's are counted; the work's time and of it the time whose
	 * FLOPs (model FLOPs) are counted; achieved FLOP/s (FLOPs over the
	 * span), the device's peak and where it came from (as
	 * xps_ops_device.peak_source), and FLOPs and model FLOPs over span x
	 * peak. NAN: not known.
	 */
	uint64_t flops, model_flops;
	int has_flops, has_model_flops;
	double work_ns, flops_work_ns, model_flops_work_ns, flops_per_s;
	const char *peak_source;
	double peak_flops_per_s, flops_utilization, model_flops_utilization;
	/* GPU: its kernels' time (its work but copies) and of it the time of kernels on tensor cores (by name) */
	double kernel_ns, tensor_core_ns;
	/*
	 * Launch latency, on a GPU whose kernels carry correlation ids
	 * (has_launch_latency): a kernel's start less its host launch's. Of
	 * the events with an id: no_launch (no host launch has it), ambiguous
	 * (several, none nearest by far: left out), off_scale (planes based too
	 * far apart). Each latency split in two: queue_wait, waiting behind
	 * earlier work on its stream (queued: those that did), and overhead,
	 * the rest (the launch call, the driver, the dispatch).
	 */
	int has_launch_latency;
	uint64_t events_with_correlation_id, no_launch, ambiguous, off_scale, queued;
	struct xps_dist latency, queue_wait, overhead;
};

/*
 * Stragglers, as `overview --stragglers --json` gives them: a group is the
 * k-th execution of a function on every device of one trace that ran it
 * (a function its devices ran unequally often is left out); per device how
 * often it ended last, and the means per group of how late it ended after
 * the group's first end, how long it waited for the last, and how much
 * longer it ran than the shortest (NaN without groups). Hosts of a run of
 * several (grouped as run_by says) are compared by durations alone.
 */
struct xps_straggler_device {
	const char *name, *host, *plane;	/* host: NULL where the trace names none */
	uint64_t groups, last;
	double late_mean_ns, waited_mean_ns, slow_mean_ns;
};

struct xps_straggler_host {
	const char *name;
	uint64_t groups, slowest;	/* slowest: how often its time was the group's longest */
	double slow_mean_ns;		/* its time over the group's shortest, a mean per group */
};

struct xps_stragglers {
	uint64_t groups, unmatched_functions;
	const struct xps_straggler_device *devices;	/* by late, largest first */
	size_t ndevices;
	uint64_t host_groups, host_runs, host_unmatched_functions;
	const struct xps_straggler_host *hosts;	/* by slow per group, largest first */
	size_t nhosts;
	const char *slowest_host;	/* the slowest in more than half of its groups; NULL: none */
};

struct xps_overview {
	const struct xps_overview_device *devices;	/* by name, numbers as numbers (GPU:2 before GPU:10) */
	size_t ndevices;
	struct xps_dist host_steps;	/* the host's step markers, where some device work overlaps them */
	struct xps_dist host_only_steps;	/* the host's step markers no device work overlaps (kept apart, as XProf) */
	uint64_t host_only_traces;	/* traces of the host alone (no device plane with events): their steps stand alone */
	const struct xps_stragglers *stragglers;	/* with opts->stragglers, else NULL */
	const struct xps_overview_step *steps;	/* with opts->steps: by device (in devices' order), trace and time */
	size_t nsteps;
	/* with opts->steps: the steps lined up across devices, by trace and time; the device steps left out */
	const struct xps_overview_aligned_step *aligned_steps;
	size_t naligned_steps;
	uint64_t steps_unaligned;
	const char *const *warnings;	/* what the command warns of for these traces (see Warnings) */
	size_t nwarnings;
};

/* The overview of ntraces traces. opts may be NULL. *out: the result, or NULL on error. */
XPS_API int xps_overview_compute(xps_trace *const *traces, size_t ntraces, const struct xps_overview_opts *opts,
				 struct xps_overview **out, char *errbuf, size_t errlen);
XPS_API void xps_overview_free(struct xps_overview *o);

#ifdef __cplusplus
}
#endif

#endif
