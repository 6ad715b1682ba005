/* SPDX-License-Identifier: Apache-2.0 */
/* Formatters for the kernels command: kernels (by name, configuration or function) and copies. */
#ifndef OUT_KERNELS_H
#define OUT_KERNELS_H

#include <stdio.h>

#include "an_kernels.h"
#include "out_table.h"
#include "xp_err.h"

struct out_kern_opts {
	size_t top;		/* rows (functions with --by function) shown; 0: all */
	int copies;		/* CSV/TSV and table: the copies table alone */
};

/*
 * The text table: the kernels table, the copies table and a summary line;
 * CSV/TSV: the kernels rows (or with o->copies the copies rows); JSON: all
 * of it with the warnings. Returns -1 when out of memory.
 */
int out_kernels(FILE *f, enum out_mode mode, const struct an_kern_result *r,
		const struct out_kern_opts *o, const struct xp_notes *notes, const struct out_style *st);

#endif
