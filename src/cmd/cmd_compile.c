/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat compile: per jitted function its calls, first-call overhead and compiler events. */
#include "an_compile.h"
#include "cmd_driver.h"
#include "out_compile.h"

struct comp_args {
	struct cmd_common c;
	struct an_comp_opts co;
	struct out_comp_opts oo;
};

static int comp_check(struct cmd_drive *d)
{
	if (((struct comp_args *)d->args)->oo.events && d->mode != OUT_CSV && d->mode != OUT_TSV)
		return cmd_usage_error("--events selects the CSV/TSV table: the text and JSON outputs have both");
	return CMD_GO_ON;
}

static int comp_nothing(struct cmd_drive *d)
{
	const struct an_comp_result *r = d->res;
	const char *fn = r->opts.function;

	if (r->nfns || (!fn && r->compiler_events))
		return CMD_GO_ON;
	if (fn && r->unselected)
		cmd_error("no function in %s matches --function '%s' (of %zu)", cmd_drive_inputs(d), fn, r->unselected);
	else
		cmd_error("no PjitFunction call or compiler event in %s: %s", cmd_drive_inputs(d),
			  r->call_events ? "" : "the host plane holds no JAX function calls (JAX writes "
			  "PjitFunction(<fn>) on the host plane; 'xplane-stat events --plane host FILE' "
			  "lists what it holds)");
	return cmd_drive_nomatch(d);
}

static int comp_print(FILE *f, enum out_mode mode, const struct out_style *st, const struct cmd_drive *d)
{
	return out_compile(f, mode, d->res, &((const struct comp_args *)d->args)->oo, &d->notes, st);
}

static const struct cmd_analysis compile = {
	.name = "compile",
	.about = "Compile time per jitted function from the host plane: its calls (JAX's\n"
		 "PjitFunction spans), the first call's duration against the median of the later\n"
		 "ones and their difference (the trace-and-compile overhead, an estimate), and the\n"
		 "compiler events in or beside its calls by phase: trace (trace_to_jaxpr), lower\n"
		 "(lower_sharding_computation...), compile (backend_compile, *Compiler::*), with\n"
		 "the XLA passes nested in them; COMPILED counts the calls that compiled\n"
		 "(more than one: recompiles). Totals say how much of the profile compiling took.",
	.an = &an_compile_analysis, .check = comp_check, .nothing = comp_nothing,
	.print = comp_print,
};

int cmd_compile(int argc, char **argv)
{
	struct comp_args a = {0};
	const struct opt opts[] = {
		{"function", 0, OPT_STR, &a.co.function, "PATTERN",
		 "only functions whose name contains PATTERN, any case"},
		{"events", 0, OPT_FLAG, &a.oo.events, NULL,
		 "CSV/TSV: the compiler events table instead of the functions (text and JSON have both)"},
		{"top", 0, OPT_COUNT, &a.oo.top, "N", "only the first N rows (by input, then compile time) and their events"},
		CMD_OPTS_TAIL(&a.c),
	};
	struct cmd_drive d = {.a = &compile, .c = &a.c, .args = &a, .opts = &a.co};

	return cmd_drive(&d, opts, argc, argv);
}
