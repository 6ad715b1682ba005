/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat compile: per jitted function its calls, first-call overhead and compiler events. */
#include <stdlib.h>
#include <string.h>

#include "an_compile.h"
#include "cmd.h"
#include "opt.h"
#include "out_compile.h"
#include "xp_input.h"
#include "xp_pool.h"

struct comp_args {
	struct cmd_common c;
	const char *function;
	int events;
	size_t top;
};

struct comp_batch {
	const struct comp_args *a;
	const struct xp_pathlist *paths;
	unsigned plane_jobs;
	struct an_comp_result *res;
	struct xp_notes *notes;
	struct cmd_batch b;
	int ret;		/* an exit code that stops the batch; -1: going on */
};

struct comp_output {
	const struct an_comp_result *res;
	const struct out_comp_opts *o;
	const struct xp_notes *notes;
};

static int print_compile(FILE *f, enum out_mode mode, int colour, const void *arg)
{
	const struct comp_output *o = arg;

	return out_compile(f, mode, o->res, o->o, o->notes, colour);
}

/* One input read and analysed on a worker thread. */
struct comp_input {
	struct cmd_input in;	/* path, code, err, notes; the trace is freed once analysed */
	struct an_comp_result r;
};

static void comp_input_free(struct comp_input *ci)
{
	if (!ci)
		return;
	an_comp_release(&ci->r);
	xp_trace_free(ci->in.t);
	xp_notes_release(&ci->in.notes);
	free(ci);
}

static int comp_add(void *result, const struct xp_trace *t, const char *input, struct xp_err *err)
{
	return an_comp_add(result, t, input, err);
}

static void *comp_work(size_t i, void *ctx)
{
	struct comp_batch *cb = ctx;
	struct comp_input *ci = calloc(1, sizeof(*ci));

	if (!ci)
		return NULL;
	an_comp_init(&ci->r, &cb->res->opts);
	ci->in.path = cb->paths->paths[i];
	cmd_host_analyse(&cb->a->c, cb->plane_jobs, &ci->in, &ci->r, comp_add);
	return ci;
}

static void comp_done(size_t i, void *result, void *ctx)
{
	struct comp_batch *cb = ctx;
	struct comp_input *ci = result;
	struct xp_err err = {0};
	size_t without;

	(void)i;
	if (cb->ret >= 0)
		goto out;
	if (cmd_batch_step(&cb->b, ci ? &ci->in : NULL, cb->notes)) {
		cb->ret = ci ? ci->in.code : EXIT_ERROR;
		goto out;
	}
	if (!ci || ci->in.code)
		goto out;
	without = ci->r.inputs_without;
	if (an_comp_merge(cb->res, &ci->r, &err)) {
		cmd_error("%s", err.msg);
		cb->ret = EXIT_ERROR;
		goto out;
	}
	if (cb->paths->n > 1 && without)
		xp_notes_add(cb->notes, "'%s': no PjitFunction call or compiler event on a host plane", ci->in.path);
out:
	comp_input_free(ci);
}

int cmd_compile(int argc, char **argv)
{
	struct comp_args a = {0};
	const struct opt opts[] = {
		{"function", 0, OPT_STR, &a.function, "PATTERN",
		 "only functions whose name contains PATTERN, any case"},
		{"events", 0, OPT_FLAG, &a.events, NULL,
		 "CSV/TSV: the compiler events table instead of the functions (text and JSON have both)"},
		{"top", 0, OPT_COUNT, &a.top, "N", "only the first N rows (by input, then compile time) and their events"},
		CMD_OPTS_INPUT(&a.c),
		CMD_OPTS_FORMAT(&a.c),
		{0},
	};
	const struct opt_cmd cmd = {
		"compile", "[OPTIONS] FILE|DIR|-...",
		"Compile time per jitted function from the host plane: its calls (JAX's\n"
		"PjitFunction spans), the first call's duration against the median of the later\n"
		"ones and their difference (the trace-and-compile overhead, an estimate), and the\n"
		"compiler events in or beside its calls by phase: trace (trace_to_jaxpr), lower\n"
		"(lower_sharding_computation...), compile (backend_compile, *Compiler::*), with\n"
		"the XLA passes nested in them; COMPILED counts the calls that compiled\n"
		"(more than one: recompiles). Totals say how much of the profile compiling took.",
		opts,
	};
	struct an_comp_opts co = {0};
	struct out_comp_opts oo = {0};
	struct an_comp_result res;
	struct comp_output out;
	struct xp_pathlist paths = {0};
	struct xp_notes notes = {0};
	struct comp_batch cb = {0};
	int m, ret;
	enum out_mode mode;
	const char **pos = NULL;
	size_t npos;

	cmd_common_init(&a.c);
	an_comp_init(&res, &co);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (!npos) {
		cmd_error("no input given (see 'xplane-stat compile --help')");
		goto out;
	}
	if ((m = cmd_output_mode(&a.c)) < 0)
		goto out;
	mode = (enum out_mode)m;
	if (a.events && mode != OUT_CSV && mode != OUT_TSV) {
		cmd_error("--events selects the CSV/TSV table: the text and JSON outputs have both");
		goto out;
	}
	if ((ret = cmd_input_setup(&a.c)) >= 0)
		goto out;
	a.c.event_stats = XP_EVSTATS_NONE;	/* names and times only */
	co.function = a.function;
	an_comp_release(&res);
	an_comp_init(&res, &co);
	oo.events = a.events;
	oo.top = a.top;
	if ((ret = cmd_batch_inputs(&cb.b, &a.c, pos, npos, &paths, &notes, &cb.plane_jobs)) >= 0)
		goto out;
	oo.show_input = paths.n > 1;
	cb.a = &a;
	cb.paths = &paths;
	cb.res = &res;
	cb.notes = &notes;
	cb.ret = -1;
	ret = cmd_batch_run(&cb.b, cmd_jobs(&a.c, paths.n), comp_work, comp_done, &cb, &notes, &cb.ret);
	if (ret >= 0)
		goto out;
	if (!res.nfns && (a.function || !res.compiler_events)) {
		if (a.function && res.unselected)
			cmd_error("no function in %s matches --function '%s' (of %zu)",
				  paths.n == 1 ? "this input" : "any input", a.function, res.unselected);
		else
			cmd_error("no PjitFunction call or compiler event in %s: %s",
				  paths.n == 1 ? "this input" : "any input",
				  res.call_events ? "" : "the host plane holds no JAX function calls (JAX writes "
				  "PjitFunction(<fn>) on the host plane; 'xplane-stat events --plane host FILE' "
				  "lists what it holds)");
		cmd_print_notes(&notes);
		ret = cb.b.failed ? cb.b.first_code : EXIT_NOMATCH;
		goto out;
	}
	if (!res.compiler_events)
		xp_notes_add(&notes, "no compiler events (trace_to_jaxpr, lower_*, backend_compile, "
			     "*Compiler::*) in %s: each function's overhead is the first call minus the later "
			     "median, an estimate", paths.n == 1 ? "this input" : "any input");
	out.res = &res;
	out.o = &oo;
	out.notes = &notes;
	ret = cmd_write(a.c.output, mode, print_compile, &out);
	if (mode != OUT_JSON)
		cmd_print_notes(&notes);
	ret = cmd_batch_exit(&cb.b, ret);
out:
	cmd_common_release(&a.c);
	an_comp_release(&res);
	xp_pathlist_release(&paths);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}
