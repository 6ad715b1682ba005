/* SPDX-License-Identifier: Apache-2.0 */
/*
 * xplane-stat merge: summary files combined into one. The result is the
 * multiset of their lines in one canonical order (by path, size, crc32,
 * then the line's bytes), so merging is associative and commutative: any
 * tree of merges over the same files gives the same bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "an_group.h"
#include "an_summary.h"
#include "cmd.h"

struct merge_args {
	struct cmd_common c;
	int check;
};

/* One file's lines, checked on a worker thread. */
struct mfile {
	struct xp_buf b;
	struct an_summary_line *lines;
	size_t n;
	int code;
	struct xp_err err;
};

struct merge_ctx {
	const struct merge_args *a;
	const char *const *files;
	struct mfile **done;
	int ret;
};

static void mfile_free(struct mfile *f)
{
	if (!f)
		return;
	an_summary_lines_free(f->lines, f->n);
	xp_buf_release(&f->b);
	free(f);
}

static void *merge_work(size_t i, void *ctx)
{
	struct merge_ctx *m = ctx;
	struct mfile *f = calloc(1, sizeof(*f));
	int ret;

	if (!f)
		return NULL;
	ret = xp_buf_load(m->files[i], m->a->c.max_input, &f->b, &f->err);
	if (!ret)
		ret = an_summary_split((const char *)f->b.data, f->b.len, m->files[i], &f->lines, &f->n, &f->err);
	if (xp_buf_changed(&f->b))	/* the file shrank under the check: that is the error */
		ret = xp_buf_check(&f->b, m->files[i], &f->err);
	f->code = cmd_exit_for(ret);
	return f;
}

static void merge_done(size_t i, void *result, void *ctx)
{
	struct merge_ctx *m = ctx;
	struct mfile *f = result;

	m->done[i] = f;
	if (m->ret >= 0)
		return;
	if (!f) {
		cmd_error("out of memory");
		m->ret = EXIT_ERROR;
	} else if (f->code) {
		cmd_error("%s", f->err.msg);
		m->ret = f->code;
	}
}

/*
 * What merging tells of the runs (lines in canonical order): a profile
 * summarised twice with other bytes (its host would count twice), and the
 * grouping's notes (a run short of hosts, an ambiguous directory) as the
 * commands reading the result will group it. 0 or -1 when out of memory.
 */
static int merge_notes(const struct an_summary_line *all, size_t n, int run_by, struct xp_notes *notes)
{
	struct an_group_in *in = calloc(n + 1, sizeof(*in));
	struct xp_arena a = {0};
	struct an_groups g;
	const char *warned = NULL;	/* the last path warned of */
	size_t i, k = 0, twice = 0;
	int ret = -1;

	for (i = 0; in && i < n; i++) {
		const char *slash = strrchr(all[i].path, '/');

		if (i && !an_summary_line_cmp(&all[i - 1], &all[i]))
			continue;	/* a copy (warned of above): the readers count it once */
		if (i && !strcmp(all[i].path, all[i - 1].path) &&
		    (all[i].size != all[i - 1].size || all[i].crc32 != all[i - 1].crc32) &&
		    (!warned || strcmp(warned, all[i].path))) {
			warned = all[i].path;
			if (++twice <= 3 && xp_notes_add(notes, "'%s' was summarised more than once, from other bytes "
							 "each time: each is a profile of its run", all[i].path))
				goto out;
		}
		in[k].path = all[i].path;
		in[k].hostname = all[i].hostname;
		if (!(in[k++].dir = slash ? xp_arena_strndup(&a, all[i].path, (size_t)(slash - all[i].path)) : "."))
			goto out;
	}
	if (in && twice > 3 && xp_notes_add(notes, "%zu more profiles summarised more than once", twice - 3))
		goto out;
	if (in && !an_group_runs(in, k, (enum an_run_by)run_by, &g, notes)) {
		an_groups_release(&g);
		ret = 0;
	}
out:
	xp_arena_release(&a);
	free(in);
	return ret;
}

int cmd_merge(int argc, char **argv)
{
	struct merge_args a = {0};
	const struct opt opts[] = {
		{"check", 0, OPT_FLAG, &a.check, NULL, "only check the files (exit 3 naming the first bad line)"},
		{"output", 'o', OPT_STR, &a.c.output, "FILE",
		 "write to FILE (via a temporary name, renamed when complete); - or none: stdout"},
		{"jobs", 'j', OPT_COUNT, &a.c.jobs, "N", "threads checking files (default: online CPUs)"},
		CMD_OPT_RUN_BY(&a.c),
		{"max-input-size", 0, OPT_BYTES, &a.c.max_input, "SIZE",
		 "refuse input from stdin or a pipe, or gzip input, over SIZE bytes (default 16G)"},
		{0},
	};
	const struct opt_cmd cmd = {
		"merge", "[OPTIONS] SUMMARY...",
		"Combines summary files (from summarize, --history or merge) into one, each line\n"
		"checked. The result holds every run of every input once per time it appears, in a\n"
		"canonical order, so any grouping of merges gives the same file: merge the\n"
		"summaries of a cluster's profiles in a tree, in any order. Runs seen more than\n"
		"once (identical lines) are kept and counted in a warning. The lines are grouped\n"
		"into runs as the commands reading them group them (--run-by): a run with fewer\n"
		"hosts than the largest, or a profile summarised twice from other bytes, is warned of.",
		opts, .min_pos = 1, .pos_msg = "no summary file given",
	};
	struct merge_ctx m = {0};
	struct xp_notes notes = {0};
	struct an_summary_line *all = NULL;
	struct cmd_out out = {0};
	const char **pos = NULL;
	size_t npos, n = 0, i, k, dups = 0;
	int ret;

	cmd_common_init(&a.c);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	m.a = &a;
	m.files = pos;
	m.ret = -1;
	if (!(m.done = calloc(npos, sizeof(*m.done)))) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	xp_pool_run(npos, cmd_jobs(&a.c, npos), merge_work, merge_done, &m);
	if ((ret = m.ret) >= 0)
		goto out;
	for (i = 0; i < npos; i++)
		n += m.done[i]->n;
	if (!(all = malloc((n ? n : 1) * sizeof(*all)))) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	for (i = 0, n = 0; i < npos; i++)
		for (k = 0; k < m.done[i]->n; k++)
			all[n++] = m.done[i]->lines[k];
	if (a.check) {
		ret = EXIT_OK;
		goto out;
	}
	if (n > 1)
		qsort(all, n, sizeof(*all), an_summary_line_cmp);
	for (i = 1; i < n; i++)
		dups += !an_summary_line_cmp(&all[i - 1], &all[i]);
	if (dups)
		cmd_error("warning: %zu run%s appear%s more than once (identical lines): kept; check that "
			  "the inputs do not overlap", dups, dups == 1 ? "" : "s", dups == 1 ? "s" : "");
	if (merge_notes(all, n, a.c.run_by, &notes)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	cmd_print_notes(&notes);
	if ((ret = cmd_out_open(&out, a.c.output)))
		goto out;
	for (i = 0; i < n && !cmd_out_put(&out, all[i].p, all[i].len) && !cmd_out_put(&out, "\n", 1); i++)
		;
	/* the lines are written from the inputs' bytes: a file that shrank meanwhile gave zeros */
	for (i = 0; i < npos && !xp_buf_check(&m.done[i]->b, pos[i], &m.done[i]->err); i++)
		;
	if (i < npos) {
		cmd_error("%s", m.done[i]->err.msg);
		cmd_out_close(&out, 0);
		ret = EXIT_INPUT;
		goto out;
	}
	ret = cmd_out_close(&out, 1);
out:
	for (i = 0; m.done && i < npos; i++)
		mfile_free(m.done[i]);
	free(m.done);
	free(all);
	xp_notes_release(&notes);
	cmd_common_release(&a.c);
	free(pos);
	return ret;
}
