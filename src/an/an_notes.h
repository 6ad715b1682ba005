/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Warning texts about analysis results: what a result left out or could not
 * use, as lines for xp_notes ("warnings" in JSON, stderr otherwise). Each
 * returns 0, or XP_ERR_NOMEM when a note could not be added.
 */
#ifndef AN_NOTES_H
#define AN_NOTES_H

#include <stddef.h>

#include "an_autotune.h"
#include "an_compile.h"
#include "an_events.h"
#include "an_functions.h"
#include "an_kernels.h"
#include "an_memory.h"
#include "an_ops.h"
#include "an_overview.h"
#include "xp_err.h"

/* Device plane plane of input path was followed by left_out more of its name, left out (merged dumps). */
int an_plane_again_note(struct xp_notes *n, const char *path, const char *plane, size_t left_out);
/* The pooled functions: busy times whose sum over devices and inputs was held at 2^63-1 ps. */
int an_fn_notes(const struct an_fn_result *r, struct xp_notes *n);
/* A warning per candidate id that ran as several programs (its rows split). 0 or XP_ERR_NOMEM. */
int an_at_program_notes(const struct an_at_result *r, struct xp_notes *n);
/*
 * autotune's warnings about its result: candidates of several programs,
 * inputs without candidates (not with compat), events dropped as short,
 * candidates left untested (trim: the run means trimmed). 0 or XP_ERR_NOMEM.
 */
int an_at_notes(const struct an_at_result *r, int compat, size_t trim, struct xp_notes *n);
/* The pooled kernels: unparsable or implausible launch configurations, sketched rows. */
int an_kern_notes(const struct an_kern_result *r, struct xp_notes *n);
/*
 * One input's result before merging (path names it; several: one of several
 * inputs): what it lacks or left out.
 */
int an_kern_input_notes(const struct an_kern_result *r, const char *path, int several, struct xp_notes *n);
int an_mem_input_notes(const struct an_mem_result *r, const char *path, int several, struct xp_notes *n);
int an_comp_input_notes(const struct an_comp_result *r, const char *path, int several, struct xp_notes *n);
/* Compile: functions but no compiler events in any input (several: of several), the overheads then estimates. */
int an_comp_notes(const struct an_comp_result *r, int several, struct xp_notes *n);
/*
 * events: adds one input's trace t (an_ev_add), and to n what a reader should
 * know of it (its stray ends, path naming it). 0 or an xp_errcode.
 */
/* The note on k aggregated events whose self or min duration was unreadable (xp_agg.odd), after "k ". */
const char *an_agg_odd_note(size_t k);
int an_ev_add_input(struct an_ev_result *r, const struct xp_trace *t, const struct an_ev_opts *o,
		    const char *path, struct xp_notes *n, struct xp_err *err);
/* The memories: events without bytes, frees of unseen allocations, reused addresses. */
int an_mem_notes(const struct an_mem_result *r, struct xp_notes *n);
/* The ops: stray and misnested ops, odd counters, overflowing sums, mixed peaks. */
int an_ops_notes(const struct an_ops_result *r, struct xp_notes *n);

/*
 * Overview pools devices by name: an_ov_counts keeps each device's counts of
 * odd events before an input is added (*before: 5 a device, free it), and
 * an_ov_input_notes says what that input added (stray ends, unlinked or
 * ambiguous launches, planes of one name again), naming path.
 */
int an_ov_counts(const struct an_ov_result *r, size_t **before);
int an_ov_input_notes(struct xp_notes *n, const char *path, const struct an_ov_result *r,
		      const size_t *before, size_t nbefore);
/*
 * An input that added no device but steps host_only host-only steps (a
 * host-only profile): a note that its steps stand alone (device: the
 * --device pattern, or NULL). 0 or XP_ERR_NOMEM.
 */
int an_ov_host_only_note(struct xp_notes *n, const char *path, const char *device, size_t host_only);

#endif
