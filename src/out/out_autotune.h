/* SPDX-License-Identifier: Apache-2.0 */
/* Formatters for autotune candidates. */
#ifndef OUT_AUTOTUNE_H
#define OUT_AUTOTUNE_H

#include <stdio.h>

#include "an_autotune.h"
#include "out_table.h"

/*
 * JSON version 2 (the default): {"schema_version": 2, "command", "candidates":
 * {"<id>": {"mean_s", "std_s" (as the Python profiler returned them), the
 * rest}}, "fastest": the id or null, "no_fastest_because": null or why
 * (out_autotune_nowinner), "rival": the candidate tied with it or untested,
 * "warnings": notes}. Version 1 (json_version 1, for one release): the
 * candidates keyed by id at the top level, each with "schema_version": 1,
 * no warnings.
 */
int out_autotune(FILE *f, enum out_mode mode, const struct an_at_result *r, int json_version,
		 const struct xp_notes *notes, const struct out_style *st);
/* Why there is no single fastest, in a word or two ("tied"); NULL when there is one. */
const char *out_autotune_nowinner(enum an_at_nowinner why);

/*
 * One input's candidates as one line of JSON (--per-file): {"schema_version",
 * "input", "command", "candidates": {"<id>": {... as --json ..., "samples_s":
 * [...]}}, "warnings"}; for an input that failed (r NULL), "error" and "exit_code".
 */
int out_autotune_line(FILE *f, const char *input, const struct an_at_result *r,
		      const struct xp_notes *notes, const char *error, int exit_code);

/*
 * A row's programs into buf (n bytes), comma-separated, unknown for one
 * without an id; "..." at the end where they do not fit.
 */
void out_autotune_programs(char *buf, size_t n, const struct an_at_cand *c, const char *unknown);
/* Whether some id ran as several programs (its rows split or pooled). */
int out_autotune_several_programs(const struct an_at_result *r);

#endif
