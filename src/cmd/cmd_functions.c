/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat functions: device time of every jitted function (the default command). */
#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "an_functions.h"
#include "cmd.h"
#include "opt.h"
#include "out_functions.h"
#include "xp_input.h"
#include "xp_pool.h"

struct fn_args {
	struct cmd_common c;
	const char *match;
	size_t trim;
	int per_device;
	int per_file;
};

/* What the formatter needs: the result and the warnings for JSON. */
struct fn_output {
	const struct an_fn_result *res;
	const struct xp_notes *notes;
};

static int print_functions(FILE *f, enum out_mode mode, const struct out_style *st, const void *arg)
{
	const struct fn_output *o = arg;

	return out_functions(f, mode, o->res, o->notes, st);
}

/* The inputs' executions pooled into one result, or one JSON line per input. */
struct fn_batch {
	struct fn_args *a;
	const struct xp_pathlist *paths;
	const struct an_exec_opts *xo;
	const struct an_fn_opts *fo;
	unsigned plane_jobs;
	struct an_fn_result *res;
	struct xp_notes *notes;
	struct cmd_batch b;
	int any_device;
	int ret;		/* an exit code that stops the batch; -1: going on */
};

static void *fn_work(size_t i, void *ctx)
{
	struct fn_batch *fb = ctx;

	return cmd_input_process(&fb->a->c, fb->paths->paths[i], fb->plane_jobs, fb->xo,
				 fb->paths->n == 1);
}

/* --per-file: the input's own result as one JSON line. */
static int fn_line(struct fn_batch *fb, const struct cmd_input *in)
{
	struct an_fn_result one;
	struct xp_err err = {0};
	int ret;

	if (!in || in->code)
		return out_functions_line(fb->b.lines, in ? in->path : "", NULL, NULL,
					  in ? in->err.msg : "out of memory",
					  in ? in->code : EXIT_ERROR);
	an_fn_init(&one, fb->fo);
	ret = an_fn_add(&one, &in->execs, &err) || an_fn_finish(&one, &err) ||
	      out_functions_line(fb->b.lines, in->path, &one, &in->notes, NULL, 0);
	an_fn_release(&one);
	return ret ? -1 : 0;
}

static void fn_done(size_t i, void *result, void *ctx)
{
	struct fn_batch *fb = ctx;
	struct cmd_input *in = result;
	const char *path = fb->paths->paths[i];
	struct xp_err err = {0};

	if (fb->ret >= 0)
		goto out;
	if (fb->b.lines) {
		cmd_batch_step(&fb->b, in, fb->notes);
		if (fn_line(fb, in) || (in && !in->code && cmd_history_add(&fb->a->c, in)))
			fb->ret = EXIT_ERROR;
		goto out;
	}
	if (cmd_batch_step(&fb->b, in, fb->notes)) {
		fb->ret = in ? in->code : EXIT_ERROR;
		goto out;
	}
	if (!in || in->code)
		goto out;
	if (!in->execs.ndevices) {
		if (fb->paths->n == 1) {
			cmd_no_device_input(in, fb->a->c.device);
			fb->ret = EXIT_NOMATCH;
			goto out;
		}
		xp_notes_add(fb->notes, "'%s': no device plane with events%s", path,
			     fb->a->c.device ? " matching --device" : "");
	}
	fb->any_device |= in->execs.ndevices > 0;
	if (cmd_history_add(&fb->a->c, in)) {
		cmd_error("out of memory");
		fb->ret = EXIT_ERROR;
	} else if (an_fn_add(fb->res, &in->execs, &err)) {
		cmd_error("%s", err.msg);
		fb->ret = EXIT_ERROR;
	}
out:
	cmd_input_free(in);
}

int cmd_functions(int argc, char **argv)
{
	struct fn_args a = {.trim = 0};
	const struct opt opts[] = {
		CMD_OPTS_SELECT(&a.c),
		{"match", 'm', OPT_STR, &a.match, "REGEX", "only functions whose name matches REGEX (extended)"},
		{"trim", 0, OPT_SIZE, &a.trim, "K", "mean and std drop the K fastest and K slowest executions (when over 2K)"},
		{"per-device", 0, OPT_FLAG, &a.per_device, NULL, "a row per function and device, not pooled"},
		{"per-file", 0, OPT_FLAG, &a.per_file, NULL,
		 "a JSON line per input with its own result (or its error), in input order"},
		CMD_OPTS_HISTORY(&a.c),
		CMD_OPTS_TAIL(&a.c),
	};
	const struct opt_cmd cmd = {
		"functions", "[OPTIONS] FILE|DIR|-...",
		"Device time of each jitted function (XLA module) per execution, pooled over all\n"
		"inputs: executions, total, mean, std (population), min, median, max and share of\n"
		"device busy time. Directories are searched for *.xplane.pb and *.xplane.pb.gz;\n"
		"a summary file (xplane-stat summarize) stands for the profiles it summarises.\n"
		"An unreadable input among several is skipped with a warning and the exit\n"
		"status is 6 (partial result); see EXIT STATUS in xplane-stat(1).",
		opts, .min_pos = 1,
	};
	struct an_exec_opts xo = {0};
	struct an_fn_opts fo = {0};
	struct an_fn_result res;
	struct fn_output fo_out;
	struct xp_pathlist paths = {0};
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	regex_t match_re;
	struct fn_batch fb = {0};
	int have_match = 0, ret;
	enum out_mode mode = OUT_TABLE;
	const char **pos = NULL;
	unsigned jobs;
	size_t npos;

	cmd_common_init(&a.c);
	an_fn_init(&res, &fo);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	ret = cmd_common_setup(&a.c, &mode, &fo.time, &xo);
	if (ret >= 0)
		goto out;
	if (a.match && (ret = cmd_regex(&match_re, a.match, "--match")))
		goto out;
	have_match = a.match != NULL;
	fo.match = have_match ? &match_re : NULL;
	fo.trim = a.trim;
	fo.per_device = a.per_device;
	an_fn_init(&res, &fo);
	cmd_read_profile(&a.c, &an_exec_read_profile);
	if ((ret = cmd_history_setup(&a.c, &notes)) >= 0)
		goto out;
	if ((ret = cmd_batch_inputs(&fb.b, &a.c, pos, npos, &paths, &notes, &fb.plane_jobs)) >= 0)
		goto out;
	fb.a = &a;
	fb.paths = &paths;
	fb.xo = &xo;
	fb.fo = &fo;
	fb.res = &res;
	fb.notes = &notes;
	fb.ret = -1;
	jobs = cmd_jobs(&a.c, paths.n);
	if (a.per_file) {
		if (a.c.csv || a.c.tsv) {
			cmd_error("--per-file prints JSON lines: it excludes --csv and --tsv");
			ret = EXIT_USAGE;
			goto out;
		}
		ret = cmd_batch_lines(&fb.b, a.c.output, jobs, fn_work, fn_done, &fb, &notes, &fb.ret);
		ret = cmd_history_finish(&a.c, ret);
		goto out;
	}
	ret = cmd_batch_run(&fb.b, jobs, fn_work, fn_done, &fb, &notes, &fb.ret);
	if (ret >= 0)
		goto out;
	if (!fb.any_device) {
		cmd_error("no device plane with events in any input%s", a.c.device ? " matching --device" : "");
		cmd_print_notes(&notes);
		ret = fb.b.failed ? fb.b.first_code : EXIT_NOMATCH;
		goto out;
	}
	if (an_fn_finish(&res, &err)) {
		cmd_error("%s", err.msg);
		ret = EXIT_ERROR;
		goto out;
	}
	if (!res.nrows && mode != OUT_JSON) {
		cmd_error("no jitted function executions found: %s",
			  have_match ? "no function matches --match"
			  : res.device_events ? "no device event carries an hlo_module stat (not an XLA program? "
						"'xplane-stat planes FILE' shows what it holds)"
			  : "the device planes hold no events");
		cmd_print_notes(&notes);
		ret = EXIT_NOMATCH;
		goto out;
	}
	/* The table's summary line and JSON say it; CSV and TSV stay pure data. */
	if ((mode == OUT_CSV || mode == OUT_TSV) && res.dropped_short)
		xp_notes_add(&notes, "%zu device event%s shorter than --min-duration dropped",
			     res.dropped_short, res.dropped_short == 1 ? "" : "s");
	fo_out.res = &res;
	fo_out.notes = &notes;
	ret = cmd_write(&a.c, mode, print_functions, &fo_out);
	if (mode != OUT_JSON)
		cmd_print_notes(&notes);
	if (!ret && !res.nrows)
		ret = EXIT_NOMATCH;
	ret = cmd_history_finish(&a.c, cmd_batch_exit(&fb.b, ret));
out:
	if (have_match)
		regfree(&match_re);
	cmd_common_release(&a.c);
	an_fn_release(&res);
	xp_pathlist_release(&paths);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}
