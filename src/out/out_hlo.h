/* SPDX-License-Identifier: Apache-2.0 */
/* hlo: the modules a trace carries, or instructions as HLO text. */
#ifndef OUT_HLO_H
#define OUT_HLO_H

#include <stdio.h>

#include "an_hlo.h"
#include "out_table.h"

/* One instruction found by --op: where it is. */
struct out_hlo_found {
	const struct an_hlo_entry *e;
	const struct xp_hlo_instr *ins;
};

/* The modules (decoded ones counted; every module's ops as an_hlo_mark_ops counted them). -1 when out of memory. */
int out_hlo_modules(FILE *f, enum out_mode mode, const char *path, const struct an_hlo_set *s,
		    const struct xp_notes *notes, const struct out_style *st);
/* The instructions found, as HLO text (a fusion with its body); JSON: their fields too. */
int out_hlo_instrs(FILE *f, enum out_mode mode, const char *path, const struct out_hlo_found *found, size_t n,
		   const struct xp_notes *notes);
/* One instruction as a line of HLO text ("%name = f32[2,3] add(f32[2,3] %a, ...), metadata={...}"), escaped as text. */
void out_hlo_instr_line(FILE *f, const struct xp_hlo_module *m, const struct xp_hlo_instr *ins);

#endif
