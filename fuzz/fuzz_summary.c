/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Summary files (an_run.h) and merge: the bytes as a summary file from
 * another machine. Either an_summary_split refuses them with a message naming
 * the file and a line, or every line parsed; then
 *   - each run written again (out_summary_line) reads back and writes the same
 *     bytes (the writer and the reader agree on everything they carry);
 *   - its executions go through functions, autotune, diff (both levels) and
 *     the device selection without a crash; its kernels and ops sections
 *     through kernels (every --by, with and without --device) and ops, and
 *     a kernel row's instances as diff takes them;
 *   - merge's order is a total order: the lines sorted, and sorted again
 *     from the reverse order, give the same sequence of bytes;
 *   - the runs grouped as the commands group profiles (an_group.h, by the
 *     directory of each line's path and its hostname, every --run-by): runs
 *     numbered in order of first appearance, file >= auto >= dir in number,
 *     and a diff side grouped so has that many runs.
 * Bytes that are not a summary are first made one's beginning, so that the
 * trace seeds (not summaries) still reach the parser.
 */
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_autotune.h"
#include "an_diff.h"
#include "an_functions.h"
#include "an_group.h"
#include "an_kernels.h"
#include "an_ops.h"
#include "an_run.h"
#include "an_summary.h"
#include "out_summary.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

static void fail(const char *what, const void *p, size_t n)
{
	fprintf(stderr, "fuzz_summary: %s\n--- (%zu bytes):\n%.*s\n", what, n, (int)(n > 4000 ? 4000 : n),
		(const char *)p);
	abort();
}

static void analyse(const struct an_exec_list *l, const regex_t *id_re)
{
	struct an_fn_opts fo = {.time = AN_TIME_BUSY};
	struct an_at_opts ao = {.id_re = id_re, .trim = 1, .alpha = 0.05, .time = AN_TIME_SPAN};
	struct an_diff_opts dopt = {.alpha = 0.05, .id_re = id_re, .min_effect_pct = AN_DIFF_MIN_EFFECT_PCT, .holm = 1};
	struct an_fn_result fr;
	struct an_at_result ar;
	struct an_diff_result dr;
	struct an_exec_list copy;
	struct xp_err err = {0};
	int level;

	an_fn_init(&fr, &fo);
	if (!an_fn_add(&fr, l, &err))
		an_fn_finish(&fr, &err);
	an_fn_release(&fr);
	an_at_init(&ar, &ao);
	if (!an_at_add(&ar, l, &err))
		an_at_finish(&ar, &err);
	an_at_release(&ar);
	for (level = AN_DIFF_FUNCTIONS; level <= AN_DIFF_AUTOTUNE; level++) {
		dopt.level = (enum an_diff_level)level;
		an_diff_init(&dr, &dopt);
		if (!an_diff_add(&dr, 0, l, &err) && !an_diff_add(&dr, 1, l, &err) && !an_diff_finish(&dr, &err))
			an_diff_gate(&dr, 1, 1);
		an_diff_release(&dr);
	}
	if (!an_exec_list_copy(&copy, l)) {
		an_run_select_devices(&copy, "gpu:1");
		an_exec_list_release(&copy);
	}
}

static int count_value(void *ctx, double ps, size_t weight)
{
	if (!(ps >= 0) || !weight)
		fail("a kernel row gave a negative or empty instance", "", 0);
	*(size_t *)ctx += weight;
	return 0;
}

/* The line's kernels and ops sections, pooled as the commands pool them (each mode reads the line anew). */
static void analyse_sections(const char *line, size_t len)
{
	static const char *const device[2] = {NULL, "gpu:1"};
	int by, d;

	for (by = AN_KERN_BY_NAME; by <= AN_KERN_BY_FUNCTION; by++)
		for (d = 0; d < 2; d++) {
			struct an_kern_opts ko = {.by = (enum an_kern_by)by, .device = device[d]};
			struct an_ops_opts oo = {.device = device[d], .by_category = by & 1, .sort = (enum an_ops_sort)by};
			struct an_kern_result kr;
			struct an_ops_result or;
			struct xp_err err = {0};
			struct an_run run;
			size_t i, n;

			if (an_summary_parse(line, len, "f.jsonl", 1, &run, &err))
				fail("a line that parsed once does not parse again", line, len);
			an_kern_init(&kr, &ko);
			if (run.kernels && !an_run_kernels_pool(run.kernels, &kr, &err) && !an_kern_finish(&kr, &err))
				for (i = 0; i < kr.nrows; i++) {
					n = 0;
					an_kern_row_each(&kr.rows[i], count_value, &n);
					if (n != kr.rows[i].instances || kr.rows[i].min > kr.rows[i].max ||
					    !(kr.rows[i].mean >= (double)kr.rows[i].min) ||
					    !(kr.rows[i].mean <= (double)kr.rows[i].max) || !(kr.rows[i].std >= 0))
						fail("a kernel row whose numbers disagree", line, len);
				}
			an_kern_release(&kr);
			an_ops_init(&or, &oo);
			if (run.ops && !an_run_ops_pool(run.ops, &or, &err))
				an_ops_finish(&or, &err);
			an_ops_release(&or);
			an_run_release(&run);
		}
}

/* The runs grouped by each --run-by, and a diff side grouped so. */
static void check_groups(const struct an_run *runs, size_t n, const char *line, size_t len)
{
	struct an_group_in *in = calloc(n + 1, sizeof(*in));
	char **dirs = calloc(n + 1, sizeof(*dirs));
	size_t i, k, count[3] = {0};
	int by;

	for (i = 0; in && dirs && i < n; i++) {
		const char *slash = strrchr(runs[i].path, '/');

		/* as the commands: a summary's run has its profile's directory */
		dirs[i] = slash ? strndup(runs[i].path, (size_t)(slash - runs[i].path)) : strdup(".");
		in[i] = (struct an_group_in){runs[i].path, dirs[i], runs[i].nhostnames ? runs[i].hostnames[0] : NULL};
	}
	for (by = AN_RUN_BY_AUTO; in && dirs && by <= AN_RUN_BY_FILE; by++) {
		struct an_groups g;
		struct an_diff_opts dopt = {.alpha = 0.05, .min_effect_pct = 1, .holm = 1};
		struct an_diff_result dr;
		struct xp_err err = {0};
		size_t next = 0;

		if (an_group_runs(in, n, (enum an_run_by)by, &g, NULL))
			continue;	/* out of memory */
		for (i = 0; i < n; i++) {
			if (g.run[i] > next || g.run[i] >= g.nruns)
				fail("runs not numbered in order of first appearance", line, len);
			if (g.run[i] == next)
				next++;
		}
		if (next != g.nruns || (by == AN_RUN_BY_FILE && g.nruns != n))
			fail("a grouping whose run count is wrong", line, len);
		count[by] = g.nruns;
		an_diff_init(&dr, &dopt);
		for (i = k = 0; i < n; i++)
			k += !an_diff_add(&dr, 0, &runs[i].execs, &err);
		if (k == n) {
			an_diff_group(&dr, 0, 0, g.run, n, g.nruns);
			if (dr.runs[0] != g.nruns)
				fail("a diff side grouped into another number of runs", line, len);
			an_diff_finish(&dr, &err);
		}
		an_diff_release(&dr);
		an_groups_release(&g);
	}
	if (count[AN_RUN_BY_FILE] && (count[AN_RUN_BY_DIR] > count[AN_RUN_BY_AUTO] ||
				      count[AN_RUN_BY_AUTO] > count[AN_RUN_BY_FILE]))
		fail("grouping by directory gives more runs than auto, or auto more than by file", line, len);
	for (i = 0; dirs && i < n; i++)
		free(dirs[i]);
	free(dirs);
	free(in);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static regex_t id_re;
	static int have_re;
	struct an_summary_line *lines = NULL, *back = NULL;
	struct out_bytes in = {0}, a = {0}, b = {0};
	struct xp_err err = {0};
	struct an_run *runs = NULL;
	size_t n = 0, i, nruns = 0;

	if (!have_re) {
		if (regcomp(&id_re, AN_AT_DEFAULT_ID_REGEX, REG_EXTENDED))
			abort();
		have_re = 1;
	}
	if (!an_summary_sniff(data, len))
		out_bytes_str(&in, AN_SUMMARY_MAGIC);
	out_bytes_put(&in, data, len);
	if (in.failed)
		goto out;
	if (an_summary_split((const char *)in.p, in.n, "f.jsonl", &lines, &n, &err)) {
		if (strncmp(err.msg, "'f.jsonl' ", 10))
			fail("an error that does not name the file", err.msg, strlen(err.msg));
		goto out;
	}
	for (i = 0; i < n; i++) {
		struct an_run r1, r2;

		if (an_summary_parse(lines[i].p, lines[i].len, "f.jsonl", i + 1, &r1, &err))
			fail("a line an_summary_split took does not parse", lines[i].p, lines[i].len);
		a.n = b.n = 0;
		if (out_summary_line(&r1, &a))
			goto next;	/* out of memory */
		if (an_summary_parse((const char *)a.p, a.n, "f.jsonl", 1, &r2, &err))
			fail("a written line does not read back", a.p, a.n);
		if (!out_summary_line(&r2, &b) && (a.n != b.n || memcmp(a.p, b.p, a.n)))
			fail("a line read back writes other bytes", b.p, b.n);
		analyse(&r2.execs, &id_re);
		an_run_release(&r2);
		analyse_sections((const char *)a.p, a.n);
next:
		if (!runs)
			runs = calloc(n, sizeof(*runs));
		if (runs)
			runs[nruns++] = r1;	/* kept for grouping */
		else
			an_run_release(&r1);
	}
	if (runs && nruns == n)
		check_groups(runs, n, (const char *)in.p, in.n);
	for (i = 0; i < nruns; i++)
		an_run_release(&runs[i]);
	free(runs);
	/* merge's order: sorted from two starting orders, the same bytes */
	if (n > 1 && (back = malloc(n * sizeof(*back)))) {
		for (i = 0; i < n; i++)
			back[i] = lines[n - 1 - i];
		qsort(lines, n, sizeof(*lines), an_summary_line_cmp);
		qsort(back, n, sizeof(*back), an_summary_line_cmp);
		for (i = 0; i < n; i++)
			if (lines[i].len != back[i].len || memcmp(lines[i].p, back[i].p, lines[i].len))
				fail("merge's order depends on the order of its inputs", lines[i].p, lines[i].len);
	}
out:
	free(back);
	an_summary_lines_free(lines, n);
	out_bytes_release(&in);
	out_bytes_release(&a);
	out_bytes_release(&b);
	return 0;
}
