/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Compile time from the host planes: JAX's PjitFunction(<fn>) spans (one per
 * call of a jitted function; the first call includes tracing, lowering and
 * compiling) and the compiler's own events, recognised by name
 * (an_comp_phase_of):
 *   trace    trace_to_jaxpr*                      (JAX tracing)
 *   lower    lower_sharding_computation, lower_mesh_computation,
 *            lower_jaxpr_to_module, jaxpr_to_mlir_module (lowering to HLO)
 *   compile  backend_compile*, names containing "Compiler::" or ending in
 *            "::Compile" (TfrtTpuCompiler::Compile, GpuCompiler::RunBackend)
 * On one host line, events nest by time. A call is a PjitFunction event not
 * inside another of the same name (JAX writes two nested spans per call). A
 * compiler event belongs to the innermost call it lies in on its line
 * ("inside"); one on a line with no call around it belongs to the call that
 * overlaps its start on another line of the plane, when the calls doing so
 * nest (the innermost), else to none ("unattributed"). Events nested in a
 * compile event that no phase names are its inner events (XLA's pass
 * pipelines and passes where the profiler recorded them): counted at any
 * depth, with the time of its direct children.
 *
 * A function's calls are split by the program each ran (an_callprog.h),
 * since every program compiles on its first call: a row per function,
 * program and input, calls whose program is unknown in a row of their own.
 *
 * Per row: calls, the first call's duration against the
 * median of the later ones (mean of the middle two when even), their
 * difference (the compile-and-trace overhead, an estimate), the time of its
 * compiler events per phase and how many calls compiled. A function's phase
 * times count an event nested in another of the same phase and call once
 * (a call traced inside another's trace counts for both); the totals are
 * unions per line.
 *
 * Times are picoseconds from the start of the input's host plane.
 * Ownership: a result owns every string and array in it (an_comp_release).
 */
#ifndef AN_COMPILE_H
#define AN_COMPILE_H

#include <stddef.h>
#include <stdint.h>

#include "xp_arena.h"
#include "xp_err.h"
#include "xp_model.h"

enum an_comp_phase { AN_COMP_TRACE, AN_COMP_LOWER, AN_COMP_COMPILE, AN_COMP_NPHASES };

/* The phase a host event name marks; -1 for none. */
int an_comp_phase_of(const char *name);
/* "trace", "lower", "compile". */
const char *an_comp_phase_name(int phase);
/*
 * The function a call event names: the text in "PjitFunction(...)" (also
 * "PmapFunction(...)"), *len its length; NULL when name is not a call.
 */
const char *an_comp_call_fn(const char *name, size_t *len);

struct an_comp_event {
	const char *input;
	const char *fn;		/* the function of the call it belongs to; NULL: unattributed */
	const char *name;
	int phase;		/* enum an_comp_phase */
	size_t call;		/* 0-based index of that call among the function's, by start */
	int inside;		/* nested in the call on its line; 0: overlapping it from another line */
	int nested;		/* inside another event of the same phase and call: not counted again */
	uint64_t program_id;	/* the program of its call's row, where has_program */
	int has_program;
	int64_t start_ps, dur_ps;
	size_t inner;		/* compile events: the events nested in it that no phase names */
	int64_t inner_ps;	/* the total duration of those that are its direct children */
};

struct an_comp_fn {
	const char *input;
	const char *name;
	uint64_t program_id;	/* the program its calls ran, where has_program (an_callprog.h) */
	int has_program;	/* 0: calls whose program no event names (all of the name's, or the rest) */
	size_t calls;
	int64_t first_ps;	/* the first call's duration */
	int64_t first_start_ps;
	double later_median_ps;	/* of calls 2.. */
	int has_later;
	int64_t phase_ps[AN_COMP_NPHASES];
	size_t compiling_calls;	/* calls with a compile event */
	size_t first_event, nevents;	/* its events in the result's events[] */
};

struct an_comp_opts {
	const char *function;	/* only functions whose name contains it, any case; NULL: all */
};

struct an_comp_result {
	struct an_comp_opts opts;
	struct xp_arena arena;
	/* after an_comp_add: per input in the order added, by compile time, then first call */
	struct an_comp_fn *fns;
	size_t nfns, capfns;
	/* per function in fns order, by start; then each input's unattributed ones */
	struct an_comp_event *events;
	size_t nevents, capevents;
	size_t inputs, inputs_without;	/* added; with no call and no compiler event */
	size_t call_events;	/* PjitFunction events, duplicates included */
	size_t calls;
	size_t calls_program;	/* calls whose program is known */
	/* of the rows kept (opts.function): calls naming several programs of their function, and calls */
	size_t calls_ambiguous;	/* left unknown once AN_CALLPROG_BUDGET was spent */
	size_t calls_unsearched;
	size_t compiler_events;
	size_t unattributed;
	int64_t unattributed_ps;	/* of events not nested in their phase */
	int64_t phase_ps[AN_COMP_NPHASES];
	int64_t total_ps;	/* union per line of every compiler event */
	int64_t host_span_ps;	/* per input its host plane's first event start to last end, summed */
	size_t unselected;	/* rows (functions and programs) opts.function left out */
};

void an_comp_init(struct an_comp_result *r, const struct an_comp_opts *o);
/*
 * Adds the calls and compiler events of t's loaded host planes, reading its
 * device planes where the calls' programs need them (an_callprog.h: keys
 * AN_CALLPROG_KEYS kept). Returns 0 or a negative xp_errcode: XP_ERR_LIMIT
 * when two host planes' times lie too far apart for one picosecond
 * timeline, a device plane's error. Sums saturate at INT64_MAX.
 */
int an_comp_add(struct an_comp_result *r, struct xp_trace *t, const char *input, struct xp_err *err);
/* Moves src's rows, events and totals after dst's (same options); src is left empty. */
int an_comp_merge(struct an_comp_result *dst, struct an_comp_result *src, struct xp_err *err);
void an_comp_release(struct an_comp_result *r);
/*
 * Each row's function: the rows of one function name and input (one per
 * program it ran) share a number, numbered by their first row, *nfns of
 * them. Free the array; NULL when out of memory.
 */
size_t *an_comp_fn_groups(const struct an_comp_result *r, size_t *nfns);

#endif
