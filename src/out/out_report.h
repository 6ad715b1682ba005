/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The report: one self-contained HTML page (inline CSS and SVG, no script,
 * nothing fetched: a Content-Security-Policy forbids it) from the results
 * of the analyses. Every name from a trace is escaped: no name can add
 * markup, and invalid UTF-8 becomes U+FFFD.
 */
#ifndef OUT_REPORT_H
#define OUT_REPORT_H

#include <stdio.h>

#include "an_autotune.h"
#include "an_compile.h"
#include "an_diff.h"
#include "an_functions.h"
#include "an_history.h"
#include "an_kernels.h"
#include "an_memory.h"
#include "an_ops.h"
#include "an_overview.h"
#include "an_report.h"
#include "xp_err.h"

struct out_rep_input {
	const char *path;
	unsigned long long bytes;
	int has_bytes;		/* a regular file: its size is known */
};

/* What the page shows; a NULL or empty result leaves its section out (it says so). */
struct out_report {
	const char *version;
	const struct out_rep_input *inputs;
	size_t ninputs;
	const struct an_fn_result *functions;
	const struct an_ov_result *overview;	/* its stragglers too (an empty result: no section) */
	const struct an_rep_timeline *timeline;	/* of the first input */
	const char *timeline_input;
	const struct an_kern_result *kernels;
	const struct an_ops_result *ops;
	const struct an_mem_result *memory;	/* NULL or no rows: no section */
	const struct an_comp_result *compile;	/* NULL or no calls: no section */
	const struct an_at_result *autotune;
	const struct an_diff_result *diff;	/* --base: base against these inputs */
	const char *base;			/* its name */
	const struct an_hist_result *history;	/* --history FILE */
	const char *history_file;
	const struct xp_notes *notes;
	size_t top;		/* rows per table */
	const char *device;	/* --device, shown in the header; NULL: none */
};

/* Writes the page, each time in the unit that suits it; -1 when out of memory. */
int out_report(FILE *f, const struct out_report *r);

/* Writes s as HTML text (escaped, invalid UTF-8 as U+FFFD). */
void out_html_text(FILE *f, const char *s);

#endif
