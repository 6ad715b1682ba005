/* Formatters for the per-function table. */
#ifndef OUT_FUNCTIONS_H
#define OUT_FUNCTIONS_H

#include <stdio.h>

#include "an_functions.h"
#include "out_table.h"

/* Returns -1 when out of memory. */
int out_functions(FILE *f, enum out_mode mode, const struct an_fn_result *r,
		  const struct xp_notes *notes, int colour);

#endif
