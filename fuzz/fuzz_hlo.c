/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The HLO decoder: bytes as a module's "Hlo Proto" stat. Either refused
 * with a message (XP_ERR_FORMAT) or a module whose every reference is in
 * range: operands and called computations index what exists, computations
 * cover the instructions in order, names look up to themselves, shapes end
 * within the depth limit; then every instruction (and fusion body) is
 * written as HLO text and JSON, which must not fail.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_cost.h"
#include "an_hlo.h"
#include "out_hlo.h"
#include "xp_hlo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void check_shape(const struct xp_hlo_shape *s, int depth)
{
	uint32_t i;

	if (depth > XP_HLO_MAX_DEPTH + 1 || (s->ndims && !s->dims) || (s->ntuple && !s->tuple))
		abort();
	for (i = 0; i < s->ntuple; i++)
		check_shape(&s->tuple[i], depth + 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	struct xp_hlo_module *m = NULL;
	struct xp_err err = {0};
	struct an_hlo_entry e;
	struct out_hlo_found *found;
	size_t i, k, covered = 0;
	FILE *f;
	int r = xp_hlo_decode(data, len, &m, &err);

	if (r) {
		if ((r != XP_ERR_FORMAT && r != XP_ERR_NOMEM) || !err.msg[0] || m)
			abort();
		return 0;
	}
	if (!m || !m->name || !m->entry_name || m->entry > m->ncomps)
		abort();
	for (i = 0; i < m->ncomps; i++) {
		const struct xp_hlo_comp *c = &m->comps[i];

		if (c->first != covered || c->first + c->n > m->ninstrs || !c->name)
			abort();
		covered += c->n;
	}
	if (covered != m->ninstrs)
		abort();
	for (i = 0; i < m->ninstrs; i++) {
		const struct xp_hlo_instr *ins = &m->instrs[i];
		const struct xp_hlo_instr *named = xp_hlo_instr_named(m, ins->name);

		if (ins->comp >= m->ncomps || i < m->comps[ins->comp].first ||
		    i >= m->comps[ins->comp].first + m->comps[ins->comp].n)
			abort();
		if (!named || strcmp(named->name, ins->name) || named > ins)
			abort();	/* the first of equal names */
		for (k = 0; k < ins->noperands; k++)
			if (ins->operands[k] >= m->ninstrs)
				abort();
		for (k = 0; k < ins->ncalled; k++)
			if (ins->called[k] >= m->ncomps)
				abort();
		if (!ins->opcode || !ins->op_name || !ins->source_file || !ins->backend_config ||
		    strlen(ins->backend_config) > ins->backend_config_len)
			abort();
		check_shape(&ins->shape, 0);
		{
			struct an_cost c;

			/* fails only out of memory; a cost it cannot give says why, exactly then */
			if (an_cost_of(m, ins, &c) ? strcmp(c.unknown, "out of memory") : !c.flops_known != !!c.unknown)
				abort();
		}
	}
	/* every instruction as text and JSON */
	memset(&e, 0, sizeof(e));
	e.name = "jit_fuzz(1)";
	e.base = "jit_fuzz";
	e.has_program_id = 1;
	e.program_id = 1;
	e.mod = m;
	e.tried = 1;
	found = calloc(m->ninstrs ? m->ninstrs : 1, sizeof(*found));
	if (!found)
		abort();
	for (i = 0; i < m->ninstrs; i++) {
		found[i].e = &e;
		found[i].ins = &m->instrs[i];
	}
	if (!(f = fopen("/dev/null", "w")))
		abort();
	if (out_hlo_instrs(f, OUT_TABLE, "fuzz", found, m->ninstrs, NULL) ||
	    out_hlo_instrs(f, OUT_JSON, "fuzz", found, m->ninstrs, NULL))
		abort();
	fclose(f);
	free(found);
	xp_hlo_free(m);
	return 0;
}
