/* SPDX-License-Identifier: Apache-2.0 */
/* The summary line format, write side (an_summary.h: the format, its reader, what both share). */
#ifndef OUT_SUMMARY_H
#define OUT_SUMMARY_H

#include <stddef.h>
#include <stdint.h>

#include "an_summary.h"
#include "out_bytes.h"

/*
 * Appends run's line, newline included, to b. Integers beyond 2^53 are
 * written as strings of digits, which an_summary_parse reads back exactly.
 * Returns 0, or -1 when out of memory.
 */
int out_summary_line(const struct an_run *run, struct out_bytes *b);
/*
 * Copies lines (len bytes of whole lines, each written with a history of
 * run 0) to out with their history's run number set to run: --history
 * numbers a commit's runs once it has read the file under its lock.
 * Returns 0, or -1 when a line has no history or out could not grow.
 */
int out_summary_set_run(const char *lines, size_t len, uint64_t run, struct out_bytes *out);

#endif
