/* SPDX-License-Identifier: Apache-2.0 */
/* The ops result as a text table, JSON, CSV or TSV. */
#ifndef OUT_OPS_H
#define OUT_OPS_H

#include <stdio.h>

#include "an_ops.h"
#include "out_table.h"
#include "xp_err.h"

/* top: at most this many rows per line kind (0: all). */
int out_ops(FILE *f, enum out_mode mode, const struct an_ops_result *r, size_t top,
	    const struct xp_notes *notes, const struct out_style *st);

#endif
