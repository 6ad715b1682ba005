/* SPDX-License-Identifier: Apache-2.0 */
/* A batch of inputs: expanding the arguments, threads, progress on a terminal, failed inputs as warnings. */
#include "cmd.h"

#include <malloc.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static void batch_init(struct cmd_batch *b, size_t n)
{
#ifdef M_MMAP_THRESHOLD
	/*
	 * Many inputs: keep the memory one input freed for the next instead of
	 * handing it back and faulting it in again (most of the system time of a
	 * directory of small traces went there).
	 */
	if (n > 1) {
		mallopt(M_MMAP_THRESHOLD, 256 << 20);
		mallopt(M_TRIM_THRESHOLD, 512 << 20);
	}
#endif
	memset(b, 0, sizeof(*b));
	b->n = n;
	b->progress = n > 1 && isatty(STDERR_FILENO);
	b->start_ = now_s();
}

/* "xplane-stat: 120/1000 inputs (12%)" redrawn in place, after the first second. */
static void batch_draw(struct cmd_batch *b)
{
	double t;

	if (!b->progress)
		return;
	t = now_s();
	if (t - b->start_ < 1.0 || (t - b->last_draw_ < 0.1 && b->done < b->n))
		return;
	b->last_draw_ = t;
	b->drawn_ = 1;
	fflush(stdout);
	fprintf(stderr, "\rxplane-stat: %zu/%zu inputs (%zu%%)%s", b->done, b->n,
		b->done * 100 / b->n, b->failed ? ", some unreadable" : "");
	fflush(stderr);
}

/* Clears the progress line. */
static void batch_end(struct cmd_batch *b)
{
	if (b->drawn_)
		fputs("\r\033[K", stderr);
	b->drawn_ = 0;
}

int cmd_batch_step(struct cmd_batch *b, const struct cmd_input *in, struct xp_notes *notes)
{
	size_t i;

	b->done++;
	if (!in || in->code) {
		b->failed++;
		if (!b->first_code)
			b->first_code = in ? in->code : EXIT_ERROR;
		if (!in || in->code == EXIT_ERROR)
			b->fatal = 1;
		if (b->n == 1) {
			cmd_error("%s", in ? in->err.msg : "out of memory");
			return 1;
		}
		if (xp_notes_add(notes, "%s (input skipped)", in ? in->err.msg : "out of memory"))
			b->fatal = 1;
	} else {
		for (i = 0; i < in->notes.n; i++)
			if (xp_notes_add(notes, "%s", in->notes.msgs[i]))
				b->fatal = 1;
	}
	batch_draw(b);
	return 0;
}

int cmd_batch_run(struct cmd_batch *b, unsigned jobs, xp_pool_work_fn work, xp_pool_done_fn done,
		  void *ctx, const struct xp_notes *notes, const int *stop)
{
	xp_pool_run(b->n, jobs, work, done, ctx);
	batch_end(b);
	if (*stop >= 0)
		return *stop;
	if (b->n > 1 && b->failed == b->n) {
		cmd_print_notes(notes);
		cmd_error("none of the %zu inputs could be read", b->n);
		return b->first_code;
	}
	return CMD_GO_ON;
}

int cmd_batch_lines(struct cmd_batch *b, const char *output, unsigned jobs, xp_pool_work_fn work,
		    xp_pool_done_fn done, void *ctx, const struct xp_notes *notes, const int *stop)
{
	struct cmd_out out;
	int ret = cmd_out_open(&out, output);

	if (ret)
		return ret;
	b->lines = out.f;
	/* Lines on a terminal would be broken by the progress line. */
	if (out.f == stdout && isatty(STDOUT_FILENO))
		b->progress = 0;
	xp_pool_run(b->n, jobs, work, done, ctx);
	batch_end(b);
	cmd_print_notes(notes);
	ret = cmd_out_close(&out, *stop < 0);
	b->lines = NULL;
	if (ret)
		return ret;
	if (*stop >= 0)
		return *stop;
	if (!b->failed)
		return EXIT_OK;
	return b->fatal ? EXIT_ERROR : b->failed == b->n ? b->first_code : EXIT_PARTIAL;
}

int cmd_batch_exit(const struct cmd_batch *b, int ret)
{
	if (ret || !b->failed)
		return ret;
	cmd_error("%zu of %zu inputs could not be read; the result covers the other %zu",
		  b->failed, b->n, b->n - b->failed);
	return b->fatal ? EXIT_ERROR : EXIT_PARTIAL;
}

int cmd_batch_inputs(struct cmd_batch *b, struct cmd_common *c, const char **pos, size_t npos,
		     struct xp_pathlist *paths, struct xp_notes *notes, unsigned *plane_jobs)
{
	struct xp_err err = {0};

	if (xp_pathlist_expand(paths, pos, npos, &err) || (c->summaries && cmd_expand_summaries(c, paths, &err))) {
		cmd_error("%s", err.msg);
		return cmd_exit_for(err.code);
	}
	if (paths->duplicates)
		xp_notes_add(notes, "%zu file%s reached more than once (given twice, in two directories given, or "
			     "through a symbolic link): read once", paths->duplicates, paths->duplicates == 1 ? "" : "s");
	*plane_jobs = paths->n == 1 ? cmd_jobs(c, SIZE_MAX) : 1;
	batch_init(b, paths->n);
	return CMD_GO_ON;
}
