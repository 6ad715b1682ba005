/* SPDX-License-Identifier: Apache-2.0 */
/*
 * History: --history FILE on an analysis appends its runs' summaries with
 * the git commit they were made at and a run number per commit;
 * `xplane-stat history FILE` shows each row's trend over those runs and
 * compares the latest run with the first run of its commit (or --baseline).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_autotune.h"
#include "an_diff.h"
#include "cmd.h"
#include "out_diff.h"
#include "out_history.h"

struct hist_output {
	const struct an_hist_result *r;
	const struct xp_notes *notes;
};

static int print_history(FILE *f, enum out_mode mode, const struct out_style *st, const void *arg)
{
	const struct hist_output *o = arg;

	return out_history(f, mode, o->r, o->notes, st);
}

/*
 * Copies of one input within one recorded run (a history file merged with
 * itself, one profile given twice) are one sample: left out, with a warning,
 * unless --keep-duplicates. Runs move down over those left out.
 */
static int drop_copies(struct an_run *runs, size_t *n, struct xp_notes *notes)
{
	struct cmd_distinct seen = {0};
	size_t i, kept = 0;
	int ret = 0;

	for (i = 0; i < *n; i++) {
		const struct an_run_hist *h = &runs[i].hist;
		char *scope = NULL, *name = NULL;
		int r = -1;

		if (asprintf(&scope, "\x1f%s\x1f%d\x1f%" PRIu64 "\x1f%" PRId64 "\x1f%s", h->commit ? h->commit : "",
			     h->dirty, h->run, h->time, h->host ? h->host : "") >= 0 &&
		    asprintf(&name, "%s line %zu", runs[i].src_file, runs[i].src_line) >= 0)
			r = h->present ? cmd_distinct_execs(&seen, &runs[i].execs, scope, name) : 0;
		free(scope);
		free(name);
		if (r < 0) {
			ret = -1;
			break;
		}
		if (r)
			an_run_release(&runs[i]);
		else
			runs[kept++] = runs[i];
	}
	for (; i < *n; i++)
		runs[kept++] = runs[i];
	*n = kept;
	if (!ret)
		ret = cmd_distinct_notes(&seen, notes);
	cmd_distinct_release(&seen);
	return ret;
}

int cmd_history(int argc, char **argv)
{
	struct cmd_common c;
	const char *level = NULL, *id_regex = NULL, *baseline = NULL, *gate_s = NULL, *gate95_s = NULL;
	double gate = -1, gate95 = -1;
	int allow_undecided = 0;
	const struct opt opts[] = {
		{"level", 'l', OPT_STR, &level, "functions|autotune",
		 "rows: functions and programs (default), or autotune candidates"},
		{"baseline", 'b', OPT_STR, &baseline, "REV",
		 "compare the latest run with the first run of commit REV (a prefix; '+' after it: the dirty tree)"},
		CMD_OPT_MATCH(&c, "functions"),
		{"id-regex", 0, OPT_STR, &id_regex, "REGEX",
		 "autotune level: group 1 of REGEX is the candidate id (default " AN_AT_DEFAULT_ID_REGEX ")"},
		CMD_OPT_DEVICE(&c, "gpu, TPU:1"),
		CMD_OPT_KEEP_DUPLICATES(&c),
		CMD_OPT_RUN_BY(&c),
		{"time", 0, OPT_STR, &c.time, "busy|span", "busy: union of device intervals (default); span: first start to last end"},
		{"gate", 0, OPT_STR, &gate_s, "PCT",
		 "exit 8 when a row of the latest run is slower than its baseline by more than PCT percent in the mean "
		 "with p < 0.05 (as diff --gate)"},
		{"gate-p95", 0, OPT_STR, &gate95_s, "PCT",
		 "exit 8 when a row's 95th percentile grows by more than PCT percent with p < 0.05 (as diff --gate-p95)"},
		{"allow-undecided", 0, OPT_FLAG, &allow_undecided, NULL,
		 "with a gate: pass rows with too few samples (else exit 10 names them)"},
		CMD_OPTS_FORMAT(&c),
		{0},
	};
	const struct opt_cmd cmd = {
		"history", "[OPTIONS] FILE",
		"Each row's mean over the runs recorded in FILE (by --history on functions or\n"
		"autotune), one column per run (commit, '+' for a dirty\n"
		"tree, '#' and the run number), and the latest run compared with the first run of\n"
		"its commit (or of the commit before, or --baseline's) as diff compares: change,\n"
		"Mann-Whitney U p-value and verdict; on a terminal slower rows are red, faster green.",
		opts, .min_pos = 1, .max_pos = 1, .pos_msg = "give one history file",
	};
	struct an_diff_opts dopt = {.alpha = 0.05, .min_effect_pct = AN_DIFF_MIN_EFFECT_PCT, .holm = 1};
	struct an_exec_opts xo;
	struct an_hist_result res = {0};
	struct hist_output out;
	struct an_run *runs = NULL;
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	regex_t id_re;
	int have_id = 0, have_res = 0, ret;
	enum out_mode mode = OUT_TABLE;
	const char **pos = NULL;
	size_t npos, nruns = 0, i;

	cmd_common_init(&c);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (level && !strcmp(level, "autotune")) {
		dopt.level = AN_DIFF_AUTOTUNE;
	} else if (level && strcmp(level, "functions")) {
		cmd_error("--level: '%s' is not functions or autotune", level);
		goto out;
	}
	if ((ret = cmd_number_opt(gate_s, "--gate", 0, 1e9, &gate)) >= 0 ||
	    (ret = cmd_number_opt(gate95_s, "--gate-p95", 0, 1e9, &gate95)) >= 0)
		goto out;
	if ((ret = cmd_common_setup(&c, &mode, &dopt.time, &xo)) >= 0)
		goto out;
	if ((ret = cmd_match_setup(&c)) >= 0)
		goto out;
	if ((ret = cmd_regex(&id_re, id_regex ? id_regex : AN_AT_DEFAULT_ID_REGEX, "--id-regex")))
		goto out;
	have_id = 1;
	dopt.match = cmd_match(&c);
	dopt.id_re = &id_re;
	if ((ret = cmd_runs_read(pos[0], c.max_input, &runs, &nruns, &err))) {
		cmd_error("%s", err.msg);
		ret = cmd_exit_for(ret);
		goto out;
	}
	if (!c.keep_duplicates && drop_copies(runs, &nruns, &notes)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	for (i = 0; i < nruns; i++) {
		if (c.device && runs[i].device && strcmp(runs[i].device, c.device)) {
			cmd_error("'%s' line %zu: recorded with another --device than this command asks for",
				  runs[i].src_file, runs[i].src_line);
			ret = EXIT_USAGE;
			goto out;
		}
		if (c.device && !runs[i].device && an_run_select_devices(&runs[i].execs, c.device)) {
			cmd_error("out of memory");
			ret = EXIT_ERROR;
			goto out;
		}
	}
	if ((ret = an_hist_compute(runs, nruns, &dopt, (enum an_run_by)c.run_by, baseline, &res, &err))) {
		cmd_error("'%s': %s", pos[0], err.msg);
		ret = cmd_exit_for(ret);
		goto out;
	}
	have_res = 1;
	if (res.runs_without_history)
		xp_notes_add(&notes, "%zu run%s in '%s' without history (made by summarize): left out",
			     res.runs_without_history, res.runs_without_history == 1 ? "" : "s", pos[0]);
	if (res.other_options)
		xp_notes_add(&notes, "%zu run%s in '%s' recorded with other --device, --children or --min-duration "
			     "than the latest: shown, never its baseline", res.other_options,
			     res.other_options == 1 ? "" : "s", pos[0]);
	if (!res.nrows) {
		cmd_print_notes(&notes);
		cmd_error("'%s': no %s in its runs", pos[0],
			  dopt.level == AN_DIFF_AUTOTUNE ? "autotune candidate" : "function execution");
		ret = EXIT_NOMATCH;
		goto out;
	}
	out.r = &res;
	out.notes = &notes;
	ret = cmd_write_noted(&c, mode, print_history, &out, &notes);
	if (!ret && (gate >= 0 || gate95 >= 0) && res.base_why == AN_HB_NONE) {
		/* the first run of a file: nothing to gate against, said as such */
		if (!allow_undecided) {
			cmd_error("gate: '%s' holds no earlier run to compare the latest with (its first run, or one "
				  "commit with one run): nothing was judged (--allow-undecided passes a first run)", pos[0]);
			ret = EXIT_UNDECIDED;
		}
	} else if (!ret && (gate >= 0 || gate95 >= 0)) {
		an_diff_gate(&res.diff, gate, gate95);
		ret = cmd_gate_exit(&res.diff, gate, gate95, allow_undecided);
	}
out:
	if (have_res)
		an_hist_release(&res);
	for (i = 0; i < nruns; i++)
		an_run_release(&runs[i]);
	free(runs);
	if (have_id)
		regfree(&id_re);
	cmd_common_release(&c);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}
