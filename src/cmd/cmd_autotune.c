/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat autotune: per candidate id, trimmed statistics over many profiles. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "an_autotune.h"
#include "an_group.h"
#include "an_compat.h"
#include "an_notes.h"
#include "cmd_driver.h"
#include "out_autotune.h"
#include "out_table.h"

struct at_args {
	struct cmd_common c;
	struct an_at_opts ao;
	struct an_compat_opts co;	/* with --compat */
	const char *id_regex, *compat;
	regex_t id_re;
	int have_id, all_devices, per_file, pool_programs, winner;
	int samples;		/* --samples: 0 runs, 1 executions */
	size_t trim, json_version;
	struct cmd_side_runs runs;	/* the inputs added, to group into runs */
};

/* --compat reads the trace its own way: every plane and stat, no executions found, no summaries. */
static const struct an_read_profile compat_read = {.how = AN_READ_TRACE, .event_stats = XP_EVSTATS_KEYS};

static int at_check(struct cmd_drive *d)
{
	struct at_args *a = d->args;

	if (a->compat && strcmp(a->compat, "ejkernel"))
		return cmd_usage_error("--compat: '%s' is not a known profiler (ejkernel is)", a->compat);
	if (a->compat && (a->c.time || a->c.min_dur_ps || a->all_devices || (a->trim != SIZE_MAX && a->trim != 1) ||
			  a->id_regex))
		return cmd_usage_error("--compat=ejkernel fixes --time, --min-duration, --all-devices, --trim and "
				       "--id-regex");
	if (a->compat && a->c.history)
		return cmd_usage_error("--history records executions, which --compat=ejkernel does not find");
	if (a->compat)
		d->read = &compat_read;
	if (a->json_version != 1 && a->json_version != 2)
		return cmd_usage_error("--json-version: %zu is not 1 or 2", a->json_version);
	if (a->winner && (d->mode != OUT_TABLE || a->per_file))
		return cmd_usage_error("--winner prints the fastest candidate's id alone: it excludes --json, --csv, "
				       "--tsv and --per-file");
	return CMD_GO_ON;
}

static int at_setup(struct cmd_drive *d)
{
	struct at_args *a = d->args;
	int ret;

	if ((ret = cmd_regex(&a->id_re, a->id_regex ? a->id_regex : AN_AT_DEFAULT_ID_REGEX, "--id-regex")))
		return ret;
	a->have_id = 1;
	if (a->id_re.re_nsub < 1)
		return cmd_usage_error("--id-regex: '%s' has no capture group for the id", a->id_regex);
	a->ao.time = d->time;
	a->ao.id_re = &a->id_re;
	a->ao.trim = a->trim == SIZE_MAX ? 1 : a->trim;	/* SIZE_MAX: not given */
	a->ao.trim_runs_auto = a->trim == SIZE_MAX;
	a->ao.all_devices = a->all_devices;
	a->ao.programs = a->pool_programs ? AN_AT_POOL_PROGRAMS : AN_AT_SPLIT_PROGRAMS;
	a->ao.alpha = 0.05;
	a->ao.run_means = !a->compat && !a->samples;
	a->co.device = a->c.device ? a->c.device : "gpu";
	a->co.children = d->xo.children;
	a->co.id_re = &a->id_re;
	if ((d->lines = a->per_file) && (a->c.csv || a->c.tsv))
		return cmd_usage_error("--per-file prints JSON lines: it excludes --csv and --tsv");
	return CMD_GO_ON;
}

/*
 * One input's samples into r, its warnings into notes; returns -1 to go on,
 * else an exit code with the message in err.
 */
static int add_input(const struct at_args *a, struct cmd_input *in, struct an_at_result *r,
		     struct xp_notes *notes, struct xp_err *err)
{
	int ret;

	if (a->compat) {
		struct an_compat_file info;

		ret = an_compat_add(in->t, &a->co, r, r->inputs++, &info, err);
		if (ret == XP_ERR_USAGE) {
			char msg[sizeof(err->msg)];

			memcpy(msg, err->msg, sizeof(msg));
			snprintf(err->msg, sizeof(err->msg), "'%.200s': %.300s", in->path, msg);
			return EXIT_NOMATCH;
		}
		if (!ret && info.truncated)
			ret = xp_notes_add(notes, "'%s': stopped after %d events on '%s', as --compat=ejkernel "
					   "prescribes; later events were not read", in->path,
					   AN_COMPAT_MAX_EVENTS, info.plane);
	} else {
		if (!in->execs.ndevices)
			xp_notes_add(notes, "'%s': no device plane with events%s", in->path,
				     a->c.device ? " matching --device" : "");
		ret = an_at_add(r, &in->execs, err);
	}
	if (ret) {
		if (!err->code)
			xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		return cmd_exit_for(ret);
	}
	return -1;
}

/* --per-file: the input's own candidates, with their samples, as one JSON line. */
static int at_line(struct cmd_drive *d, const struct cmd_input *in)
{
	struct an_at_result one;
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	size_t i;
	int ret;

	if (!in || in->code)
		return out_autotune_line(d->b.lines, in ? in->path : "", NULL, NULL,
					 in ? in->err.msg : "out of memory", in ? in->code : EXIT_ERROR);
	an_at_init(&one, d->opts);
	for (i = 0; i < in->notes.n; i++)
		xp_notes_add(&notes, "%s", in->notes.msgs[i]);
	ret = add_input(d->args, (struct cmd_input *)in, &one, &notes, &err);
	if (ret < 0 && an_at_finish(&one, &err))
		ret = EXIT_ERROR;
	if (ret < 0 && an_at_program_notes(&one, &notes))
		ret = EXIT_ERROR;
	if (ret < 0 && one.dropped_short &&
	    xp_notes_add(&notes, "%zu device event%s shorter than --min-duration dropped",
			 one.dropped_short, one.dropped_short == 1 ? "" : "s"))
		ret = EXIT_ERROR;
	if (ret < 0)
		ret = out_autotune_line(d->b.lines, in->path, &one, &notes, NULL, 0);
	else
		ret = out_autotune_line(d->b.lines, in->path, NULL, NULL, err.msg, ret);
	an_at_release(&one);
	xp_notes_release(&notes);
	return ret;
}

static int at_input(struct cmd_drive *d, struct cmd_input *in, void *r, struct xp_err *err)
{
	struct at_args *a = d->args;
	int ret = add_input(a, in, d->res, &d->notes, err);

	(void)r;
	if (ret < 0) {
		/* each input added is one of the runs to group */
		if (!a->compat && cmd_side_keep(&a->runs, in))
			return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		return 0;
	}
	cmd_error("%s", err->msg);
	return ret;
}

/* Once every input is added, before the statistics: the inputs grouped into runs (--run-by). */
static int at_group(struct cmd_drive *d)
{
	struct at_args *a = d->args;
	struct an_groups g;

	if (a->compat)
		return CMD_GO_ON;
	/* every execution a sample: how profiles group into runs changes nothing to warn of */
	if (cmd_side_groups(&a->runs, &a->c, &g, a->samples ? NULL : &d->notes)) {
		cmd_error("out of memory");
		return EXIT_ERROR;
	}
	an_at_group(d->res, g.run, a->runs.n, g.nruns);
	an_groups_release(&g);
	return CMD_GO_ON;
}

/* --winner: the fastest candidate, or why there is none (exit 9). */
static int at_winner(const struct an_at_result *r)
{
	const struct an_at_cand *rival;
	enum an_at_nowinner why;
	const struct an_at_cand *best = NULL;
	char id[256] = "", other[256] = "";
	size_t i;

	if (an_at_winner(r, &why, &rival))
		return CMD_GO_ON;
	for (i = 0; i < r->ncands; i++)
		if (r->cands[i].rank == 1)
			best = &r->cands[i];
	if (best)
		xp_escape_utf8(id, sizeof(id), best->id);
	if (rival)
		xp_escape_utf8(other, sizeof(other), rival->id);
	switch (why) {
	case AN_AT_TIED:
		cmd_error("no single fastest candidate: '%s' is tied with the fastest, '%s' (Welch p >= 0.05)", other,
			  id);
		break;
	case AN_AT_UNTESTED:
		if (best && best->s.n_used < 2)
			cmd_error("no single fastest candidate: the fastest, '%s', has too few samples to be told "
				  "apart from '%s' (2 are needed after trimming)", id, other);
		else
			cmd_error("no single fastest candidate: '%s' has too few samples to be told apart from the "
				  "fastest, '%s' (2 are needed after trimming)", other, id);
		break;
	case AN_AT_PROGRAMS:
		cmd_error("no single fastest candidate: the fastest ran as several programs (--pool-programs "
			  "pools them)");
		break;
	default:
		cmd_error("no single fastest candidate");
	}
	return EXIT_NO_WINNER;
}

/*
 * The result's warnings, printed before it in every mode but JSON version 2
 * (which carries them), then what nothing found says.
 */
static int at_after(struct cmd_drive *d)
{
	const struct at_args *a = d->args;
	const struct an_at_result *r = d->res;
	int ret = 0;

	ret = an_at_notes(r, a->compat != NULL, a->ao.trim, &d->notes);
	if (d->mode != OUT_JSON || a->json_version == 1) {
		cmd_print_notes(&d->notes);
		xp_notes_release(&d->notes);
	}
	if (ret) {
		cmd_error("out of memory");
		return EXIT_ERROR;
	}
	if (!r->ncands) {
		cmd_error("no autotune candidates: no function name matches '%s'",
			  a->id_regex ? a->id_regex : AN_AT_DEFAULT_ID_REGEX);
		return EXIT_NOMATCH;
	}
	return a->winner ? at_winner(r) : CMD_GO_ON;
}

static int at_print(FILE *f, enum out_mode mode, const struct out_style *st, const struct cmd_drive *d)
{
	const struct at_args *a = d->args;
	const struct an_at_cand *rival;
	enum an_at_nowinner why;

	if (!a->winner)
		return out_autotune(f, mode, d->res, (int)a->json_version, &d->notes, st);
	out_put_text(f, an_at_winner(d->res, &why, &rival)->id);
	fputc('\n', f);
	return 0;
}

static const struct cmd_analysis autotune = {
	.name = "autotune",
	.about = "Per autotuning candidate (functions named jit_autotune_fn_<i>): samples = its\n"
		 "mean device time in each run (a profile, or a session directory's profiles of\n"
		 "several hosts), or its executions' where there is one run (--samples executions:\n"
		 "always); trimmed mean and population std, min,\n"
		 "median, max, a 95% Student-t interval of the mean, rank, and whether a Welch test\n"
		 "(p >= 0.05) finds it tied with the fastest. --json prints {\"candidates\": {\"<i>\":\n"
		 "{\"mean_s\": ..., \"std_s\": ..., ...}}, \"fastest\": \"<i>\" or null, \"warnings\": [...]};\n"
		 "--winner prints the fastest id alone (exit 9 when none is). A candidate compiled\n"
		 "into several programs gets a row per program, and in JSON null statistics under\n"
		 "its id with the rows in \"programs\", unless --pool-programs. A summary file\n"
		 "(xplane-stat summarize) stands for the profiles it summarises.",
	.distinct_runs = 1,
	.an = &an_autotune_analysis, .check = at_check, .setup = at_setup, .input = at_input,
	.nothing = at_group, .after = at_after, .print = at_print, .line = at_line,
};

int cmd_autotune(int argc, char **argv)
{
	struct at_args a = {.trim = SIZE_MAX, .json_version = 2};
	const struct opt opts[] = {
		CMD_OPTS_SELECT(&a.c),
		{"id-regex", 0, OPT_STR, &a.id_regex, "REGEX",
		 "candidate id = group 1 of REGEX in function names (default " AN_AT_DEFAULT_ID_REGEX ")"},
		{"trim", 0, OPT_SIZE, &a.trim, "K",
		 "drop the K fastest and K slowest samples when over 2K remain (default 1; run means only from "
		 "5 runs on)"},
		{"all-devices", 0, OPT_FLAG, &a.all_devices, NULL,
		 "pool samples from every selected device (default: per input, the first device that ran a candidate)"},
		{"compat", 0, OPT_STR, &a.compat, "ejkernel",
		 "reproduce the numbers of ejkernel's Python profiler exactly, limits included"},
		{"pool-programs", 0, OPT_FLAG, &a.pool_programs, NULL,
		 "pool a candidate's programs (program ids) into one row; by default each program is a row of its own"},
		{"per-file", 0, OPT_FLAG, &a.per_file, NULL,
		 "a JSON line per input with its own candidates and their samples, in input order"},
		{"winner", 0, OPT_FLAG, &a.winner, NULL,
		 "print only the fastest candidate's id; exit 9 when none is fastest for sure (tied, too few samples)"},
		{"json-version", 0, OPT_SIZE, &a.json_version, "N",
		 "2 (default): {candidates, fastest, warnings}; 1: candidates keyed by id at the top (for one release)"},
		{"samples", 0, OPT_ENUM, &a.samples, "runs|executions",
		 "runs (default): with several runs, each candidate's mean in each run is a sample; executions: every "
		 "execution is"},
		CMD_OPT_RUN_BY(&a.c),
		CMD_OPT_KEEP_DUPLICATES(&a.c),
		CMD_OPTS_HISTORY(&a.c),
		CMD_OPTS_TAIL(&a.c),
	};
	struct cmd_drive d = {.a = &autotune, .c = &a.c, .args = &a, .opts = &a.ao};
	int ret;

	ret = cmd_drive(&d, opts, argc, argv);
	if (a.have_id)
		regfree(&a.id_re);
	cmd_side_runs_release(&a.runs);
	return ret;
}
