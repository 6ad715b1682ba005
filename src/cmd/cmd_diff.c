/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat diff BASE CURRENT: what changed between two sets of runs, with significance and a CI gate. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "an_autotune.h"
#include "an_diff.h"
#include "cmd.h"
#include "out_diff.h"

struct diff_args {
	struct cmd_common c;
	const char *level, *id_regex, *alpha, *gate, *gate95, *min_effect, *correction;
	int allow_undecided;
};

struct diff_output {
	const struct an_diff_result *r;
	const struct xp_notes *notes;
	double gate, gate95;
};

static int print_diff(FILE *f, enum out_mode mode, const struct out_style *st, const void *arg)
{
	const struct diff_output *o = arg;

	return out_diff(f, mode, o->r, o->notes, o->gate, o->gate95, st);
}

int cmd_diff(int argc, char **argv)
{
	struct diff_args a = {0};
	const struct opt opts[] = {
		{"level", 'l', OPT_STR, &a.level, "functions|kernels|ops|autotune",
		 "rows: functions and programs (default), kernels by name, HLO ops, or autotune candidates"},
		CMD_OPT_MATCH(&a.c, "functions (kernels, ops)"),
		{"id-regex", 0, OPT_STR, &a.id_regex, "REGEX",
		 "autotune level: group 1 of REGEX on function names is the candidate id (default "
		 AN_AT_DEFAULT_ID_REGEX ")"},
		{"alpha", 0, OPT_STR, &a.alpha, "P", "significance level of the tests (default 0.05)"},
		{"min-effect", 0, OPT_STR, &a.min_effect, "PCT",
		 "a change of the mean under PCT percent is same, however significant (default 1)"},
		{"correction", 0, OPT_STR, &a.correction, "holm|none",
		 "correct the rows' p-values for multiple comparisons: Holm's step-down (default) or none"},
		{"gate", 0, OPT_STR, &a.gate, "PCT",
		 "exit 8 when a row is slower by more than PCT percent in the mean with p < alpha"},
		{"gate-p95", 0, OPT_STR, &a.gate95, "PCT",
		 "exit 8 when a row's 95th percentile grows by more than PCT percent with p < alpha"},
		{"allow-undecided", 0, OPT_FLAG, &a.allow_undecided, NULL,
		 "with a gate: pass rows with too few samples (else exit 10 names them)"},
		CMD_OPTS_SELECT(&a.c),
		CMD_OPT_RUN_BY(&a.c),
		CMD_OPT_KEEP_DUPLICATES(&a.c),
		CMD_OPTS_TAIL(&a.c),
	};
	const struct opt_cmd cmd = {
		"diff", "[OPTIONS] BASE CURRENT",
		"Compares two sets of runs. Each side is a profile, a directory of them or a summary\n"
		"file. Per row: samples, mean, median and min on each side, the change of the mean\n"
		"(current / base) with a 95% interval, a Mann-Whitney U p-value (Welch's t beside\n"
		"it) and a verdict: faster, slower, same, new, gone or too few samples. A side of\n"
		"one run has its executions (kernels: instances) as samples; of several, each\n"
		"run's mean (ops: always). A run is a profile, or a session directory's profiles\n"
		"of different hosts (--run-by). Sorted by the change of the mean, largest first.\n"
		"--gate makes it a CI check (exit 8).",
		opts, .min_pos = 2, .max_pos = 2,
		.pos_msg = "diff compares two sets of runs: give BASE and CURRENT",
	};
	struct an_exec_opts xo = {0};
	struct an_diff_opts dopt = {.alpha = 0.05, .min_effect_pct = AN_DIFF_MIN_EFFECT_PCT, .holm = 1};
	struct an_diff_result res;
	struct diff_output out;
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	regex_t id_re;
	int have_id = 0, ret;
	enum out_mode mode = OUT_TABLE;
	double gate = -1, gate95 = -1;
	const char **pos = NULL;
	size_t npos, failed = 0, i, approximate = 0;

	cmd_common_init(&a.c);
	an_diff_init(&res, &dopt);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (a.level && !strcmp(a.level, "autotune")) {
		dopt.level = AN_DIFF_AUTOTUNE;
	} else if (a.level && !strcmp(a.level, "kernels")) {
		dopt.level = AN_DIFF_KERNELS;
	} else if (a.level && !strcmp(a.level, "ops")) {
		dopt.level = AN_DIFF_OPS;
	} else if (a.level && strcmp(a.level, "functions")) {
		cmd_error("--level: '%s' is not functions, kernels, ops or autotune", a.level);
		goto out;
	}
	if (a.correction && strcmp(a.correction, "holm") && strcmp(a.correction, "none")) {
		cmd_error("--correction: '%s' is not holm or none", a.correction);
		ret = EXIT_USAGE;
		goto out;
	}
	dopt.holm = !a.correction || !strcmp(a.correction, "holm");
	if ((ret = cmd_number_opt(a.alpha, "--alpha", 1e-12, 0.5, &dopt.alpha)) >= 0 ||
	    (ret = cmd_number_opt(a.min_effect, "--min-effect", 0, 1e6, &dopt.min_effect_pct)) >= 0 ||
	    (ret = cmd_number_opt(a.gate, "--gate", 0, 1e9, &gate)) >= 0 ||
	    (ret = cmd_number_opt(a.gate95, "--gate-p95", 0, 1e9, &gate95)) >= 0)
		goto out;
	ret = cmd_common_setup(&a.c, &mode, &dopt.time, &xo);
	if (ret >= 0)
		goto out;
	if ((ret = cmd_match_setup(&a.c)) >= 0)
		goto out;
	if ((ret = cmd_regex(&id_re, a.id_regex ? a.id_regex : AN_AT_DEFAULT_ID_REGEX, "--id-regex")))
		goto out;
	have_id = 1;
	dopt.match = cmd_match(&a.c);
	dopt.id_re = &id_re;
	an_diff_init(&res, &dopt);
	cmd_read_profile(&a.c, &an_exec_read_profile);
	for (i = 0; i < 2; i++)
		if ((ret = cmd_side_read(&a.c, &xo, (int)i, pos[i], &res, &notes, &failed, &approximate)) >= 0)
			goto out;
	if (dopt.level == AN_DIFF_OPS && (res.runs[0] == 1 || res.runs[1] == 1))
		xp_notes_add(&notes, "ops: a profile gives one sample per op, its mean time per occurrence (summaries "
			     "keep an op's sums): a side of one profile cannot show a significant change");
	if (approximate)
		xp_notes_add(&notes, "%zu kernel%s of a side of one profile: instances a summary kept as a sketch "
			     "are its buckets' values (within %g%%): their statistics and p-values are approximate",
			     approximate, approximate == 1 ? "" : "s", AN_SKETCH_ALPHA * 100);
	an_diff_finish(&res, &err);
	if (!res.nrows) {
		cmd_print_notes(&notes);
		cmd_error("nothing to compare: no %s on either side",
			  dopt.level == AN_DIFF_AUTOTUNE ? "autotune candidate" : dopt.level == AN_DIFF_KERNELS
			  ? "kernel" : dopt.level == AN_DIFF_OPS ? "HLO op" : "function execution");
		ret = EXIT_NOMATCH;
		goto out;
	}
	an_diff_gate(&res, gate, gate95);
	out.r = &res;
	out.notes = &notes;
	out.gate = gate;
	out.gate95 = gate95;
	ret = cmd_write_noted(&a.c, mode, print_diff, &out, &notes);
	if (!ret && (gate >= 0 || gate95 >= 0))
		ret = cmd_gate_exit(&res, gate, gate95, a.allow_undecided);
	if (failed && (!ret || ret == EXIT_GATE || ret == EXIT_UNDECIDED)) {	/* the gate's 8 or 10 before 6 */
		cmd_error("%zu input%s could not be read; the comparison covers the rest", failed,
			  failed == 1 ? "" : "s");
		if (!ret)
			ret = EXIT_PARTIAL;
	}
out:
	if (have_id)
		regfree(&id_re);
	an_diff_release(&res);
	cmd_common_release(&a.c);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}
