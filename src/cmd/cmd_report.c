/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat report: one self-contained HTML page of the analyses, to open offline or mail. */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "an_callprog.h"
#include "an_cpu.h"
#include "an_autotune.h"
#include "an_diff.h"
#include "an_functions.h"
#include "an_group.h"
#include "an_history.h"
#include "an_kernels.h"
#include "an_ops.h"
#include "an_overview.h"
#include "an_report.h"
#include "an_input.h"
#include "cmd.h"
#include "opt.h"
#include "out_report.h"

#define TIMELINE_COLUMNS 600

struct rep_in {
	struct cmd_input in;	/* path, code, err, notes, trace, executions */
};

struct rep_batch {
	struct cmd_common *c;
	const struct xp_pathlist *paths;
	const struct an_exec_opts *xo;
	unsigned plane_jobs;
	struct an_fn_result *fr;
	struct an_at_result *ar;
	struct an_ov_result *ov;
	struct an_kern_result *kr;
	struct an_ops_result *pr;
	struct an_mem_result *mr;
	struct an_comp_result *cr;
	struct an_rep_timeline *tl;
	const char *tl_input;
	struct an_diff_result *dr;	/* --base: these inputs are its current side */
	struct cmd_side_runs runs;	/* its runs, to group */
	struct xp_notes *notes;
	struct cmd_batch b;
	int ret;		/* an exit code that stops the batch; -1: going on */
};

/* Reads one input whole (every plane: the overview needs the host's) and finds its executions. */
static void *rep_work(size_t i, void *ctx)
{
	struct rep_batch *rb = ctx;
	struct rep_in *ri = calloc(1, sizeof(*ri));
	struct cmd_input *in;

	if (!ri)
		return NULL;
	in = &ri->in;
	in->path = rb->paths->paths[i];
	in->code = cmd_read(rb->c, in->path, rb->plane_jobs, 0, &in->t, &in->err);
	if (in->code)
		return ri;
	in->have_execs = 1;
	in->code = cmd_exit_for(an_input_execs(in->t, rb->xo, in->path, &in->execs, &in->notes, NULL, &in->err));
	return ri;
}

/* An input added to the analyses, kept for grouping the inputs into runs. */
static int keep_run(struct rep_batch *rb, struct cmd_input *in, struct xp_err *err)
{
	if ((in->t->nhostnames && !(in->hostname = strdup(in->t->hostnames[0]))) ||
	    cmd_side_keep(&rb->runs, in))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	return 0;
}

/* The timeline of in's executions, its devices on one axis (their planes' bases). 0 or an xp_errcode. */
static int timeline_of(const struct cmd_input *in, struct an_rep_timeline *tl, struct xp_err *err)
{
	int64_t *base = calloc(in->execs.ndevices + 1, sizeof(*base));
	size_t d;
	int ret;

	if (!base)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (d = 0; in->t && d < in->execs.ndevices; d++)
		base[d] = in->t->planes[in->execs.devices[d].plane].base_ns;
	ret = an_rep_timeline(&in->execs, in->t ? base : NULL, TIMELINE_COLUMNS, tl, err);
	free(base);
	return ret;
}

/* Adds one input to every analysis, in input order. */
static void rep_done(size_t i, void *result, void *ctx)
{
	struct rep_batch *rb = ctx;
	struct rep_in *ri = result;
	struct cmd_input *in = ri ? &ri->in : NULL;
	struct xp_err err = {0};
	size_t added;

	if (rb->ret >= 0 || !in) {
		if (!in)
			rb->b.fatal = 1;
		goto out;
	}
	if (!in->code) {
		/* the analyses that count runs first, and the run kept with them, so that they stay in step */
		if (an_fn_add(rb->fr, &in->execs, &err) || an_at_add(rb->ar, &in->execs, &err) ||
		    keep_run(rb, in, &err) || (rb->dr && an_diff_add(rb->dr, 1, &in->execs, &err)) ||
		    an_ov_add_input(rb->ov, in->t, in->path, rb->xo->device, &added, &err) ||
		    (an_ov_strag_add_input(rb->ov, in->t, &in->execs, in->path) &&
		     xp_err_set(&err, XP_ERR_NOMEM, "out of memory")) ||
		    an_kern_add(rb->kr, in->t, &err) || an_ops_add(rb->pr, in->t, &err) ||
		    an_mem_add(rb->mr, in->t, in->path, &err) || an_comp_add(rb->cr, in->t, in->path, &err) ||
		    (!rb->tl_input && timeline_of(in, rb->tl, &err))) {
			if (err.code == XP_ERR_NOMEM) {
				rb->b.fatal = 1;
				goto out;
			}
			in->code = cmd_exit_for(err.code);
			in->err = err;
			an_input_name_err(&in->err, in->path);
		} else if (!rb->tl_input) {
			/* the first input with executions draws the timeline */
			if (rb->tl->n)
				rb->tl_input = in->path;
			else
				an_rep_timeline_release(rb->tl);
		}
	}
	if (cmd_batch_step(&rb->b, in, rb->notes))
		rb->ret = rb->b.first_code;
out:
	(void)i;
	if (ri) {
		xp_trace_free(ri->in.t);
		ri->in.t = NULL;
		free(ri->in.hostname);
		if (ri->in.have_execs)
			an_exec_list_release(&ri->in.execs);
		xp_notes_release(&ri->in.notes);
		free(ri);
	}
}

/* Host events: those host linkage (executions) and the overview (launches, steps) look at. */
/*
 * The host events the report's analyses use: linkage, launches and steps,
 * memory events, and the calls and compiler events compile counts (not the
 * passes inside them, which the report does not show).
 */
static int rep_wants_host_event(const char *name)
{
	size_t len;

	return an_exec_wants_host_event(name) || an_ov_wants_host_event(name) || an_mem_wants_host_event(name) ||
	       an_comp_phase_of(name) >= 0 || an_comp_call_fn(name, &len) ||
	       an_host_thunk_name(name) ||	/* ops: the thunks whose events count GPU op calls (an_hostcall.h) */
	       an_cpu_wants_host_event(name);	/* XLA:CPU's executable calls (an_cpu.h) */
}

static int print_report(FILE *f, enum out_mode mode, const struct out_style *st, const void *arg)
{
	(void)mode;
	(void)st;
	return out_report(f, arg);
}

int cmd_report(int argc, char **argv)
{
	struct cmd_common c, bc;
	const char *base = NULL, *hist_file = NULL;
	size_t top = 15;
	const struct opt opts[] = {
		{"output", 'o', OPT_STR, &c.output, "FILE",
		 "write the page to FILE (required; via a temporary name, renamed when complete); - is stdout"},
		CMD_OPT_DEVICE(&c, "gpu, TPU:1"),
		{"top", 0, OPT_COUNT, &top, "N", "rows per table (default 15)"},
		{"base", 0, OPT_STR, &base, "BASE",
		 "a section comparing these inputs with BASE (profile, directory or summary file) as diff does"},
		CMD_OPT_RUN_BY(&c),
		{"history", 0, OPT_STR, &hist_file, "FILE",
		 "a section of each function's trend over the runs recorded in FILE (see the history command)"},
		CMD_OPTS_INPUT(&c),
		{0},
	};
	const struct opt_cmd cmd = {
		"report", "[OPTIONS] FILE|DIR|-... -o report.html",
		"Writes one self-contained HTML page: per device busy and idle time (what\n"
		"overview says) and its stragglers, the functions table with a bar each, a\n"
		"timeline strip per device of the first input's executions on one time axis,\n"
		"the top kernels and HLO ops with a roofline where flops and bytes are known,\n"
		"memory peaks, compile time, and the autotune candidates with their confidence\n"
		"intervals; with --base a chart of what changed against a base, with --history\n"
		"each function's trend. Inline CSS and SVG, no script, nothing fetched:\n"
		"it opens from disk or a mail attachment, at 1280 px wide or printed.",
		opts, .min_pos = 1,
	};
	struct xp_pathlist paths = {0};
	struct xp_notes notes = {0};
	struct an_exec_opts xo = {0};
	struct an_fn_opts fo = {0};
	struct an_at_opts ao = {0};
	struct an_kern_opts ko = {0};
	struct an_ops_opts po = {0};
	struct an_fn_result fr;
	struct an_at_result ar;
	struct an_ov_result ov;
	struct an_groups groups;
	struct an_kern_result kr;
	struct an_ops_result pr;
	struct an_mem_opts mo = {0};
	struct an_comp_opts co = {0};
	struct an_mem_result mr;
	struct an_comp_result cr;
	struct an_rep_timeline tl = {0};
	struct an_diff_opts dopt = {.level = AN_DIFF_FUNCTIONS, .time = AN_TIME_BUSY, .alpha = 0.05,
				    .min_effect_pct = AN_DIFF_MIN_EFFECT_PCT, .holm = 1};
	struct an_diff_result dr;
	struct an_hist_result hr;
	struct an_run *runs = NULL;
	size_t nruns = 0, failed = 0, approximate = 0;
	int have_hr = 0;
	struct rep_batch rb = {0};
	struct out_rep_input *ins = NULL;
	struct out_report rep;
	struct xp_err err = {0};
	regex_t id_re;
	int have_re = 0, inited = 0, ret;
	const char **pos = NULL;
	size_t npos, i;
	unsigned jobs;

	cmd_common_init(&c);
	cmd_common_init(&bc);
	an_diff_init(&dr, &dopt);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (!c.output) {
		cmd_error("report needs -o FILE (report.html), or -o - for standard output");
		goto out;
	}
	if ((ret = cmd_input_setup(&c)) >= 0)
		goto out;
	if ((ret = cmd_regex(&id_re, AN_AT_DEFAULT_ID_REGEX, "--id-regex")))
		goto out;
	have_re = 1;
	c.read.event_stats = XP_EVSTATS_KEYS;	/* every key stat: each analysis finds its own */
	c.read.keys = 0;
	c.read.want_host_event = rep_wants_host_event;
	c.read.host_keys = AN_EXEC_HOST_KEYS | 1u << XP_K_CORRELATION_ID | 1u << XP_K_STEP_NUM | AN_MEM_KEYS |
			   AN_CALLPROG_KEYS;	/* compile: the launches and enqueues naming a call's program */
	c.cpu_device = 1;
	xo.device = c.device;
	dopt.id_re = &id_re;
	an_diff_init(&dr, &dopt);
	if (hist_file) {	/* first: a bad history file stops before the inputs are read */
		if ((ret = cmd_runs_read(hist_file, c.max_input, &runs, &nruns, &err))) {
			cmd_error("%s", err.msg);
			ret = cmd_exit_for(ret);
			goto out;
		}
		for (i = 0; i < nruns; i++)
			if (c.device && !runs[i].device && an_run_select_devices(&runs[i].execs, c.device)) {
				cmd_error("out of memory");
				ret = EXIT_ERROR;
				goto out;
			}
		if ((ret = an_hist_compute(runs, nruns, &dopt, (enum an_run_by)c.run_by, NULL, &hr, &err))) {
			cmd_error("'%s': %s", hist_file, err.msg);
			ret = cmd_exit_for(ret);
			goto out;
		}
		have_hr = 1;
	}
	if (base) {	/* the base side: executions only, summaries too */
		bc.jobs = c.jobs;
		bc.reader = c.reader;
		bc.max_input = c.max_input;
		bc.device = c.device;
		bc.run_by = c.run_by;
		cmd_read_profile(&bc, &an_exec_read_profile);
		if ((ret = cmd_input_setup(&bc)) >= 0 ||
		    (ret = cmd_side_read(&bc, &xo, 0, base, &dr, &notes, &failed, &approximate)) >= 0)
			goto out;
		if (failed)
			xp_notes_add(&notes, "%zu input%s of --base could not be read; the comparison covers the rest",
				     failed, failed == 1 ? "" : "s");
	}
	ret = cmd_batch_inputs(&rb.b, &c, pos, npos, &paths, &notes, &rb.plane_jobs);
	if (ret >= 0)
		goto out;
	fo.time = AN_TIME_BUSY;
	ao.id_re = &id_re;
	ao.trim = 1;
	ao.time = AN_TIME_BUSY;
	ao.alpha = 0.05;
	ao.run_means = 1;	/* as the autotune command: a sample per run, few runs untrimmed */
	ao.trim_runs_auto = 1;
	ko.by = AN_KERN_BY_NAME;
	ko.device = c.device;
	po.device = c.device;
	po.sort = AN_OPS_SORT_SELF;
	po.hlo = po.by_scope = 1;	/* the flame graph of scopes */
	an_fn_init(&fr, &fo);
	an_at_init(&ar, &ao);
	an_ov_init(&ov);
	ov.want_steps = 1;	/* the devices' steps, where they have a Steps line */
	ov.strag.run_by = c.run_by;	/* the stragglers' hosts grouped into runs as the rest of the report groups them */
	an_kern_init(&kr, &ko);
	an_ops_init(&pr, &po);
	an_mem_init(&mr, &mo);
	an_comp_init(&cr, &co);
	inited = 1;
	rb.c = &c;
	rb.paths = &paths;
	rb.xo = &xo;
	rb.fr = &fr;
	rb.ar = &ar;
	rb.ov = &ov;
	rb.kr = &kr;
	rb.pr = &pr;
	rb.mr = &mr;
	rb.cr = &cr;
	rb.tl = &tl;
	rb.tl_input = NULL;
	rb.dr = base ? &dr : NULL;
	rb.notes = &notes;
	rb.ret = -1;
	jobs = cmd_jobs(&c, paths.n);
	ret = cmd_batch_run(&rb.b, jobs, rep_work, rep_done, &rb, &notes, &rb.ret);
	if (ret >= 0)
		goto out;
	/* the inputs' runs (--run-by), for the autotune section and the comparison's current side */
	if (cmd_side_groups(&rb.runs, &c, &groups, &notes)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	an_at_group(&ar, groups.run, rb.runs.n, groups.nruns);
	if (base) {
		an_diff_group(&dr, 1, 0, groups.run, rb.runs.n, groups.nruns);
		dr.profiles[1] += rb.runs.n;
	}
	an_groups_release(&groups);
	if (an_fn_finish(&fr, &err) || an_at_finish(&ar, &err) || an_ov_finish(&ov, &err) || an_ov_notes(&ov, &notes) ||
	    an_kern_finish(&kr, &err) || an_ops_finish(&pr, &err) || (base && an_diff_finish(&dr, &err))) {
		cmd_error("%s", err.msg);
		ret = EXIT_ERROR;
		goto out;
	}
	if (!(ins = calloc(paths.n + 1, sizeof(*ins)))) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	for (i = 0; i < paths.n; i++) {
		struct stat st;
		int is_file = strcmp(paths.paths[i], "-") && stat(paths.paths[i], &st) == 0 && S_ISREG(st.st_mode);

		ins[i].path = strcmp(paths.paths[i], "-") ? paths.paths[i] : "standard input";
		ins[i].bytes = is_file ? (unsigned long long)st.st_size : 0;
		ins[i].has_bytes = is_file;
	}
	memset(&rep, 0, sizeof(rep));
	rep.version = "xplane-stat " XPS_VERSION;
	rep.inputs = ins;
	rep.ninputs = paths.n;
	rep.functions = &fr;
	rep.overview = &ov;
	rep.timeline = &tl;
	rep.timeline_input = rb.tl_input;
	rep.kernels = &kr;
	rep.ops = &pr;
	rep.memory = &mr;
	rep.compile = &cr;
	rep.autotune = &ar;
	rep.diff = base ? &dr : NULL;
	rep.base = base;
	rep.history = have_hr ? &hr : NULL;
	rep.history_file = hist_file;
	rep.notes = &notes;
	rep.top = top;
	rep.device = c.device;
	if (!ov.n && !fr.nrows) {
		/* as functions and overview: nothing to show is exit 4, and no page */
		cmd_print_notes(&notes);
		char where[64];

		snprintf(where, sizeof(where), "%s", paths.n == 1 ? "" : "any of these inputs");
		if (paths.n == 1)
			cmd_error("'%s': no device plane with work events%s%s%s: nothing to report", paths.paths[0],
				  c.device ? " matching '" : "", c.device ? c.device : "", c.device ? "'" : "");
		else
			cmd_error("no device plane with work events%s%s%s in %s: nothing to report",
				  c.device ? " matching '" : "", c.device ? c.device : "", c.device ? "'" : "", where);
		ret = EXIT_NOMATCH;
		goto out;
	}
	ret = cmd_write(&c, OUT_TABLE, print_report, &rep);
	cmd_print_notes(&notes);
	if (!ret)
		ret = cmd_batch_exit(&rb.b, ret);
out:
	if (inited) {
		an_fn_release(&fr);
		an_at_release(&ar);
		an_ov_release(&ov);
		an_kern_release(&kr);
		an_ops_release(&pr);
		an_mem_release(&mr);
		an_comp_release(&cr);
	}
	an_rep_timeline_release(&tl);
	an_diff_release(&dr);
	cmd_side_runs_release(&rb.runs);
	if (have_hr)
		an_hist_release(&hr);
	for (i = 0; i < nruns; i++)
		an_run_release(&runs[i]);
	free(runs);
	cmd_common_release(&bc);
	cmd_common_release(&c);
	if (have_re)
		regfree(&id_re);
	free(ins);
	xp_pathlist_release(&paths);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}
