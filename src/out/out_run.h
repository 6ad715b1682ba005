/* SPDX-License-Identifier: Apache-2.0 */
/* Writes a run summary as one JSON line (an_run.h; SUMMARIES in xplane-stat(1)). */
#ifndef OUT_RUN_H
#define OUT_RUN_H

#include "an_run.h"
#include "out_bytes.h"

/*
 * Appends run's line, newline included, to b. Integers beyond 2^53 are
 * written as strings of digits, which an_run_parse reads back exactly.
 * Returns 0, or -1 when out of memory.
 */
int out_run_line(const struct an_run *run, struct out_bytes *b);

#endif
