/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat ops: device time per HLO op (TPU XLA Ops lines, GPU kernels by hlo_op). */
#include "an_ops.h"
#include "cmd_driver.h"
#include "out_ops.h"
#include "out_scope.h"

struct ops_args {
	struct cmd_common c;
	struct an_ops_opts oo;
	int by, sort, folded;
	size_t top;
};

enum { BY_OP, BY_CATEGORY, BY_SCOPE, BY_SOURCE, BY_FRAMEWORK };

static int ops_check(struct cmd_drive *d)
{
	struct ops_args *a = d->args;

	if (a->folded && d->mode != OUT_TABLE)
		return cmd_usage_error("--folded writes folded stacks: not --json, --csv or --tsv");
	if (a->folded && (a->by == BY_CATEGORY || a->by == BY_SOURCE || a->by == BY_FRAMEWORK))
		return cmd_usage_error("--folded writes the stacks of scopes: not --by %s",
				       a->by == BY_CATEGORY ? "category" : a->by == BY_SOURCE ? "source" : "framework");
	if (a->by == BY_FRAMEWORK)	/* the kernels' tf_op and annotation stats too */
		a->c.extra_keys = AN_OPS_FRAMEWORK_KEYS & ~AN_OPS_KEYS;
	return CMD_GO_ON;
}

static int ops_setup(struct cmd_drive *d)
{
	struct ops_args *a = d->args;

	a->oo.by_category = a->by == BY_CATEGORY;
	a->oo.by_scope = a->by == BY_SCOPE;
	a->oo.by_source = a->by == BY_SOURCE;
	a->oo.by_framework = a->by == BY_FRAMEWORK;
	a->oo.hlo = a->oo.by_scope || a->oo.by_source || a->oo.by_framework || a->folded;
	a->oo.sort = (enum an_ops_sort)a->sort;
	a->oo.device = a->c.device;
	return CMD_GO_ON;
}

static int ops_input(struct cmd_drive *d, struct cmd_input *in, void *r, struct xp_err *err)
{
	return ((struct an_ops_result *)r)->ndevices ? 0 : cmd_drive_no_device(d, in);
}

static int ops_nothing(struct cmd_drive *d)
{
	if (((const struct an_ops_result *)d->res)->ndevices)
		return CMD_GO_ON;
	cmd_error("no device plane with events in any input%s", d->c->device ? " matching --device" : "");
	return cmd_drive_nomatch(d);
}

static int ops_after(struct cmd_drive *d)
{
	const struct an_ops_result *r = d->res;

	if (r->nrows)
		return CMD_GO_ON;
	if (r->opts.by_framework) {
		cmd_error("no framework ops found: the device planes have no 'XLA Ops' line, and no GPU kernel "
			  "carries an hlo_op stat or names a TensorFlow op (a tf_op or annotation stat of "
			  "'name:Type')%s ('xplane-stat planes FILE' shows what the file holds)",
			  r->summaries ? "; summaries keep no TensorFlow kernels: give the traces" : "");
		return EXIT_NOMATCH;
	}
	cmd_error("no HLO ops found: %s", r->kernels_no_op
		  ? "the device planes have no 'XLA Ops' line, and no GPU kernel carries an hlo_op stat "
		    "(not an XLA program? 'xplane-stat planes FILE' shows what the file holds)"
		  : "the device planes have no 'XLA Ops' line and no GPU kernel "
		    "('xplane-stat planes FILE' shows what the file holds)");
	return EXIT_NOMATCH;
}

static int ops_print(FILE *f, enum out_mode mode, const struct out_style *st, const struct cmd_drive *d)
{
	const struct ops_args *a = d->args;

	if (a->folded)
		return out_ops_folded(f, d->res);
	return out_ops(f, mode, d->res, a->top, &d->notes, st);
}

static const struct cmd_analysis ops = {
	.name = "ops",
	.about = "Device time per HLO op, pooled over all inputs and devices. TPU: the events of\n"
		 "each device's 'XLA Ops' line (and, apart, its 'Async XLA Ops' line): occurrences,\n"
		 "total and self time (less the ops nested inside), mean, share of self time,\n"
		 "flops, bytes accessed, FLOP/s, GB/s, FLOP per byte and whether the op is compute\n"
		 "or memory bound against the device's peaks (its plane's stats, else a built-in\n"
		 "chip table; the output says which). GPU: kernels grouped by hlo_module and hlo_op.\n"
		 "--by scope, --by source and --by framework look each op up in the HLO its trace\n"
		 "carries (see hlo); --by framework also reads TensorFlow's GPU kernels, which\n"
		 "name no HLO op, by the TensorFlow op they ran for.",
	.an = &an_ops_analysis, .check = ops_check, .setup = ops_setup, .input = ops_input,
	.nothing = ops_nothing, .after = ops_after, .print = ops_print,
};

int cmd_ops(int argc, char **argv)
{
	struct ops_args a = {0};
	const struct opt opts[] = {
		CMD_OPT_DEVICE(&a.c, "gpu, TPU:1"),
		{"by", 0, OPT_ENUM, &a.by, "op|category|scope|source|framework", "a row per op (default), per "
		 "category (hlo_category), per name scope as a tree (the framework op name XLA keeps on each op's "
		 "HLO instruction: jit(f)/layer_3/attention), per source line of the user's program, or per "
		 "framework op with its type, as XProf's framework op stats (an XLA op's op_name and op_type; "
		 "a TensorFlow kernel's tf_op, else its annotation's innermost 'name:Type')"},
		{"folded", 0, OPT_FLAG, &a.folded, NULL, "write folded stacks (scope frames;op self-ns) for "
		 "flamegraph.pl, inferno or speedscope instead of a table"},
		{"sort", 0, OPT_ENUM, &a.sort, "time|self|flops|bytes", "order rows by total time (default), "
		 "self time, flops or bytes accessed, largest first"},
		{"top", 0, OPT_COUNT, &a.top, "N", "only the first N rows of each line kind"},
		CMD_OPTS_TAIL(&a.c),
	};
	struct cmd_drive d = {.a = &ops, .c = &a.c, .args = &a, .opts = &a.oo};

	return cmd_drive(&d, opts, argc, argv);
}
