/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat hlo: the compiled programs a JAX trace carries, and any instruction as HLO text. */
#include <stdlib.h>
#include <string.h>

#include "an_hlo.h"
#include "an_ops.h"
#include "cmd.h"
#include "opt.h"
#include "out_hlo.h"

struct hlo_output {
	const char *path;
	const struct an_hlo_set *s;
	const struct out_hlo_found *found;
	size_t nfound;
	const struct xp_notes *notes;
};

static int print_hlo(FILE *f, enum out_mode mode, const struct out_style *st, const void *arg)
{
	const struct hlo_output *o = arg;

	if (o->found)
		return out_hlo_instrs(f, mode, o->path, o->found, o->nfound, o->notes);
	return out_hlo_modules(f, mode, o->path, o->s, o->notes, st);
}

/* Whether e is the module --module names: "jit_dot(64)" exactly, or "jit_dot" for each of its programs. */
static int module_named(const struct an_hlo_entry *e, const char *name)
{
	return !name || !strcmp(e->name, name) || !strcmp(e->base, name);
}

/* Decodes every module (warning for each that does not decode) and finds --op in those --module names. */
static int decode_all(struct an_hlo_set *s, const char *path, const char *module, const char *op,
		      struct out_hlo_found **found, size_t *nfound, struct xp_notes *notes)
{
	size_t i, cap = 0;
	int nomem = 0;

	for (i = 0; i < s->n; i++) {
		struct an_hlo_entry *e = &s->e[i];
		const struct xp_hlo_module *m = an_hlo_module(s, e, &nomem);
		const struct xp_hlo_instr *ins;

		if (nomem)
			return -1;
		if (!m) {
			if (xp_notes_add(notes, "'%s': module '%s': its HLO is left out: %s", path, e->name, e->error))
				return -1;
			continue;
		}
		if (m->bad_refs && xp_notes_add(notes, "'%s': module '%s': %zu reference%s in its HLO (operand, "
						"computation or stack frame ids) name nothing: left out",
						path, e->name, m->bad_refs, m->bad_refs == 1 ? "" : "s"))
			return -1;
		if ((m->dup_names || m->dup_ids) &&
		    xp_notes_add(notes, "'%s': module '%s': %zu instruction name%s and %zu id%s repeated in its "
				 "HLO: the first instruction of each is the one looked up", path, e->name,
				 m->dup_names, m->dup_names == 1 ? "" : "s", m->dup_ids, m->dup_ids == 1 ? "" : "s"))
			return -1;
		if (!op || !module_named(e, module) || !(ins = an_hlo_op(m, op))) {
			an_hlo_forget(e);	/* its counts kept: a large trace's modules are not all held at once */
			continue;
		}
		if (xp_grow(found, &cap, *nfound, sizeof(**found), 4))
			return -1;
		(*found)[*nfound].e = e;
		(*found)[(*nfound)++].ins = ins;
	}
	return 0;
}

int cmd_hlo(int argc, char **argv)
{
	struct cmd_common c;
	const char *op = NULL, *module = NULL;
	const struct opt opts[] = {
		{"op", 0, OPT_STR, &op, "NAME", "print the instruction NAME (an HLO op: fusion.12, custom-call.1, "
		 "xla::op::add.1 as kernels name it) as HLO text, a fusion with its body, in every module that has it"},
		{"module", 0, OPT_STR, &module, "NAME", "with --op: only the module NAME (jit_dot for each of its "
		 "programs, or jit_dot(64) for one)"},
		CMD_OPT_DEVICE(&c, "gpu, TPU:1"),
		CMD_OPTS_INPUT(&c),
		CMD_OPTS_FORMAT_TIMELESS(&c),
		{0},
	};
	const struct opt_cmd cmd = {
		"hlo", "[OPTIONS] FILE|-",
		"The compiled programs a JAX trace carries (each module's HLO, in its /host:metadata\n"
		"plane): per module its name, program id, whether it ran (its ops on the device\n"
		"planes: how many, and how many of them name no instruction of its HLO), its\n"
		"computations, instructions and fusions. --op NAME prints an instruction as HLO\n"
		"text: shape, operands, attributes, the framework op name and source line; a\n"
		"fusion with its body.",
		opts, .min_pos = 1, .max_pos = 1, .pos_msg = "hlo takes one input",
	};
	struct an_ops_opts oo = {0};
	struct an_ops_result r;
	struct an_hlo_set s = {0};
	struct cmd_input *in = NULL;
	struct out_hlo_found *found = NULL;
	size_t nfound = 0;
	struct hlo_output ho;
	struct xp_err err = {0};
	struct xp_notes notes = {0};
	const char **pos = NULL;
	size_t npos, i;
	int ret;
	enum out_mode mode;

	cmd_common_init(&c);
	an_ops_init(&r, &oo);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	if (module && !op) {
		ret = cmd_usage_error("--module selects where --op looks: give --op NAME too");
		goto out;
	}
	if ((ret = cmd_output_setup(&c, &mode)) >= 0 || (ret = cmd_input_setup(&c)) >= 0)
		goto out;
	if (op && (mode == OUT_CSV || mode == OUT_TSV)) {
		ret = cmd_usage_error("--op prints HLO text or, with --json, JSON: not --csv or --tsv");
		goto out;
	}
	r.opts.device = c.device;
	if (!(in = cmd_input_ops(&c, pos[0], cmd_jobs(&c, SIZE_MAX), &r, 1))) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	if (in->code) {
		cmd_error("%s", in->err.msg);
		ret = in->code;
		goto out;
	}
	if (c.device && !r.ndevices) {	/* as ops says it */
		char e_dev[256];

		xp_escape(e_dev, sizeof(e_dev), c.device);
		cmd_error("no device plane with events in this input matches --device '%s'", e_dev);
		ret = EXIT_NOMATCH;
		goto out;
	}
	for (i = 0; i < in->notes.n; i++)	/* what the reader noticed, first */
		if (xp_notes_add(&notes, "%s", in->notes.msgs[i])) {
			cmd_error("out of memory");
			ret = EXIT_ERROR;
			goto out;
		}
	if ((ret = an_hlo_find(&s, in->t, &err))) {
		cmd_error("%s", err.msg);
		ret = cmd_exit_for(ret);
		goto out;
	}
	if (!s.n) {
		cmd_error("'%s' carries no HLO: no 'Hlo Proto' stat in a /host:metadata plane (JAX writes one "
			  "per module it compiled; TensorFlow traces and captures carry none)", pos[0]);
		ret = EXIT_NOMATCH;
		goto out;
	}
	if (an_ops_mark_hlo(&r, &s)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	for (i = 0; i < s.n; i++)	/* decoded again one at a time below: not all held at once */
		an_hlo_forget(&s.e[i]);
	if (decode_all(&s, pos[0], module, op, &found, &nfound, &notes)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	if (op && !nfound) {
		char e_op[256], e_mod[256];

		xp_escape(e_op, sizeof(e_op), op);
		xp_escape(e_mod, sizeof(e_mod), module ? module : "");
		cmd_error("no instruction named '%s' in %s%s%s ('xplane-stat ops FILE' names the ops that ran)",
			  e_op, module ? "module '" : "any module", e_mod, module ? "'" : "");
		ret = EXIT_NOMATCH;
		goto out;
	}
	ho.path = pos[0];
	ho.s = &s;
	ho.found = op ? found : NULL;
	ho.nfound = nfound;
	ho.notes = &notes;
	ret = cmd_write_noted(&c, mode, print_hlo, &ho, &notes);
out:
	free(found);
	xp_notes_release(&notes);
	an_hlo_set_release(&s);
	cmd_input_free(in);
	an_ops_release(&r);
	free(pos);
	cmd_common_release(&c);
	return ret;
}
