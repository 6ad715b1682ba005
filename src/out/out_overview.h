/* SPDX-License-Identifier: Apache-2.0 */
/* Formatter of xplane-stat overview: the device timeline table, steps and launch latency. */
#ifndef OUT_OVERVIEW_H
#define OUT_OVERVIEW_H

#include <stdio.h>

#include "an_overview.h"
#include "an_straggle.h"
#include "out_table.h"
#include "xp_err.h"

/*
 * With r->stragglers, the stragglers too: a table after the devices', JSON
 * "stragglers"; CSV and TSV then hold the stragglers alone. -1: out of memory.
 */
int out_overview(FILE *f, enum out_mode mode, const struct an_ov_result *r, const struct xp_notes *notes,
		 const struct out_style *st);

#endif
