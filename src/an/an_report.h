/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report's own analysis: per device a timeline strip of one input's
 * executions, in columns (the other sections come from the functions,
 * overview, kernels, ops and autotune analyses as they are).
 *
 * One window for every device, where their planes' bases are given: the
 * first execution's start on any device to the last one's end on any, on
 * one clock (the planes' bases apart), so that strips line up and skew
 * shows; else (or where the bases lie too far apart for int64 ps) each
 * device's own span (its first execution's start to its last one's end).
 * The window is cut into `width` columns. Each execution covers part of some columns: a
 * column's cover is the share of it that executions cover (at most 1: on
 * several streams they can overlap), and its function that of the execution
 * that covers most of it (-1: none; an instant counts, covering nothing).
 * Strips in an_name_cmp order of their devices.
 *
 * Ownership: the strips own their names; release with an_rep_timeline_release.
 */
#ifndef AN_REPORT_H
#define AN_REPORT_H

#include <stddef.h>
#include <stdint.h>

#include "an_exec.h"
#include "xp_err.h"

struct an_rep_col {
	float cover;		/* 0..1 */
	int32_t fn;		/* index into the strip's fns, -1: none */
};

struct an_rep_strip {
	char *device;		/* plane name */
	int64_t span_ps;	/* first execution start to last end */
	int64_t busy_ps;	/* the device's busy time (all its device events) */
	size_t execs;
	char **fns;		/* function names of the strip's columns */
	size_t nfns;
	struct an_rep_col *cols;	/* width of them */
};

struct an_rep_timeline {
	size_t width;
	int shared;		/* one window for all strips: lo_ps (on the earliest base's clock) and span_ps */
	int64_t lo_ps, span_ps;
	struct an_rep_strip *strips;	/* devices in the exec list's order, those with executions */
	size_t n;
};

/*
 * The strips of l's devices, width columns each; base_ns: per device of l
 * its plane's base (NULL: each strip on its own span). Returns 0 or
 * XP_ERR_NOMEM.
 */
int an_rep_timeline(const struct an_exec_list *l, const int64_t *base_ns, size_t width, struct an_rep_timeline *out,
		    struct xp_err *err);
void an_rep_timeline_release(struct an_rep_timeline *tl);

#endif
