/* SPDX-License-Identifier: Apache-2.0 */
/*
 * XLA:CPU: JAX on CPU writes no device plane. Its executable runs as
 * thunks on host threads, each a host event named after its HLO
 * instruction, with the stats hlo_op, hlo_module and program_id (older
 * runtimes: hlo_module_id) and run_id; "end: <op>" events mark their ends.
 *
 * For the analyses of device work (functions, autotune, ops, overview), a
 * trace with no device plane whose host plane holds such events gets a
 * plane of its own, AN_CPU_PLANE, laid out as a TPU's:
 *   - an "XLA Ops" line per host thread with thunks, its events the thunks
 *     (named by hlo_op, at their host times);
 *   - one "XLA Modules" line: per execution, the span from its first
 *     thunk's start to its last's end, named "<hlo_module>(<program_id>)"
 *     (the TPU way of naming a program), an execution being the thunks of
 *     one (hlo_module, program_id, run_id); without a run_id, of one
 *     executable call ("PjRtCpuExecutable::ExecuteHelper", or the older
 *     "TfrtCpuExecutable::ExecuteHelper", holding their start); without
 *     either, split where none of the module's thunks runs.
 * The ops (XLA Ops events) carry hlo_module and program_id stats: their
 * program is their own, not the time's (executions may overlap).
 * Executions, busy time (the union of the thunks over threads), ops and
 * their self time then come as on a TPU. Nothing of the file is changed:
 * the plane is added to the model only.
 */
#ifndef AN_CPU_H
#define AN_CPU_H

#include <stddef.h>

#include "an_device.h"
#include "xp_err.h"
#include "xp_model.h"

/* What an_cpu_device made: thunks taken, in executions, from host lines; 0 when none. */
struct an_cpu_made {
	size_t thunks, executions;	/* the rest the plane itself says (an_input_notes) */
};

/*
 * The host events an_cpu_device reads besides the thunks (which their keys
 * mark): an executable's calls ("PjRtCpuExecutable::ExecuteHelper", the
 * older "TfrtCpuExecutable::ExecuteHelper"), which hold the thunks of an
 * execution without a run_id. For the want_host_event of analyses that
 * read host planes whole.
 */
int an_cpu_wants_host_event(const char *name);

/* The key stats the host plane must keep for the thunks to be found (xp_read_opts.host_keys). */
#define AN_CPU_KEYS \
	(1u << XP_K_HLO_OP | 1u << XP_K_HLO_MODULE | 1u << XP_K_PROGRAM_ID | 1u << XP_K_RUN_ID)

/*
 * Whether t has no device plane and its host plane ("/host:CPU") was read
 * whole but without what an_cpu_device needs (AN_CPU_KEYS, its events):
 * the caller reads the file again, keeping AN_CPU_KEYS on host planes
 * (an analysis reading every plane at once would pay for the keys on
 * every trace otherwise).
 */
int an_cpu_needs_read(const struct xp_trace *t);
/*
 * When t has no device plane and its host plane ("/host:CPU") holds
 * XLA:CPU thunks: adds AN_CPU_PLANE to t (its last plane) and says what it
 * took in *made. A deferred host plane is viewed with every event and
 * AN_CPU_KEYS; one read already must have kept AN_CPU_KEYS (read again
 * where an_cpu_needs_read says), else nothing is made. 0 (also when there
 * is nothing to make), or an xp_errcode.
 */
int an_cpu_device(struct xp_trace *t, struct an_cpu_made *made, struct xp_err *err);

#endif
