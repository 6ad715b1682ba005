/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat functions: device time of every jitted function (the default command). */
#include "an_functions.h"
#include "an_notes.h"
#include "cmd_driver.h"
#include "out_functions.h"

struct fn_args {
	struct cmd_common c;
	struct an_fn_opts fo;
	int per_file;
	int any_device;		/* an input had a device plane */
};

static int fn_setup(struct cmd_drive *d)
{
	struct fn_args *a = d->args;

	a->fo.match = cmd_match(&a->c);
	a->fo.time = d->time;
	if ((d->lines = a->per_file) && (a->c.csv || a->c.tsv))
		return cmd_usage_error("--per-file prints JSON lines: it excludes --csv and --tsv");
	return CMD_GO_ON;
}

static int fn_input(struct cmd_drive *d, struct cmd_input *in, void *r, struct xp_err *err)
{
	int ret;

	(void)r;
	if (!in->execs.ndevices && (ret = cmd_drive_no_device(d, in)))
		return ret;
	((struct fn_args *)d->args)->any_device |= in->execs.ndevices > 0;
	return an_fn_add(d->res, &in->execs, err);
}

/* --per-file: the input's own result as one JSON line. */
static int fn_line(struct cmd_drive *d, const struct cmd_input *in)
{
	struct an_fn_result one;
	struct xp_err err = {0};
	int ret;

	if (!in || in->code)
		return out_functions_line(d->b.lines, in ? in->path : "", NULL, NULL, in ? in->err.msg : "out of memory",
					  in ? in->code : EXIT_ERROR);
	an_fn_init(&one, d->opts);
	ret = an_fn_add(&one, &in->execs, &err) || an_fn_finish(&one, &err) ||
	      out_functions_line(d->b.lines, in->path, &one, &in->notes, NULL, 0);
	an_fn_release(&one);
	return ret ? -1 : 0;
}

static int fn_nothing(struct cmd_drive *d)
{
	if (((const struct fn_args *)d->args)->any_device)
		return CMD_GO_ON;
	cmd_error("no device plane with events in any input%s", d->c->device ? " matching --device" : "");
	return cmd_drive_nomatch(d);
}

static int fn_after(struct cmd_drive *d)
{
	const struct an_fn_result *r = d->res;
	const struct fn_args *a = d->args;

	if (!r->nrows && d->mode != OUT_JSON) {
		cmd_error("no jitted function executions found: %s",
			  a->fo.match ? "no function matches --match"
			  : r->device_events ? "no device event carries an hlo_module stat (not an XLA program? "
					       "'xplane-stat planes FILE' shows what it holds)"
			  : "the device planes hold no events");
		return EXIT_NOMATCH;
	}
	d->empty = !r->nrows;
	if (an_fn_notes(r, &d->notes)) {
		cmd_error("out of memory");
		return EXIT_ERROR;
	}
	/* The table's summary line and JSON say it; CSV and TSV stay pure data. */
	if ((d->mode == OUT_CSV || d->mode == OUT_TSV) && r->dropped_short &&
	    xp_notes_add(&d->notes, "%zu device event%s shorter than --min-duration dropped", r->dropped_short,
			 r->dropped_short == 1 ? "" : "s")) {
		cmd_error("out of memory");
		return EXIT_ERROR;
	}
	return CMD_GO_ON;
}

static int fn_print(FILE *f, enum out_mode mode, const struct out_style *st, const struct cmd_drive *d)
{
	return out_functions(f, mode, d->res, &d->notes, st);
}

static const struct cmd_analysis functions = {
	.name = "functions",
	.about = "Device time of each jitted function (XLA module) per execution, pooled over all\n"
		 "inputs: executions, total, mean, std (population), min, median, max and share of\n"
		 "device busy time. Directories are searched for *.xplane.pb and *.xplane.pb.gz;\n"
		 "a summary file (xplane-stat summarize) stands for the profiles it summarises.\n"
		 "An unreadable input among several is skipped with a warning and the exit\n"
		 "status is 6 (partial result); see EXIT STATUS in xplane-stat(1).",
	.an = &an_functions_analysis, .setup = fn_setup, .input = fn_input,
	.nothing = fn_nothing, .after = fn_after, .print = fn_print, .line = fn_line, .keep_one_trace = 1,
};

int cmd_functions(int argc, char **argv)
{
	struct fn_args a = {0};
	const struct opt opts[] = {
		CMD_OPTS_SELECT(&a.c),
		CMD_OPT_MATCH(&a.c, "functions"),
		{"trim", 0, OPT_SIZE, &a.fo.trim, "K", "mean and std drop the K fastest and K slowest executions (when over 2K)"},
		{"per-device", 0, OPT_FLAG, &a.fo.per_device, NULL, "a row per function and device, not pooled"},
		{"per-file", 0, OPT_FLAG, &a.per_file, NULL,
		 "a JSON line per input with its own result (or its error), in input order"},
		CMD_OPTS_HISTORY(&a.c),
		CMD_OPTS_TAIL(&a.c),
	};
	struct cmd_drive d = {.a = &functions, .c = &a.c, .args = &a, .opts = &a.fo};

	return cmd_drive(&d, opts, argc, argv);
}
