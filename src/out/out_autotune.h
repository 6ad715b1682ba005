/* SPDX-License-Identifier: Apache-2.0 */
/* Formatters for autotune candidates. */
#ifndef OUT_AUTOTUNE_H
#define OUT_AUTOTUNE_H

#include <stdio.h>

#include "an_autotune.h"
#include "out_table.h"

/*
 * JSON is an object keyed by candidate id (a string), each value carrying
 * mean_s and std_s as the Python profiler returned them, plus the rest and
 * "schema_version": 1; the top level holds ids only, so a tuner can iterate it.
 */
int out_autotune(FILE *f, enum out_mode mode, const struct an_at_result *r,
		 const struct out_style *st);

/*
 * One input's candidates as one line of JSON (--per-file): {"schema_version",
 * "input", "command", "candidates": {"<id>": {... as --json ..., "samples_s":
 * [...]}}, "warnings"}; for an input that failed (r NULL), "error" and "exit_code".
 */
int out_autotune_line(FILE *f, const char *input, const struct an_at_result *r,
		      const struct xp_notes *notes, const char *error, int exit_code);

#endif
