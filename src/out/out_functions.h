/* SPDX-License-Identifier: Apache-2.0 */
/* Formatters for the per-function table. */
#ifndef OUT_FUNCTIONS_H
#define OUT_FUNCTIONS_H

#include <stdio.h>

#include "an_functions.h"
#include "out_table.h"

/* Returns -1 when out of memory. */
int out_functions(FILE *f, enum out_mode mode, const struct an_fn_result *r,
		  const struct xp_notes *notes, const struct out_style *st);

/*
 * One input's result as one line of JSON (--per-file): the fields of the JSON
 * output plus "input"; for an input that failed (r NULL), "error" and "exit_code".
 */
int out_functions_line(FILE *f, const char *input, const struct an_fn_result *r,
		       const struct xp_notes *notes, const char *error, int exit_code);

#endif
