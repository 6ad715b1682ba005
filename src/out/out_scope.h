/* SPDX-License-Identifier: Apache-2.0 */
/* ops --by scope (the scope tree) and --folded (folded stacks for flame graph tools). */
#ifndef OUT_SCOPE_H
#define OUT_SCOPE_H

#include <stdio.h>

#include "an_ops.h"
#include "out_table.h"
#include "xp_err.h"

/* The scope tree of r (finished with opts.by_scope); top: at most this many children per node (0: all). */
int out_ops_scopes(FILE *f, enum out_mode mode, const struct an_ops_result *r, size_t top,
		   const struct xp_notes *notes, const struct out_style *st);
/*
 * Folded stacks: a line per sync or GPU op with self time, "frame;frame;op NS":
 * its scope's frames, the op's name last, its self time in nanoseconds
 * (rounded; an op of under half a nanosecond is left out). Frames are
 * escaped as tables escape text, ';' as \x3b and '\\' as \x5c.
 */
int out_ops_folded(FILE *f, const struct an_ops_result *r);
/* Where the ops were found in the HLO, in a sentence ("42 ops: 40 found in the HLO, ..."); nothing without opts.hlo. */
void out_ops_hlo_line(FILE *f, const struct an_ops_result *r);
/* The same counts as a JSON object "hlo" in doc. */
struct cJSON;
void out_ops_hlo_json(struct cJSON *doc, const struct an_ops_result *r);
/*
 * Where GPU ops' FLOPs and bytes came from, in a sentence ("GPU cost: 4 ops
 * from their HLO's shapes, ..."); nothing when no GPU op was looked up.
 */
void out_ops_cost_line(FILE *f, const struct an_ops_result *r);
/* The same counts as a JSON object "gpu_cost" in doc (always there: zeros when none). */
void out_ops_cost_json(struct cJSON *doc, const struct an_ops_result *r);

#endif
