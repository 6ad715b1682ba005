/* SPDX-License-Identifier: Apache-2.0 */
/* diff's output: a table, JSON (rows[]), CSV or TSV of an an_diff_result. */
#ifndef OUT_DIFF_H
#define OUT_DIFF_H

#include <stdio.h>

#include "an_diff.h"
#include "out_table.h"
#include "xp_err.h"

/* A side's runs for the outputs: "5 runs", or "4 runs of 8 profiles" where runs were grouped. */
void out_diff_runs(char *buf, size_t len, const struct an_diff_result *r, int side);

/* gate_pct and gate_p95_pct as asked (negative: not asked), for JSON. */
int out_diff(FILE *f, enum out_mode mode, const struct an_diff_result *r, const struct xp_notes *notes,
	     double gate_pct, double gate_p95_pct, const struct out_style *st);

#endif
