/* SPDX-License-Identifier: Apache-2.0 */
/* Formatter of xplane-stat compile: per function its calls and compile time, and the compiler events. */
#ifndef OUT_COMPILE_H
#define OUT_COMPILE_H

#include <stdio.h>

#include "an_compile.h"
#include "out_table.h"
#include "xp_err.h"

struct out_comp_opts {
	int events;		/* CSV/TSV: the events table instead of the functions */
	size_t top;		/* only the first N function rows (and their events); 0: all */
};

/* The result as tables, CSV, TSV or one JSON document; -1: out of memory. */
int out_compile(FILE *f, enum out_mode mode, const struct an_comp_result *r, const struct out_comp_opts *o,
		const struct xp_notes *notes, const struct out_style *st);

#endif
