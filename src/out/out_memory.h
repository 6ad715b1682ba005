/* SPDX-License-Identifier: Apache-2.0 */
/* Formatter of xplane-stat memory: the memories, their allocations live at the peak, the timeline. */
#ifndef OUT_MEMORY_H
#define OUT_MEMORY_H

#include <stdio.h>

#include "an_memory.h"
#include "out_table.h"
#include "xp_err.h"

enum out_mem_view {
	OUT_MEM_SUMMARY,	/* a row per memory */
	OUT_MEM_PEAK,		/* CSV/TSV: the allocations live at each peak */
	OUT_MEM_TIMELINE,	/* CSV/TSV: bytes in use after each event */
};

struct out_mem_opts {
	enum out_mem_view view;	/* CSV and TSV print this table; text prints the summary and it */
	size_t top;		/* --peak in text: the largest N allocations per memory; 0: all */
};

/*
 * The result as a table, CSV, TSV or one JSON document; -1: out of memory.
 * The peak view lists allocations only of a result built with opts.peak.
 */
int out_memory(FILE *f, enum out_mode mode, const struct an_mem_result *r, const struct out_mem_opts *o,
	       const struct xp_notes *notes, const struct out_style *st);

#endif
