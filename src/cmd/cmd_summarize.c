/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat summarize: one summary line per input profile (an_run.h), for merge, diff and history. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "cmd.h"

struct sum_args {
	struct cmd_common c;
	int append;
	const char *tags;
};

struct sum_batch {
	const struct sum_args *a;
	const struct xp_pathlist *paths;
	const struct an_exec_opts *xo;
	char **tags;
	size_t ntags;
	unsigned plane_jobs;
	struct out_bytes lines;
	struct xp_notes *notes;
	struct cmd_batch b;
	size_t written;
	int ret;
};

static void *sum_work(size_t i, void *ctx)
{
	struct sum_batch *sb = ctx;
	struct cmd_input *in = cmd_input_process(&sb->a->c, sb->paths->paths[i], sb->plane_jobs, sb->xo, 1);

	/* the trace, read once for its sections, gives its kernels and ops as those commands read it */
	if (in && !in->code && !in->run)
		cmd_input_parts(&sb->a->c, sb->plane_jobs, in);
	return in;
}

static void sum_done(size_t i, void *result, void *ctx)
{
	struct sum_batch *sb = ctx;
	struct cmd_input *in = result;

	(void)i;
	if (sb->ret >= 0)
		goto out;
	if (cmd_batch_step(&sb->b, in, sb->notes)) {
		sb->ret = in ? in->code : EXIT_ERROR;
		goto out;
	}
	if (!in || in->code)
		goto out;
	if (cmd_input_line(&sb->a->c, in, NULL, sb->tags, sb->ntags, &sb->lines)) {
		cmd_error("out of memory");
		sb->ret = EXIT_ERROR;
		goto out;
	}
	sb->written++;
out:
	cmd_input_free(in);
}

/* Splits "K=V,K=V" into tags; each must have a key and '='. */
static int split_tags(const char *s, char ***out, size_t *n)
{
	size_t cap = 0;
	const char *p = s;

	*out = NULL;
	*n = 0;
	while (s && *p) {
		const char *e = strchr(p, ',');
		size_t len = e ? (size_t)(e - p) : strlen(p);
		const char *eq = memchr(p, '=', len);

		if (!eq || eq == p) {
			cmd_error("--tag: '%.*s' is not KEY=VALUE", (int)len, p);
			return EXIT_USAGE;
		}
		if (xp_grow(out, &cap, *n, sizeof(**out), 4) || !((*out)[*n] = strndup(p, len))) {
			cmd_error("out of memory");
			return EXIT_ERROR;
		}
		(*n)++;
		p += len + (e != NULL);
	}
	return -1;
}

/* The lines appended to path, all or none. */
static int append_lines(const char *path, int repair, const struct out_bytes *lines)
{
	struct cmd_append ap;
	int ret = cmd_append_open(&ap, path, repair);

	if (ret != CMD_GO_ON)
		return ret;
	ret = cmd_append_commit(&ap, lines->p, lines->n);
	cmd_append_close(&ap);
	return ret;
}

int cmd_summarize(int argc, char **argv)
{
	struct sum_args a = {0};
	const struct opt opts[] = {
		{"device", 'd', OPT_STR, &a.c.device, "PATTERN",
		 "only device planes whose name contains PATTERN, any case (analyses must ask for the same)"},
		{"min-duration", 0, OPT_DUR, &a.c.min_dur_ps, "DUR",
		 "drop device events shorter than DUR (analyses must ask for the same)"},
		{"children", 0, OPT_STR, &a.c.children, "REGEX",
		 "also keep each execution's --children time (analyses must ask for the same)"},
		{"tag", 0, OPT_STR, &a.tags, "K=V[,K=V...]", "free tags recorded with each run (batch=3,gpu=h100)"},
		{"append", 0, OPT_FLAG, &a.append, NULL,
		 "append to -o FILE (a summary file or none; under a lock, rolled back if it fails) instead of "
		 "replacing it"},
		{"repair", 0, OPT_FLAG, &a.c.repair, NULL,
		 "with --append: remove FILE's cut last line (an interrupted write) instead of refusing it"},
		{"output", 'o', OPT_STR, &a.c.output, "FILE",
		 "write to FILE (via a temporary name, renamed when complete); - or none: stdout"},
		CMD_OPTS_INPUT(&a.c),
		{0},
	};
	const struct opt_cmd cmd = {
		"summarize", "[OPTIONS] FILE|DIR|-...",
		"One summary line per input profile (JSON lines, SUMMARIES in xplane-stat(1)):\n"
		"its executions, each device's kernels and ops, the reader's warnings and where it\n"
		"came from. functions, autotune, kernels, ops, diff and history read summary files\n"
		"in place of traces and give the same result (kernels: quantiles of rows of more\n"
		"than 256 instances within 0.5%); merge combines them. Summaries of a cluster's\n"
		"profiles are made where each profile lies and merged anywhere.",
		opts, .min_pos = 1,
	};
	struct an_exec_opts xo = {0};
	struct xp_pathlist paths = {0};
	struct xp_notes notes = {0};
	struct sum_batch sb = {0};
	enum out_mode mode = OUT_TABLE;
	enum an_time t;
	const char **pos = NULL;
	struct cmd_out out = {0};
	size_t npos;
	int ret;

	cmd_common_init(&a.c);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (a.append && (!a.c.output || !strcmp(a.c.output, "-"))) {
		cmd_error("--append needs -o FILE");
		goto out;
	}
	if (a.c.repair && !a.append) {
		cmd_error("--repair goes with --append: give it too");
		goto out;
	}
	if ((ret = split_tags(a.tags, &sb.tags, &sb.ntags)) >= 0)
		goto out;
	ret = cmd_common_setup(&a.c, &mode, &t, &xo);
	if (ret >= 0)
		goto out;
	cmd_read_profile(&a.c, &an_exec_read_profile);	/* a summary summarised again: its runs, as they were */
	a.c.provenance = 1;
	a.c.sections = 1;
	if ((ret = cmd_batch_inputs(&sb.b, &a.c, pos, npos, &paths, &notes, &sb.plane_jobs)) >= 0)
		goto out;
	sb.a = &a;
	sb.paths = &paths;
	sb.xo = &xo;
	sb.notes = &notes;
	sb.ret = -1;
	ret = cmd_batch_run(&sb.b, cmd_jobs(&a.c, paths.n), sum_work, sum_done, &sb, &notes, &sb.ret);
	if (ret >= 0)
		goto out;
	if (sb.lines.failed) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	cmd_print_notes(&notes);
	if (a.append) {
		ret = sb.lines.n ? append_lines(a.c.output, a.c.repair, &sb.lines) : EXIT_OK;
	} else if (!(ret = cmd_out_open(&out, a.c.output))) {
		cmd_out_put(&out, sb.lines.p, sb.lines.n);
		ret = cmd_out_close(&out, 1);
	}
	ret = cmd_batch_exit(&sb.b, ret);
out:
	xp_strv_free(sb.tags, sb.ntags);
	out_bytes_release(&sb.lines);
	cmd_common_release(&a.c);
	xp_pathlist_release(&paths);
	xp_notes_release(&notes);
	free(pos);
	return ret;
}
