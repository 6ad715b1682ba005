/* SPDX-License-Identifier: Apache-2.0 */
/*
 * GPU op calls seen from the host, for kernels that carry no
 * scope_range_id (the ROCm traces seen): XLA wraps each execution of an
 * op's thunk in a host event named as the op ("custom-call.1" inside
 * "jit_dot:XLA GPU module"), and the kernels it launches are launched
 * inside it. Each such event is one call.
 *
 * A kernel's launch is the host event with its correlation_id (on a
 * "/host:" plane but the metadata; one only: two make it unknown). Its
 * thunk event: of the events of the launch's plane named as the kernel's
 * op (an op whose name an_host_thunk_name refuses has none), with no
 * correlation_id, that hold the launch's whole span, the innermost, where
 * they all lie on one line. Where they lie on several (threads running
 * devices' programs at once), only those on the line the launch's line
 * pairs with count: the one line on which every launch of that line with
 * its events on one line found them. Else the kernel's call is unknown.
 * At most AN_HOSTCALL_BACK events of the op's name starting before the
 * launch are looked at, the latest first.
 */
#ifndef AN_HOSTCALL_H
#define AN_HOSTCALL_H

#include <stddef.h>
#include <stdint.h>

#include "xp_model.h"

#define AN_HOSTCALL_BACK 64
#define AN_HOSTCALL_NONE UINT64_MAX

struct an_hostcall_ref {
	uint64_t corr;		/* in: the kernel's correlation_id */
	const char *op;		/* in: its op's name (borrowed) */
	size_t row;		/* the caller's, kept */
	uint64_t thunk;		/* out: its thunk event (an id unique in the trace), or AN_HOSTCALL_NONE */
};

/*
 * Finds each ref's thunk event in t's host planes, the refs left in
 * another order. Of a deferred host plane only the events with a
 * correlation_id and those an_host_thunk_name accepts are read, into a
 * view (xp_trace_view_plane): the plane stays deferred. 0, or a negative
 * xp_errcode with err filled.
 */
int an_host_calls(struct xp_trace *t, struct an_hostcall_ref *refs, size_t n, struct xp_err *err);
/*
 * Whether a host event's name could be a thunk's (an HLO instruction's
 * name: a lowercase letter or '_', then letters, digits, '_', '-' and '.';
 * the host's own TraceMe names, CamelCase, are not), for a read that keeps
 * only some host events
 * (xp_read_opts.want_host_event) and must keep those an_host_calls needs.
 */
int an_host_thunk_name(const char *name);

#endif
