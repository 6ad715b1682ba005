/* SPDX-License-Identifier: Apache-2.0 */
/* The analysis driver: one loop over inputs for every analysis command (cmd_driver.h). */
#include "cmd_driver.h"

#include <stdalign.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "an_input.h"

/* One input read (and, for some reads, analysed) on a worker thread. */
struct drive_input {
	struct cmd_input *in;
	alignas(max_align_t) unsigned char r[];	/* an input's own result (an->size bytes) */
};

/* Whether an input has a result of its own: where the analysis pools them, or the read fills one. */
static int own_result(const struct cmd_drive *d)
{
	enum an_read how = d->read->how;

	return d->a->an->merge || how == AN_READ_HOST || how == AN_READ_KERNELS || how == AN_READ_OPS;
}

static void drive_input_free(const struct cmd_drive *d, struct drive_input *di)
{
	if (!di)
		return;
	if (own_result(d))
		d->a->an->release(di->r);
	cmd_input_free(di->in);
	free(di);
}

static void *drive_work(size_t i, void *ctx)
{
	struct cmd_drive *d = ctx;
	const struct an_analysis *an = d->a->an;
	const char *path = d->paths.paths[i];
	struct drive_input *di = calloc(1, sizeof(*di) + (own_result(d) ? an->size : 0));

	if (!di)
		return NULL;
	if (own_result(d))
		an->init(di->r, d->opts);
	switch (d->read->how) {
	case AN_READ_TRACE:
		di->in = cmd_input_process(d->c, path, d->plane_jobs, NULL, 1);
		break;
	case AN_READ_HOST:
		if ((di->in = calloc(1, sizeof(*di->in)))) {
			di->in->path = path;
			cmd_host_analyse(d->c, d->plane_jobs, di->in, di->r, an->add);
		}
		break;
	case AN_READ_KERNELS:
		di->in = cmd_input_kernels(d->c, path, d->plane_jobs, (void *)di->r);
		break;
	case AN_READ_OPS:
		/* one input alone keeps its trace, to name its planes when it has no device plane */
		di->in = cmd_input_ops(d->c, path, d->plane_jobs, (void *)di->r, d->paths.n == 1);
		break;
	case AN_READ_EXECS:
		di->in = cmd_input_process(d->c, path, d->plane_jobs, &d->xo, d->a->keep_one_trace && d->paths.n == 1);
		break;
	}
	if (!di->in) {
		drive_input_free(d, di);
		return NULL;
	}
	return di;
}

static void drive_done(size_t i, void *result, void *ctx)
{
	struct cmd_drive *d = ctx;
	const struct an_analysis *an = d->a->an;
	struct drive_input *di = result;
	struct cmd_input *in = di ? di->in : NULL;
	struct xp_err err = {0};
	int r = 0;

	(void)i;
	if (d->ret >= 0)
		goto out;
	if (d->lines) {	/* every input a line, a failed one too */
		cmd_batch_step(&d->b, in, &d->notes);
		if (d->a->line(d, in) || (in && !in->code && cmd_history_add(d->c, in)))
			d->ret = EXIT_ERROR;
		goto out;
	}
	if (cmd_batch_step(&d->b, in, &d->notes)) {
		d->ret = in ? in->code : EXIT_ERROR;
		goto out;
	}
	if (!in || in->code)
		goto out;
	if (d->a->distinct_runs && !d->c->keep_duplicates && (r = cmd_distinct_check(&d->seen, in))) {
		/* recorded as given, counted once */
		if (r < 0 || cmd_history_add(d->c, in)) {
			cmd_error("out of memory");
			d->ret = EXIT_ERROR;
		}
		goto out;
	}
	if (cmd_history_add(d->c, in) ||
	    (own_result(d) && an->input_notes && an->input_notes(di->r, in->path, d->paths.n > 1, &d->notes)))
		r = XP_ERR_NOMEM;
	if (!r && d->a->input)
		r = d->a->input(d, in, own_result(d) ? (void *)di->r : NULL, &err);
	/*
	 * A trace kept lazily (one input alone) was read by the hook too. What
	 * the hook added cannot be taken back: the run fails.
	 */
	if (in->t && an_input_check(in->t, in->path, &err)) {
		cmd_error("%s", err.msg);
		d->ret = EXIT_INPUT;
		goto out;
	}
	if (!r && an->merge)
		r = an->merge(d->res, di->r, &err);
	if (r < 0) {
		cmd_error("%s", err.code ? err.msg : "out of memory");
		d->ret = EXIT_ERROR;
	} else if (r > 0) {
		d->ret = r;
	}
out:
	drive_input_free(d, di);
}

static int drive_print(FILE *f, enum out_mode mode, const struct out_style *st, const void *arg)
{
	const struct cmd_drive *d = arg;
	struct out_style several = *st;

	several.several = d->paths.n > 1;
	return d->a->print(f, mode, &several, d);
}

/* After the inputs of a streamed output: its close, the notes, and what after says. */
static int drive_stream_end(struct cmd_drive *d, struct cmd_out *out)
{
	int ret = cmd_out_close(out, 1);

	cmd_print_notes(&d->notes);
	if (!ret && d->a->after && (ret = d->a->after(d)) == CMD_GO_ON)
		ret = EXIT_OK;
	return cmd_batch_exit(&d->b, ret);
}

/* After the inputs: nothing found, finish, notes; CMD_GO_ON to print the result. */
static int drive_finish(struct cmd_drive *d)
{
	const struct an_analysis *an = d->a->an;
	struct xp_err err = {0};
	int ret, several = d->paths.n > 1;

	if (cmd_distinct_notes(&d->seen, &d->notes)) {
		cmd_error("out of memory");
		return EXIT_ERROR;
	}
	if (d->a->nothing && (ret = d->a->nothing(d)) != CMD_GO_ON) {
		if (an->notes && an->notes(d->res, several, &d->notes)) {
			cmd_error("out of memory");
			ret = EXIT_ERROR;
		}
		cmd_print_notes(&d->notes);
		return ret;
	}
	if ((an->finish && an->finish(d->res, &err)) || (an->notes && an->notes(d->res, several, &d->notes))) {
		cmd_error("%s", err.code ? err.msg : "out of memory");
		return EXIT_ERROR;
	}
	if (d->a->after && (ret = d->a->after(d)) != CMD_GO_ON) {
		cmd_print_notes(&d->notes);
		return ret;
	}
	return CMD_GO_ON;
}

static int drive_run(struct cmd_drive *d)
{
	struct cmd_out out = {0};
	int ret, have_out = 0;

	if ((ret = cmd_batch_inputs(&d->b, d->c, d->pos, d->npos, &d->paths, &d->notes, &d->plane_jobs)) >= 0)
		return ret;
	if (d->lines)
		return cmd_history_finish(d->c, cmd_batch_lines(&d->b, d->c->output, cmd_jobs(d->c, d->paths.n),
								  drive_work, drive_done, d, &d->notes, &d->ret));
	if (d->stream) {
		if ((ret = cmd_out_open(&out, d->c->output)))
			return ret;
		have_out = 1;
		d->out = out.f;
	}
	ret = cmd_batch_run(&d->b, cmd_jobs(d->c, d->paths.n), drive_work, drive_done, d, &d->notes, &d->ret);
	if (ret >= 0)
		goto out;
	if (d->stream) {
		have_out = 0;
		ret = drive_stream_end(d, &out);
		goto out;
	}
	if ((ret = drive_finish(d)) != CMD_GO_ON)
		goto out;
	ret = cmd_write_noted(d->c, d->mode, drive_print, d, &d->notes);
	if (!ret && d->empty)
		ret = EXIT_NOMATCH;
	ret = cmd_history_finish(d->c, cmd_batch_exit(&d->b, ret));
out:
	if (have_out)
		cmd_out_close(&out, 0);
	d->out = NULL;
	return ret;
}

/* Parsing and the checks every analysis command makes; CMD_GO_ON or the exit code. */
static int drive_begin(struct cmd_drive *d, const struct opt *opts, int argc, char **argv)
{
	const struct opt_cmd cmd = {d->a->name, "[OPTIONS] FILE|DIR|-...", d->a->about, opts, .min_pos = 1};
	int ret;

	cmd_common_init(d->c);
	if ((ret = cmd_parse(&cmd, argc, argv, &d->pos, &d->npos)) >= 0 ||
	    (ret = cmd_output_setup(d->c, &d->mode)) >= 0 || (ret = cmd_match_setup(d->c)) >= 0 ||
	    (d->a->check && (ret = d->a->check(d)) >= 0) || (ret = cmd_input_setup(d->c)) >= 0 ||
	    (d->a->an->read.how == AN_READ_EXECS && (ret = cmd_exec_setup(d->c, &d->time, &d->xo)) >= 0))
		return ret;
	if (!d->read)
		d->read = &d->a->an->read;
	cmd_read_profile(d->c, d->read);
	d->c->read.plane_read_ctx = (void *)d->opts;
	if ((ret = cmd_history_setup(d->c, &d->notes)) >= 0)
		return ret;
	return d->a->setup ? d->a->setup(d) : CMD_GO_ON;
}

int cmd_drive(struct cmd_drive *d, const struct opt *opts, int argc, char **argv)
{
	const struct an_analysis *an = d->a->an;
	int ret;

	d->ret = CMD_GO_ON;
	if ((ret = drive_begin(d, opts, argc, argv)) != CMD_GO_ON)
		goto out;
	if (!(d->res = calloc(1, an->size))) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	an->init(d->res, d->opts);
	ret = drive_run(d);
	an->release(d->res);
out:
	free(d->res);
	d->res = NULL;
	cmd_common_release(d->c);
	cmd_distinct_release(&d->seen);
	xp_pathlist_release(&d->paths);
	xp_notes_release(&d->notes);
	free(d->pos);
	d->pos = NULL;
	return ret;
}

int cmd_drive_nomatch(const struct cmd_drive *d)
{
	return d->b.failed ? d->b.first_code : EXIT_NOMATCH;
}

const char *cmd_drive_inputs(const struct cmd_drive *d)
{
	return d->paths.n == 1 ? "this input" : "any input";
}

int cmd_drive_no_device(struct cmd_drive *d, const struct cmd_input *in)
{
	if (d->paths.n == 1) {
		cmd_no_device_input(in, d->c->device);
		return EXIT_NOMATCH;
	}
	return xp_notes_add(&d->notes, "'%s': no device plane with events%s", in->path,
			    d->c->device ? " matching --device" : "");
}
