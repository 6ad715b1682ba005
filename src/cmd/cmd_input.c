/* SPDX-License-Identifier: Apache-2.0 */
/* Reading one input as a command needs it (trace or summary's run), on a worker thread, printing nothing. */
#include "cmd.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <libdeflate.h>

#include "an_cpu.h"
#include "an_input.h"

/*
 * Reads path: with lazy, only the device planes --device selects at first
 * (the others on demand) and of them the lines want_lines keeps (NULL: all).
 */
static int read_input(const struct cmd_common *c, const char *path, unsigned jobs, int lazy,
		      int (*want_plane)(const char *, void *),
		      void (*want_lines)(const char *, const char *const *, size_t, unsigned char *, void *),
		      struct xp_trace **t, struct xp_err *err)
{
	struct xp_read_opts ro = c->read;
	int ret;

	ro.jobs = jobs;
	if (lazy) {
		ro.want_plane = want_plane;
		ro.want_lines = want_lines;
		ro.want_ctx = (void *)c->device;
	}
	if (ro.event_stats != XP_EVSTATS_KEYS)
		ro.want_host_event = NULL;
	/* standard input cannot be read twice: its host planes keep XLA:CPU's keys at once */
	if (c->cpu_device && !strcmp(path, "-") && ro.host_keys)
		ro.host_keys |= AN_CPU_KEYS;
	ret = an_input_read(path, c->max_input, &ro, t, err);
	/* a CPU-only JAX profile read without XLA:CPU's keys: again with them */
	if (!ret && c->cpu_device && strcmp(path, "-") && an_cpu_needs_read(*t)) {
		xp_trace_free(*t);
		*t = NULL;
		if (ro.host_keys)
			ro.host_keys |= AN_CPU_KEYS;
		ro.release_events = 0;
		ret = an_input_read(path, c->max_input, &ro, t, err);
	}
	if (!ret && c->cpu_device) {	/* a CPU-only JAX profile: XLA:CPU's work as a device */
		struct an_cpu_made made;

		if ((ret = an_cpu_device(*t, &made, err))) {
			if (ret != XP_ERR_NOMEM)
				an_input_name_err(err, path);
			xp_trace_free(*t);
			*t = NULL;
		}
	}
	if (ret == AN_INPUT_SUMMARY && c->summaries)	/* one from standard input or a pipe: not looked into before */
		ret = xp_err_set(err, XP_ERR_USAGE, "'%s' holds a summary of runs: name summary files (not standard "
				 "input or a pipe) for this command to read them as summaries", path);
	else if (ret == AN_INPUT_SUMMARY)
		ret = xp_err_set(err, XP_ERR_USAGE, "'%s' is a summary of runs: this command needs the traces "
				 "themselves (summaries serve functions, autotune, diff, merge and history)", path);
	return cmd_exit_for(ret);
}

/* The same, lazily, keeping of the device planes only the lines want_lines keeps. */
static int cmd_read_lines(const struct cmd_common *c, const char *path, unsigned jobs,
		   void (*want_lines)(const char *, const char *const *, size_t, unsigned char *, void *),
		   struct xp_trace **t, struct xp_err *err)
{
	return read_input(c, path, jobs, 1, an_exec_wants_plane, want_lines, t, err);
}

void cmd_host_analyse(const struct cmd_common *c, unsigned jobs, struct cmd_input *in, void *result,
		      int (*add)(void *result, struct xp_trace *t, const char *input, struct xp_err *err))
{
	int r;

	in->code = cmd_read_host(c, in->path, jobs, &in->t, &in->err);
	if (in->code)
		return;
	if ((r = add(result, in->t, in->path, &in->err))) {
		if (r != XP_ERR_NOMEM)
			an_input_name_err(&in->err, in->path);
		in->code = cmd_exit_for(r);
	} else if (an_input_notes(&in->notes, in->path, in->t)) {
		in->code = EXIT_ERROR;
		xp_err_set(&in->err, XP_ERR_NOMEM, "out of memory");
	}
	cmd_input_changed(in);
	xp_trace_free(in->t);
	in->t = NULL;
}

int cmd_read_host(const struct cmd_common *c, const char *path, unsigned jobs, struct xp_trace **t,
		  struct xp_err *err)
{
	return read_input(c, path, jobs, 1, an_wants_host_plane, NULL, t, err);
}

static int wants_no_plane(const char *name, void *ctx)
{
	(void)name;
	(void)ctx;
	return 0;
}

int cmd_read_deferred(const struct cmd_common *c, const char *path, unsigned jobs, struct xp_trace **t,
		      struct xp_err *err)
{
	return read_input(c, path, jobs, 1, wants_no_plane, NULL, t, err);
}

/* The lines executions are found on and those kernels and ops read (summarize's one read for its sections). */
static void sections_want_lines(const char *plane, const char *const *names, size_t n, unsigned char *want,
				void *device_pattern)
{
	unsigned char small[2][64], *more = n <= sizeof(small[0]) ? small[0] : malloc(2 * n), *ops;
	size_t i;

	if (!more) {	/* every line then: more read, nothing missed */
		memset(want, 1, n);
		return;
	}
	ops = more == small[0] ? small[1] : more + n;
	memcpy(more, want, n);
	memcpy(ops, want, n);
	an_exec_want_lines(plane, names, n, want, device_pattern);
	an_kern_want_lines(plane, names, n, more, device_pattern);
	an_ops_want_lines(plane, names, n, ops, device_pattern);
	for (i = 0; i < n; i++)
		want[i] |= more[i] | ops[i];
	if (more != small[0])
		free(more);
}

/* The host events summarize's one read keeps: executions', and the thunks that count GPU op calls. */
static int sections_host_event(const char *name)
{
	return an_exec_wants_host_event(name) || an_host_thunk_name(name);
}

int cmd_read(const struct cmd_common *c, const char *path, unsigned jobs, int lazy,
	     struct xp_trace **t, struct xp_err *err)
{
	/* Without --children only the lines of device work are read. */
	if (c->sections) {
		struct cmd_common s = *c;

		if (s.read.keys)
			s.read.keys |= AN_KERN_KEYS | AN_OPS_KEYS;
		if (s.read.want_host_event == an_exec_wants_host_event)	/* and the ops' GPU calls */
			s.read.want_host_event = sections_host_event;
		return read_input(&s, path, jobs, lazy, an_exec_wants_plane, c->children ? NULL : sections_want_lines,
				  t, err);
	}
	return read_input(c, path, jobs, lazy, an_exec_wants_plane, c->children ? NULL : an_exec_want_lines, t,
			  err);
}

/* A summary's run as an input: its executions moved out of the table. */
static void run_input(const struct cmd_common *c, const struct an_exec_opts *xo, struct cmd_input *in)
{
	struct an_run *run = (struct an_run *)in->run;
	const char *what = NULL;
	size_t i;

	if (cmd_opt_differs(run->children, c->children))
		what = "--children";
	else if (run->min_dur_ps != xo->min_dur_ps)
		what = "--min-duration";
	else if (run->device && cmd_opt_differs(run->device, c->device))
		what = "--device";
	if (what) {
		in->code = EXIT_USAGE;
		xp_err_set(&in->err, XP_ERR_USAGE,
			   "'%s' line %zu: summarised with another %s than this command asks for: ask for "
			   "the same, or summarise the trace again", run->src_file, run->src_line, what);
		return;
	}
	in->execs = run->execs;
	memset(&run->execs, 0, sizeof(run->execs));
	in->have_execs = 1;
	if (c->device && !run->device) {
		if (an_run_select_devices(&in->execs, c->device))
			goto nomem;
		/* summarize --device: the line it writes holds the selected planes only */
		if (run->kernels)
			an_run_kernels_select(run->kernels, c->device);
		if (run->ops)
			an_run_ops_select(run->ops, c->device);
	}
	for (i = 0; i < run->nwarnings; i++)
		if (xp_notes_add(&in->notes, "%s", run->warnings[i]))
			goto nomem;
	in->reader_notes = in->notes.n;
	if (an_exec_notes(&in->notes, in->path, &in->execs))
		goto nomem;
	return;
nomem:
	in->code = EXIT_ERROR;
	xp_err_set(&in->err, XP_ERR_NOMEM, "out of memory");
}

/* A new input for path; *e (and in->run) the summary run it stands for, else NULL. NULL when out of memory. */
static struct cmd_input *input_new(const struct cmd_common *c, const char *path,
				   const struct cmd_run_entry **e)
{
	struct cmd_input *in = calloc(1, sizeof(*in));

	if (!in)
		return NULL;
	in->path = path;
	if ((*e = cmd_run_for(c, path)))
		in->run = &(*e)->run;
	if (*e && (*e)->run.nhostnames && !(in->hostname = strdup((*e)->run.hostnames[0]))) {
		free(in);
		return NULL;
	}
	return in;
}

/* The trace's hostname kept in in (its first); 0 or -1 when out of memory. */
static int keep_hostname(struct cmd_input *in)
{
	if (!in->t->nhostnames)
		return 0;
	return (in->hostname = strdup(in->t->hostnames[0])) ? 0 : -1;
}

/*
 * Whether reading t counted nothing odd: then the reads of kernels and ops
 * (other lines and key stats of the same planes) would have counted nothing
 * either, and their warnings are the profiler's errors and warnings alone.
 */
static int read_clean(const struct xp_trace *t)
{
	const struct xp_read_counts *k = &t->counts;

	return !k->aggregated_events && !k->events_missing_metadata && !k->stats_missing_metadata &&
	       !k->duplicate_metadata;
}

struct cmd_input *cmd_input_process(const struct cmd_common *c, const char *path, unsigned jobs,
				    const struct an_exec_opts *xo, int keep)
{
	const struct cmd_run_entry *e;
	struct cmd_input *in = input_new(c, path, &e);

	if (!in)
		return NULL;
	if (e) {
		if (xo) {
			run_input(c, xo, in);
		} else {	/* a command that took summaries but wants the trace itself */
			in->code = EXIT_USAGE;
			xp_err_set(&in->err, XP_ERR_USAGE, "'%s' line %zu: a summary's run, not a trace",
				   e->run.src_file, e->run.src_line);
		}
		return in;
	}
	in->code = cmd_read(c, path, jobs, xo != NULL, &in->t, &in->err);
	if (in->code)
		return in;
	if (c->sections && !read_clean(in->t)) {
		/* its counts would tell of lines executions are not found on: read as they are found */
		struct cmd_common alone = *c;

		alone.sections = 0;
		xp_trace_free(in->t);
		in->t = NULL;
		if ((in->code = cmd_read(&alone, path, jobs, xo != NULL, &in->t, &in->err)))
			return in;
	} else if (c->sections) {
		in->sections_read = 1;
	}
	if (keep_hostname(in))
		goto nomem;
	if (xo) {
		in->have_execs = 1;
		in->code = cmd_exit_for(an_input_execs(in->t, xo, path, &in->execs, &in->notes, &in->reader_notes,
						       &in->err));
	} else if (an_input_notes(&in->notes, path, in->t)) {
		goto nomem;
	} else {
		in->reader_notes = in->notes.n;
	}
	if (!in->code && c->provenance && an_file_crc(path, &in->size, &in->crc32, &in->err))
		in->code = EXIT_INPUT;
	if (!in->code && c->provenance) {
		in->nplanes = in->t->nplanes;
		if (an_plane_list(in->t, &in->planes, &in->plane_empty))
			goto nomem;
	}
	if (0) {
nomem:
		in->code = EXIT_ERROR;
		xp_err_set(&in->err, XP_ERR_NOMEM, "out of memory");
	}
	cmd_input_changed(in);
	if (!keep) {
		xp_trace_free(in->t);
		in->t = NULL;
	}
	return in;
}

int cmd_input_changed(struct cmd_input *in)
{
	if (!in->t || !an_input_check(in->t, in->path, &in->err))
		return 0;
	in->code = EXIT_INPUT;
	return 1;
}

void cmd_input_free(struct cmd_input *in)
{
	if (!in)
		return;
	xp_trace_free(in->t);
	free(in->hostname);
	an_planes_free(in->planes, in->plane_empty, in->nplanes);
	if (in->have_execs)
		an_exec_list_release(&in->execs);
	an_run_kernels_free(in->kernels);
	an_run_ops_free(in->ops);
	xp_notes_release(&in->notes);
	free(in);
}

/* How kernels (ops) read a trace: the device planes --device selects, as that command sets its keys. */
static int read_as(const struct cmd_common *c, const struct an_analysis *an, const char *path, unsigned jobs,
		   struct xp_trace **t, struct xp_err *err)
{
	struct cmd_common k = *c;

	/* these analyses need every plane's events, as their read profile says */
	memset(&k.read, 0, sizeof(k.read));
	k.read.reader = c->read.reader;
	an_read_opts(&k.read, &an->read);
	if (k.read.keys)
		k.read.keys |= c->extra_keys;
	k.children = NULL;
	k.sections = 0;
	return cmd_read_lines(&k, path, jobs, an->read.how == AN_READ_OPS ? an_ops_want_lines : an_kern_want_lines, t,
			      err);
}

/*
 * A summary's run for kernels (ops): the section there (else in->code and
 * err say why not), its warnings in in->notes.
 */
static int run_section(const struct cmd_common *c, struct cmd_input *in, int ops)
{
	const struct an_run *run = in->run;
	char **w = ops ? (run->ops ? run->ops->warnings : NULL) : (run->kernels ? run->kernels->warnings : NULL);
	size_t nw = ops ? (run->ops ? run->ops->nwarnings : 0) : (run->kernels ? run->kernels->nwarnings : 0), i;

	in->code = EXIT_USAGE;
	if (ops ? !run->ops : !run->kernels) {
		xp_err_set(&in->err, XP_ERR_USAGE, "'%s' line %zu: the summary holds no %s (a line of --history or "
			   "of an older xplane-stat): summarise the trace again", run->src_file, run->src_line,
			   ops ? "ops" : "kernels");
		return -1;
	}
	if (run->device && cmd_opt_differs(run->device, c->device)) {
		xp_err_set(&in->err, XP_ERR_USAGE, "'%s' line %zu: summarised with another --device than this "
			   "command asks for: ask for the same, or summarise the trace again", run->src_file,
			   run->src_line);
		return -1;
	}
	in->code = EXIT_OK;
	for (i = 0; i < nw; i++)
		if (xp_notes_add(&in->notes, "%s", w[i])) {
			in->code = EXIT_ERROR;
			xp_err_set(&in->err, XP_ERR_NOMEM, "out of memory");
			return -1;
		}
	in->reader_notes = in->notes.n;
	return 0;
}

/* After an analysis's add: its error naming the input, or the reader's warnings as notes. */
static void added(struct cmd_input *in, int r)
{
	if (r) {
		if (r != XP_ERR_NOMEM)
			an_input_name_err(&in->err, in->path);
		in->code = cmd_exit_for(r);
	} else if (in->t && an_input_notes(&in->notes, in->path, in->t)) {
		in->code = EXIT_ERROR;
		xp_err_set(&in->err, XP_ERR_NOMEM, "out of memory");
	}
	in->reader_notes = in->notes.n;
}

/* One section's analysis of an input: pool from its summary, or add its trace (kept with keep). */
struct section_fns {
	const struct an_analysis *an;	/* kernels or ops */
	int (*pool)(const struct an_run *run, void *r, struct xp_err *err);
};

static struct cmd_input *input_section(const struct cmd_common *c, const char *path, unsigned jobs,
				       const struct section_fns *f, void *r, int keep)
{
	const struct cmd_run_entry *e;
	struct cmd_input *in = input_new(c, path, &e);

	if (!in)
		return NULL;
	if (e) {
		if (!run_section(c, in, f->an == &an_ops_analysis) && f->pool(&e->run, r, &in->err))
			in->code = EXIT_ERROR;
		return in;
	}
	if ((in->code = read_as(c, f->an, path, jobs, &in->t, &in->err)))
		return in;
	if (keep_hostname(in)) {
		in->code = EXIT_ERROR;
		xp_err_set(&in->err, XP_ERR_NOMEM, "out of memory");
		return in;
	}
	added(in, f->an->add(r, in->t, path, &in->err));
	cmd_input_changed(in);
	if (!keep) {
		xp_trace_free(in->t);
		in->t = NULL;
	}
	return in;
}

static int kern_pool(const struct an_run *run, void *r, struct xp_err *err)
{
	return an_run_kernels_pool(run->kernels, r, err);
}

static int ops_pool(const struct an_run *run, void *r, struct xp_err *err)
{
	return an_run_ops_pool(run->ops, r, err);
}

struct cmd_input *cmd_input_kernels(const struct cmd_common *c, const char *path, unsigned jobs,
				    struct an_kern_result *r)
{
	static const struct section_fns f = {&an_kernels_analysis, kern_pool};

	return input_section(c, path, jobs, &f, r, 0);
}

struct cmd_input *cmd_input_ops(const struct cmd_common *c, const char *path, unsigned jobs,
				struct an_ops_result *r, int keep)
{
	static const struct section_fns f = {&an_ops_analysis, ops_pool};

	return input_section(c, path, jobs, &f, r, keep);
}

void cmd_input_parts(const struct cmd_common *c, unsigned jobs, struct cmd_input *in)
{
	struct xp_trace *kept = in->t && in->sections_read && read_clean(in->t) ? in->t : NULL;
	int ops;

	for (ops = 0; ops < 2 && !in->code; ops++) {
		struct cmd_input part;
		char ***w;
		size_t *nw;
		int r;

		memset(&part, 0, sizeof(part));
		part.path = in->path;
		part.t = kept;
		if (kept || !(part.code = read_as(c, ops ? &an_ops_analysis : &an_kernels_analysis, in->path, jobs,
						   &part.t, &part.err))) {
			r = ops ? an_run_ops_of(&in->ops, part.t, c->device, &part.err)
				: an_run_kernels_of(&in->kernels, part.t, c->device, &part.err);
			added(&part, r);
			cmd_input_changed(&part);
		}
		if (part.t != kept)
			xp_trace_free(part.t);
		if ((in->code = part.code)) {
			in->err = part.err;
			xp_notes_release(&part.notes);
			break;
		}
		w = ops ? &in->ops->warnings : &in->kernels->warnings;
		nw = ops ? &in->ops->nwarnings : &in->kernels->nwarnings;
		*w = part.notes.msgs;	/* the warnings move to the section */
		*nw = part.notes.n;
	}
	xp_trace_free(in->t);
	in->t = NULL;
}
