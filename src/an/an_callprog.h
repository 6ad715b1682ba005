/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The program a host call ran (a JAX PjitFunction span: one call of a
 * jitted function, whose name alone pools every program compiled for it).
 * The host events inside the call name it, one way or another:
 *   - a launch carrying program_id (and hlo_module) itself (ROCm);
 *   - a launch carrying correlation_id, whose device event carries
 *     program_id and hlo_module (CUDA kernels, memcpys, graph launches);
 *   - an enqueue carrying run_id, whose device "XLA Modules" event (the
 *     execution: "jit_f(<program>)", program_id or the fingerprint) has it
 *     on the device its device_ordinal names ("/device:TPU:<ordinal>"), any
 *     device where it names none (TPU: run ids count per device).
 * Only programs of a module named for the function count ("jit_<fn>",
 * "pmap_<fn>" or "<fn>", characters JAX replaces in module names taken as
 * "_"): another function's work inside the call (a nested call's, another
 * thread's) does not. The events starting inside the call are asked in three
 * steps, until one names the function's program: on the call's own line
 * the launches naming their program themselves, then the launches and
 * enqueues naming it through a device event; then, on the plane's other
 * lines, the launches naming their program themselves (ROCm's launch
 * threads, which the tracer names apart from the Python line). Enqueues on
 * other threads are not asked: a worker enqueues work dispatched earlier
 * (JAX's asynchronous dispatch) while a later call runs. The device planes
 * are read only when a call comes to the second step. One program found in
 * a step: the call's; several: ambiguous (unknown); none: unknown.
 */
#ifndef AN_CALLPROG_H
#define AN_CALLPROG_H

#include <stddef.h>
#include <stdint.h>

#include "xp_err.h"
#include "xp_model.h"

/* A call: its host plane and line, its span on the caller's timeline (ps), its function's name. */
struct an_call_span {
	size_t plane;
	size_t line;
	int64_t start, end;
	const char *fn;		/* not NUL-terminated */
	size_t fnlen;
};

enum an_call_prog_state {
	AN_CALL_PROG_UNKNOWN,	/* no event inside names a program of the function */
	AN_CALL_PROG_KNOWN,
	AN_CALL_PROG_AMBIGUOUS,	/* they name several */
	AN_CALL_PROG_UNSEARCHED,	/* not looked for: AN_CALLPROG_BUDGET was spent */
};

/*
 * The most events compile lets an_call_programs look at for all calls of a
 * trace together: calls nested in calls look at the same events again, so
 * a hostile file of many nested calls over many launches would take their
 * product.
 */
#define AN_CALLPROG_BUDGET ((size_t)1 << 26)

struct an_call_prog {
	enum an_call_prog_state state;
	uint64_t program;	/* KNOWN: the program id */
};

/* The key stats the resolution reads, on host and device planes (xp_read_opts.keys, host_keys). */
#define AN_CALLPROG_KEYS                                                                          \
	(1u << XP_K_HLO_MODULE | 1u << XP_K_PROGRAM_ID | 1u << XP_K_RUN_ID | 1u << XP_K_CORRELATION_ID | \
	 1u << XP_K_DEVICE_ORDINAL)

/*
 * Resolves the program of each of calls[0..n) into out[0..n), looking at
 * budget events at most (calls left when it is spent are UNSEARCHED).
 * shift[k] is what to add to host plane k's event times to put them on the
 * calls' timeline (ignored for other planes). Device planes the reader
 * deferred are loaded when a call's events need them, hence t is not const.
 * 0, or a negative xp_errcode (a device plane that fails to load).
 */
int an_call_programs(struct xp_trace *t, const int64_t *shift, const struct an_call_span *calls, size_t n,
		     size_t budget, struct an_call_prog *out, struct xp_err *err);

/* Whether module (len bytes, fingerprint removed) is named for the function fn (fnlen bytes). */
int an_module_names_fn(const char *module, size_t len, const char *fn, size_t fnlen);

#endif
