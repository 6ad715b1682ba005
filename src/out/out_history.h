/* SPDX-License-Identifier: Apache-2.0 */
/* history's output: each row's trend over the recorded runs and the latest against a baseline. */
#ifndef OUT_HISTORY_H
#define OUT_HISTORY_H

#include <stdio.h>

#include "an_history.h"
#include "out_table.h"
#include "xp_err.h"

/* At most this many groups are columns of the text table (the latest ones); JSON has all. */
#define OUT_HIST_COLUMNS 8

int out_history(FILE *f, enum out_mode mode, const struct an_hist_result *r, const struct xp_notes *notes,
		const struct out_style *st);

#endif
