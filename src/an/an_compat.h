/* SPDX-License-Identifier: Apache-2.0 */
/*
 * --compat=ejkernel: the numbers of the Python profiler this tool replaces,
 * reproduced to the letter, limits included (first matching plane only,
 * events under 1 us dropped, at most 10,000 events, one sample per key).
 */
#ifndef AN_COMPAT_H
#define AN_COMPAT_H

#include <regex.h>

#include "an_autotune.h"
#include "xp_model.h"

#define AN_COMPAT_MIN_DUR_PS 1000000
#define AN_COMPAT_MAX_EVENTS 10000

struct an_compat_opts {
	const char *device;		/* substring of the plane name, default "gpu" */
	const regex_t *children;	/* searched in the children's keys; NULL: own duration */
	const regex_t *id_re;		/* ^jit_autotune_fn_([0-9]+) */
};

/* What one file gave: for reports of the limits that bit. */
struct an_compat_file {
	const char *plane;	/* the plane used (points into the trace) */
	size_t kept;		/* events kept */
	size_t dropped_short;
	int truncated;		/* stopped at AN_COMPAT_MAX_EVENTS */
	size_t keys;		/* distinct jit_ keys timed */
};

/* Adds the samples of trace t as input number `input`; XP_ERR_USAGE if no plane matches. */
int an_compat_add(const struct xp_trace *t, const struct an_compat_opts *o, struct an_at_result *r,
		  size_t input, struct an_compat_file *info, struct xp_err *err);

#endif
