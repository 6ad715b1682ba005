/* SPDX-License-Identifier: Apache-2.0 */
#include "cmd.h"

#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "an_exec.h"
#include "out_run.h"
#include "xp_stray.h"
#include "an_functions.h"
#include "xp_input.h"
#include "xp_pool.h"

void cmd_common_init(struct cmd_common *c)
{
	memset(c, 0, sizeof(*c));
	c->max_input = XP_DEFAULT_MAX_INPUT;
	c->event_stats = XP_EVSTATS_KEYS;
}

static void verror(const char *fmt, va_list ap)
{
	fflush(stdout);
	fputs("xplane-stat: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cmd_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
}

int cmd_usage_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	verror(fmt, ap);
	va_end(ap);
	return EXIT_USAGE;
}

int cmd_output_mode(const struct cmd_common *c)
{
	if (c->json + c->csv + c->tsv > 1) {
		cmd_error("--json, --csv and --tsv exclude each other");
		return -1;
	}
	if (c->time_unit) {
		int u = out_unit_parse(c->time_unit);

		if (u < 0) {
			cmd_error("--time-unit: '%s' is not ns, us, ms or s", c->time_unit);
			return -1;
		}
		out_set_time_unit((enum out_unit)u);
	}
	return c->json ? OUT_JSON : c->csv ? OUT_CSV : c->tsv ? OUT_TSV : OUT_TABLE;
}

int cmd_exit_for(int code)
{
	switch (code) {
	case XP_OK:
		return EXIT_OK;
	case XP_ERR_IO:
	case XP_ERR_FORMAT:
	case XP_ERR_LIMIT:
		return EXIT_INPUT;
	case XP_ERR_USAGE:
		return EXIT_USAGE;
	default:
		return EXIT_ERROR;
	}
}

int cmd_regex(regex_t *re, const char *pattern, const char *option)
{
	int r = regcomp(re, pattern, REG_EXTENDED);

	if (r) {
		char msg[256];

		regerror(r, re, msg, sizeof(msg));
		cmd_error("%s: invalid regular expression '%s': %s", option, pattern, msg);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static void buf_free(void *b)
{
	xp_buf_release(b);
	free(b);
}

void cmd_err_name_input(struct xp_err *err, const char *path)
{
	char msg[sizeof(err->msg)];

	if (err->msg[0] == '\'')
		return;
	memcpy(msg, err->msg, sizeof(msg));
	snprintf(err->msg, sizeof(err->msg), "'%.200s': %.300s", path, msg);
}

/*
 * Reads path: with lazy, only the device planes --device selects at first
 * (the others on demand) and of them the lines want_lines keeps (NULL: all).
 */
static int read_input(const struct cmd_common *c, const char *path, unsigned jobs, int lazy,
		      int (*want_plane)(const char *, void *),
		      void (*want_lines)(const char *, const char *const *, size_t, unsigned char *, void *),
		      struct xp_trace **t, struct xp_err *err)
{
	struct xp_read_opts ro = {.reader = c->reader_, .jobs = jobs, .event_stats = c->event_stats};
	struct xp_buf *b = calloc(1, sizeof(*b));
	int ret;

	*t = NULL;
	if (!b) {
		xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		return EXIT_ERROR;
	}
	if (lazy) {
		ro.want_plane = want_plane;
		ro.want_lines = want_lines;
		ro.want_ctx = (void *)c->device;
	}
	ret = xp_buf_load(path, c->max_input, b, err);
	ro.input_mapped = b->mapped;
	if (c->event_stats == XP_EVSTATS_KEYS)
		ro.want_host_event = c->want_host_event;
	ro.host_keys = c->host_keys;
	ro.keys = c->keys;
	ro.plane_read = c->plane_read;
	ro.plane_read_ctx = c->plane_read_ctx;
	ro.plane_user_free = c->plane_user_free;
	ro.release_events = c->release_events;
	ro.line_events = c->line_events;
	ro.line_user_size = c->line_user_size;
	if (!ret && an_run_sniff(b->data, b->len)) {
		if (c->summaries)	/* one from standard input or a pipe: not looked into before */
			ret = xp_err_set(err, XP_ERR_USAGE,
					 "'%s' holds a summary of runs: name summary files (not standard input or "
					 "a pipe) for this command to read them as summaries", path);
		else
			ret = xp_err_set(err, XP_ERR_USAGE,
					 "'%s' is a summary of runs: this command needs the traces themselves "
					 "(summaries serve functions, autotune, diff, merge and history)", path);
	} else if (!ret) {
		ret = xp_trace_read_opts(&ro, b->data, b->len, t, err);
		if (ret)
			cmd_err_name_input(err, path);	/* the reader does not know the path */
	}
	if (!ret && (lazy || c->event_stats == XP_EVSTATS_INPUT)) {
		/* deferred planes read from it, and stats left there (XP_EVSTATS_INPUT) */
		xp_trace_adopt_buf(*t, buf_free, b);
		return EXIT_OK;
	}
	buf_free(b);
	return cmd_exit_for(ret);
}

int cmd_read_lines(const struct cmd_common *c, const char *path, unsigned jobs,
		   void (*want_lines)(const char *, const char *const *, size_t, unsigned char *, void *),
		   struct xp_trace **t, struct xp_err *err)
{
	return read_input(c, path, jobs, 1, an_exec_wants_plane, want_lines, t, err);
}

static int wants_host_plane(const char *name, void *ctx)
{
	(void)ctx;
	return !strncmp(name, "/host:", 6);
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
			cmd_err_name_input(&in->err, in->path);
		in->code = cmd_exit_for(r);
	} else if (cmd_note_counts(&in->notes, in->path, in->t)) {
		in->code = EXIT_ERROR;
		xp_err_set(&in->err, XP_ERR_NOMEM, "out of memory");
	}
	xp_trace_free(in->t);
	in->t = NULL;
}

int cmd_read_host(const struct cmd_common *c, const char *path, unsigned jobs, struct xp_trace **t,
		  struct xp_err *err)
{
	return read_input(c, path, jobs, 1, wants_host_plane, NULL, t, err);
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

int cmd_read(const struct cmd_common *c, const char *path, unsigned jobs, int lazy,
	     struct xp_trace **t, struct xp_err *err)
{
	/* Without --children only the lines of device work are read. */
	return read_input(c, path, jobs, lazy, an_exec_wants_plane, c->children ? NULL : an_exec_want_lines, t,
			  err);
}

int cmd_load(const char *path, uint64_t max_input, struct xp_trace **t)
{
	struct cmd_common c;
	struct xp_err err = {0};
	int ret;

	cmd_common_init(&c);
	c.max_input = max_input;
	ret = cmd_read(&c, path, 1, 0, t, &err);
	if (ret)
		cmd_error("%s", err.msg);
	return ret;
}

/* The runs of summary files among the inputs, by the pathlist entry that stands for each. */
struct cmd_run_entry {
	const char *key;	/* paths->paths[i] */
	struct an_run run;
};

struct cmd_runs {
	struct cmd_run_entry *e;
	size_t n, cap;
};

static void runs_free(struct cmd_runs *r)
{
	size_t i;

	if (!r)
		return;
	for (i = 0; i < r->n; i++)
		an_run_release(&r->e[i].run);
	free(r->e);
	free(r);
}

static int cmp_entry(const void *a, const void *b)
{
	const char *x = ((const struct cmd_run_entry *)a)->key, *y = ((const struct cmd_run_entry *)b)->key;

	return (x > y) - (x < y);
}

static const struct cmd_run_entry *run_for(const struct cmd_common *c, const char *path)
{
	struct cmd_run_entry k = {.key = path};

	if (!c->runs_ || !c->runs_->n)
		return NULL;
	return bsearch(&k, c->runs_->e, c->runs_->n, sizeof(k), cmp_entry);
}

/* Whether an option the run was summarised with differs from the command's. */
static int opt_differs(const char *run, const char *cmd)
{
	return (run == NULL) != (cmd == NULL) || (run && strcmp(run, cmd));
}

/* "'PATH': no device plane with events[ matching 'X'] (planes here: ...)" from a list of planes. */
static void no_device(const char *path, char *const *names, const unsigned char *empty, size_t n,
		      const char *pattern)
{
	char list[1024] = "";
	size_t i, len = 0;

	for (i = 0; i < n && len + 4 < sizeof(list); i++) {
		int w = snprintf(list + len, sizeof(list) - len, "%s%s%s", i ? ", " : "", names[i],
				 empty[i] ? " (no events)" : "");

		if (w < 0)
			break;
		len += (size_t)w;
	}
	if (len >= sizeof(list))
		strcpy(list + sizeof(list) - 5, "...");
	cmd_error("'%s': no device plane with events%s%s%s (planes here: %s)", path,
		  pattern ? " matching '" : "", pattern ? pattern : "", pattern ? "'" : "",
		  n ? list : "none");
}

/*
 * Every plane's name, and whether it is a device plane without device
 * events (device planes the reader deferred are read to say so).
 */
static int plane_list(struct xp_trace *t, char ***names, unsigned char **empty)
{
	struct xp_err err = {0};
	size_t i;

	*names = calloc(t->nplanes + 1, sizeof(**names));
	*empty = calloc(t->nplanes + 1, 1);
	if (!*names || !*empty)
		return -1;
	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p = &t->planes[i];

		if (an_is_device_plane(p->name))
			xp_trace_load_plane(t, i, &err);
		(*empty)[i] = an_is_device_plane(p->name) && p->loaded && !an_plane_device_events(p);
		if (!((*names)[i] = strdup(p->name)))
			return -1;
	}
	return 0;
}

static void free_planes(char **names, unsigned char *empty, size_t n)
{
	size_t i;

	for (i = 0; names && i < n; i++)
		free(names[i]);
	free(names);
	free(empty);
}

/* The size and crc32 of a file's bytes as stored; 0 and 0 for standard input. */
static int file_crc(const char *path, uint64_t *size, uint32_t *crc, struct xp_err *err)
{
	unsigned char buf[1 << 16];
	uLong c = crc32(0, Z_NULL, 0);
	uint64_t n = 0;
	FILE *f;
	size_t k;

	*size = 0;
	*crc = 0;
	if (!strcmp(path, "-"))
		return 0;
	if (!(f = fopen(path, "rb")))
		return xp_err_set(err, XP_ERR_IO, "cannot open '%s': %s", path, strerror(errno));
	while ((k = fread(buf, 1, sizeof(buf), f)) > 0) {
		c = crc32(c, buf, (uInt)k);
		n += k;
	}
	k = (size_t)ferror(f);
	fclose(f);
	if (k)
		return xp_err_set(err, XP_ERR_IO, "cannot read '%s'", path);
	*size = n;
	*crc = (uint32_t)c;
	return 0;
}

int cmd_input_line(const struct cmd_common *c, const struct cmd_input *in, const struct an_run_hist *hist,
		   char *const *tags, size_t ntags, struct out_bytes *b)
{
	const struct an_run *from = in->run;
	char *host = (char *)in->execs.hostname;
	struct an_run r = {0};

	r.path = (char *)in->path;
	if (from) {
		r.size = from->size;
		r.crc32 = from->crc32;
		r.tool = from->tool;
		r.hostnames = from->hostnames;
		r.nhostnames = from->nhostnames;
		r.hist = from->hist;
		r.tags = from->tags;
		r.ntags = from->ntags;
		r.planes = from->planes;
		r.plane_empty = from->plane_empty;
		r.nplanes = from->nplanes;
	} else {
		r.planes = in->planes;
		r.plane_empty = in->plane_empty;
		r.nplanes = in->nplanes;
		r.size = in->size;
		r.crc32 = in->crc32;
		r.tool = "xplane-stat " XPS_VERSION;
		r.hostnames = host && *host ? &host : NULL;
		r.nhostnames = host && *host;
	}
	if (hist)
		r.hist = *hist;
	if (ntags) {
		r.tags = (char **)tags;
		r.ntags = ntags;
	}
	r.device = (char *)c->device;
	r.children = (char *)c->children;
	r.min_dur_ps = c->min_dur_ps;
	r.warnings = in->notes.msgs;
	r.nwarnings = in->reader_notes;
	r.execs = in->execs;
	r.kernels = from ? from->kernels : in->kernels;
	r.ops = from ? from->ops : in->ops;
	return out_run_line(&r, b);
}

/* A summary's run as an input: its executions moved out of the table. */
static void run_input(const struct cmd_common *c, const struct an_exec_opts *xo, struct cmd_input *in)
{
	struct an_run *run = (struct an_run *)in->run;
	const char *what = NULL;
	size_t i;

	if (opt_differs(run->children, c->children))
		what = "--children";
	else if (run->min_dur_ps != xo->min_dur_ps)
		what = "--min-duration";
	else if (run->device && opt_differs(run->device, c->device))
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
	if (cmd_note_execs(&in->notes, in->path, &in->execs))
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
	if ((*e = run_for(c, path)))
		in->run = &(*e)->run;
	return in;
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
	if (xo) {
		int r = an_exec_find(in->t, xo, &in->execs, &in->err);

		in->have_execs = 1;
		if (r) {
			/* A plane read late can be malformed: name the input. */
			if (r != XP_ERR_NOMEM)
				cmd_err_name_input(&in->err, path);
			in->code = cmd_exit_for(r);
		}
	}
	/* After an_exec_find: the counts include the planes it read on demand. */
	if (!in->code && cmd_note_counts(&in->notes, path, in->t))
		goto nomem;
	in->reader_notes = in->notes.n;
	if (!in->code && in->have_execs && cmd_note_execs(&in->notes, path, &in->execs))
		goto nomem;
	if (!in->code && c->provenance && file_crc(path, &in->size, &in->crc32, &in->err))
		in->code = EXIT_INPUT;
	if (!in->code && c->provenance) {
		in->nplanes = in->t->nplanes;
		if (plane_list(in->t, &in->planes, &in->plane_empty))
			goto nomem;
	}
	if (0) {
nomem:
		in->code = EXIT_ERROR;
		xp_err_set(&in->err, XP_ERR_NOMEM, "out of memory");
	}
	if (!keep) {
		xp_trace_free(in->t);
		in->t = NULL;
	}
	return in;
}

void cmd_input_free(struct cmd_input *in)
{
	if (!in)
		return;
	xp_trace_free(in->t);
	free_planes(in->planes, in->plane_empty, in->nplanes);
	if (in->have_execs)
		an_exec_list_release(&in->execs);
	an_run_kernels_free(in->kernels);
	an_run_ops_free(in->ops);
	xp_notes_release(&in->notes);
	free(in);
}

/* How kernels (ops) read a trace: the device planes --device selects, as that command sets its keys. */
static int read_as(const struct cmd_common *c, int ops, const char *path, unsigned jobs, struct xp_trace **t,
		   struct xp_err *err)
{
	struct cmd_common k = *c;

	k.keys = ops ? AN_OPS_KEYS : AN_KERN_KEYS;
	k.want_host_event = NULL;
	k.host_keys = 0;
	k.children = NULL;
	k.plane_read = NULL;	/* these analyses need every plane's events */
	k.plane_read_ctx = NULL;
	k.plane_user_free = NULL;
	k.release_events = 0;
	k.line_events = NULL;
	k.line_user_size = 0;
	return ops ? cmd_read_lines(&k, path, jobs, an_ops_want_lines, t, err) : cmd_read(&k, path, jobs, 1, t, err);
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
	if (run->device && opt_differs(run->device, c->device)) {
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
			cmd_err_name_input(&in->err, in->path);
		in->code = cmd_exit_for(r);
	} else if (in->t && cmd_note_counts(&in->notes, in->path, in->t)) {
		in->code = EXIT_ERROR;
		xp_err_set(&in->err, XP_ERR_NOMEM, "out of memory");
	}
	in->reader_notes = in->notes.n;
}

/* One section's analysis of an input: pool from its summary, or add its trace (kept with keep). */
struct section_fns {
	int ops;	/* the section: ops, else kernels */
	int (*pool)(const struct an_run *run, void *r, struct xp_err *err);
	int (*add)(void *r, struct xp_trace *t, struct xp_err *err);
};

static struct cmd_input *input_section(const struct cmd_common *c, const char *path, unsigned jobs,
				       const struct section_fns *f, void *r, int keep)
{
	const struct cmd_run_entry *e;
	struct cmd_input *in = input_new(c, path, &e);

	if (!in)
		return NULL;
	if (e) {
		if (!run_section(c, in, f->ops) && f->pool(&e->run, r, &in->err))
			in->code = EXIT_ERROR;
		return in;
	}
	if ((in->code = read_as(c, f->ops, path, jobs, &in->t, &in->err)))
		return in;
	added(in, f->add(r, in->t, &in->err));
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

static int kern_add(void *r, struct xp_trace *t, struct xp_err *err)
{
	return an_kern_add(r, t, err);
}

static int ops_pool(const struct an_run *run, void *r, struct xp_err *err)
{
	return an_run_ops_pool(run->ops, r, err);
}

static int ops_add(void *r, struct xp_trace *t, struct xp_err *err)
{
	return an_ops_add(r, t, err);
}

struct cmd_input *cmd_input_kernels(const struct cmd_common *c, const char *path, unsigned jobs,
				    struct an_kern_result *r)
{
	static const struct section_fns f = {0, kern_pool, kern_add};

	return input_section(c, path, jobs, &f, r, 0);
}

struct cmd_input *cmd_input_ops(const struct cmd_common *c, const char *path, unsigned jobs,
				struct an_ops_result *r, int keep)
{
	static const struct section_fns f = {1, ops_pool, ops_add};

	return input_section(c, path, jobs, &f, r, keep);
}

void cmd_input_parts(const struct cmd_common *c, unsigned jobs, struct cmd_input *in)
{
	int ops;

	for (ops = 0; ops < 2 && !in->code; ops++) {
		struct cmd_input part;
		char ***w;
		size_t *nw;
		int r;

		memset(&part, 0, sizeof(part));
		part.path = in->path;
		if (!(part.code = read_as(c, ops, in->path, jobs, &part.t, &part.err))) {
			r = ops ? an_run_ops_of(&in->ops, part.t, c->device, &part.err)
				: an_run_kernels_of(&in->kernels, part.t, c->device, &part.err);
			added(&part, r);
		}
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
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void cmd_batch_init(struct cmd_batch *b, size_t n)
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

void cmd_batch_end(struct cmd_batch *b)
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
	cmd_batch_end(b);
	if (*stop >= 0)
		return *stop;
	if (b->n > 1 && b->failed == b->n) {
		cmd_print_notes(notes);
		cmd_error("none of the %zu inputs could be read", b->n);
		return b->first_code;
	}
	return -1;
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
	cmd_batch_end(b);
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

int cmd_note_counts(struct xp_notes *n, const char *path, const struct xp_trace *t)
{
	const struct xp_read_counts *c = &t->counts;
	size_t i;
	int r = 0;

	if (c->aggregated_events)
		r |= xp_notes_add(n, "'%s': %zu aggregated events (num_occurrences, no time) skipped",
				  path, c->aggregated_events);
	if (c->events_missing_metadata)
		r |= xp_notes_add(n, "'%s': %zu events refer to event metadata the file lacks (named \"\")",
				  path, c->events_missing_metadata);
	if (c->stats_missing_metadata)
		r |= xp_notes_add(n, "'%s': %zu stats refer to stat metadata the file lacks (ignored)",
				  path, c->stats_missing_metadata);
	if (c->duplicate_metadata)
		r |= xp_notes_add(n, "'%s': %zu metadata ids appear more than once (the last one is used)",
				  path, c->duplicate_metadata);
	for (i = 0; i < t->nerrors; i++)
		r |= xp_notes_add(n, "'%s': the profiler recorded an error: %s", path, t->errors[i]);
	for (i = 0; i < t->nwarnings; i++)
		r |= xp_notes_add(n, "'%s': the profiler recorded a warning: %s", path, t->warnings[i]);
	return r ? XP_ERR_NOMEM : 0;
}

/* What k events whose hlo_module names nothing become on device d. */
static const char *unnamed_fate(const struct an_device *d, size_t k)
{
	if (d->module_line)
		return k == 1 ? "the event is named by its own metadata"
			      : "the events are named by their own metadata";
	return k == 1 ? "its event belongs to no function" : "their events belong to no function";
}

int cmd_note_execs(struct xp_notes *n, const char *path, const struct an_exec_list *l)
{
	size_t i, k, forms_said = 0;	/* the executor forms, once per input */
	int r = 0;

	for (i = 0; i < l->ndevices; i++) {
		const struct an_device *d = &l->devices[i];

		if (d->extra_module_lines)
			r |= xp_notes_add(n, "'%s': plane '%s' has %zu 'XLA Modules' lines: only the first is "
					  "used, the %zu event%s on the other%s are not counted", path, d->name,
					  d->extra_module_lines + 1, d->extra_module_events,
					  d->extra_module_events == 1 ? "" : "s",
					  d->extra_module_lines == 1 ? "" : "s");
		if ((k = d->stray_events))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu event%s end%s more than %d windows after every "
					  "other event of the plane (a duration that reads like an absolute end "
					  "time): left out of executions, busy time and statistics", path, d->name,
					  k, k == 1 ? "" : "s", k == 1 ? "s" : "", XP_STRAY_WINDOWS);
		if ((k = d->stray_children))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu event%s with a stray end left out of "
					  "--children", path, d->name, k, k == 1 ? "" : "s");
		if ((k = d->module_ref_nowhere))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu hlo_module stat%s refer%s by ref_value to stat "
					  "metadata the file lacks: %s", path, d->name, k, k == 1 ? "" : "s",
					  k == 1 ? "s" : "", unnamed_fate(d, k));
		if ((k = d->odd_stats[XP_K_HLO_MODULE]))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu hlo_module stat%s %s not a string: %s",
					  path, d->name, k, k == 1 ? "" : "s", k == 1 ? "is" : "are",
					  unnamed_fate(d, k));
		if ((k = d->odd_stats[XP_K_PROGRAM_ID]))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu program_id stat%s %s neither an integer nor "
					  "digits (treated as absent)", path, d->name, k, k == 1 ? "" : "s",
					  k == 1 ? "is" : "are");
		if (d->corr_events && d->host_linkage != AN_LINK_OK)
			r |= xp_notes_add(n, "'%s': plane '%s': %zu device event%s carr%s a correlation_id but %s: "
					  "executions are split by the runs rule", path, d->name, d->corr_events,
					  d->corr_events == 1 ? "" : "s", d->corr_events == 1 ? "ies" : "y",
					  d->host_linkage == AN_LINK_NO_HOST_PLANE ? "the file has no host plane"
					  : d->host_linkage == AN_LINK_NO_LAUNCHES
					  ? "no host event carries a correlation_id (a launch)"
					  : d->host_linkage == AN_LINK_NO_EXECUTORS
					  ? "the host planes hold launches but no executor event around them"
					  : "the host planes hold neither launches (events with a correlation_id) nor "
					    "executor events");
		if ((d->host_linkage == AN_LINK_NO_EXECUTORS ||
		     d->host_linkage == AN_LINK_NO_LAUNCHES_NO_EXECUTORS) && !forms_said++)
			r |= xp_notes_add(n, "'%s': the executor events host linkage knows: %s", path,
					  an_executor_forms);
		if ((k = d->corr_no_launch))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu of %zu device events with a correlation_id have "
					  "no host launch with that id: they join executions by the runs rule",
					  path, d->name, k, d->corr_events);
		if ((k = d->corr_no_executor))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu of %zu device events with a correlation_id were "
					  "launched outside every executor event of their function: they join "
					  "executions by the runs rule", path, d->name, k, d->corr_events);
		if ((k = d->corr_ambiguous))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu of %zu device events with a correlation_id share "
					  "it with several host launches that neither the device's launching threads "
					  "nor time tell apart: they join executions by the runs rule", path, d->name,
					  k, d->corr_events);
		if ((k = d->runs_repeating))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu run%s of one function's events repeat%s the "
					  "same kernels, but no gap inside them is more than twice as long as the "
					  "others to show where calls start (a run of one repeated kernel never "
					  "shows it): each is counted as one execution and may hold several calls",
					  path, d->name, k, k == 1 ? "" : "s", k == 1 ? "s" : "");
		if ((k = d->odd_stats[XP_K_CORRELATION_ID]))
			r |= xp_notes_add(n, "'%s': plane '%s': %zu correlation_id stat%s %s not an integer "
					  "(treated as absent)", path, d->name, k, k == 1 ? "" : "s",
					  k == 1 ? "is" : "are");
	}
	return r ? XP_ERR_NOMEM : 0;
}

void cmd_no_device(const char *path, struct xp_trace *t, const char *pattern)
{
	char **names = NULL;
	unsigned char *empty = NULL;

	if (!plane_list(t, &names, &empty))
		no_device(path, names, empty, t->nplanes, pattern);
	else
		cmd_error("out of memory");
	free_planes(names, empty, t->nplanes);
}

void cmd_no_device_input(const struct cmd_input *in, const char *pattern)
{
	if (in->t)
		cmd_no_device(in->path, in->t, pattern);
	else if (in->run)
		no_device(in->path, in->run->planes, in->run->plane_empty, in->run->nplanes, pattern);
}

int cmd_out_open(struct cmd_out *o, const char *path)
{
	struct stat st;
	int fd;

	memset(o, 0, sizeof(*o));
	if (!path || !strcmp(path, "-")) {
		o->f = stdout;
		return EXIT_OK;
	}
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* A device or FIFO (-o /dev/null) is written in place: a rename would replace it. */
		o->path = strdup(path);
		o->f = o->path ? fopen(path, "w") : NULL;
		if (!o->f) {
			cmd_error("cannot open '%s': %s", path, o->path ? strerror(errno) : "out of memory");
			free(o->path);
			o->path = NULL;
			return EXIT_ERROR;
		}
		return EXIT_OK;
	}
	o->path = strdup(path);
	if (!o->path || asprintf(&o->tmp, "%s.tmp-XXXXXX", path) < 0) {
		cmd_error("out of memory");
		return EXIT_ERROR;
	}
	fd = mkstemp(o->tmp);
	if (fd >= 0) {
		/* mkstemp makes 0600; give the file the mode it would have had (or had). */
		mode_t mask = umask(0);

		umask(mask);
		fchmod(fd, stat(path, &st) == 0 ? st.st_mode & 07777 : 0666 & ~mask);
	}
	if (fd < 0 || !(o->f = fdopen(fd, "w"))) {
		cmd_error("cannot create '%s': %s", o->path, strerror(errno));
		if (fd >= 0) {
			close(fd);
			unlink(o->tmp);
		}
		free(o->path);
		free(o->tmp);
		memset(o, 0, sizeof(*o));
		return EXIT_ERROR;
	}
	return EXIT_OK;
}

int cmd_out_close(struct cmd_out *o, int ok)
{
	int ret = EXIT_OK;

	if (o->f == stdout || !o->f) {
		free(o->path);
		free(o->tmp);
		return EXIT_OK;	/* stdout is checked once, in main */
	}
	if (ok && (fflush(o->f) || ferror(o->f) || (o->tmp && fsync(fileno(o->f))))) {
		cmd_error("cannot write '%s': %s", o->path, strerror(errno));
		ok = 0;
		ret = EXIT_ERROR;
	}
	if (fclose(o->f) && ok) {
		cmd_error("cannot write '%s': %s", o->path, strerror(errno));
		ok = 0;
		ret = EXIT_ERROR;
	}
	if (ok && o->tmp && rename(o->tmp, o->path)) {
		cmd_error("cannot rename to '%s': %s", o->path, strerror(errno));
		ret = EXIT_ERROR;
		ok = 0;
	}
	if (!ok && o->tmp)
		unlink(o->tmp);
	free(o->path);
	free(o->tmp);
	memset(o, 0, sizeof(*o));
	return ret;
}

void cmd_print_notes(const struct xp_notes *n)
{
	size_t i;

	for (i = 0; i < n->n; i++)
		cmd_error("warning: %s", n->msgs[i]);
}

/* --time and --children into the time an execution is measured by. */
static int pick_time(const struct cmd_common *c, enum an_time *t)
{
	if (c->children) {
		if (c->time) {
			cmd_error("--children and --time exclude each other");
			return EXIT_USAGE;
		}
		*t = AN_TIME_CHILDREN;
	} else if (!c->time || !strcmp(c->time, "busy")) {
		*t = AN_TIME_BUSY;
	} else if (!strcmp(c->time, "span")) {
		*t = AN_TIME_SPAN;
	} else {
		cmd_error("--time: '%s' is not busy or span", c->time);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_parse(const struct opt_cmd *c, int argc, char **argv, const char ***pos, size_t *npos)
{
	char msg[256];
	int r = opt_parse(c, argc, argv, pos, npos, stdout, msg, sizeof(msg));

	if (r > 0)
		return EXIT_OK;
	if (r < 0) {
		cmd_error("%s", msg);
		return EXIT_USAGE;
	}
	return -1;
}

int cmd_write(const char *output, enum out_mode mode, cmd_print_fn print, const void *result)
{
	struct cmd_out out;
	int ret = cmd_out_open(&out, output);

	if (ret)
		return ret;
	if (print(out.f, mode, out.f == stdout && out_use_colour(stdout), result)) {
		cmd_error("out of memory");
		cmd_out_close(&out, 0);
		return EXIT_ERROR;
	}
	return cmd_out_close(&out, 1);
}

int cmd_input_setup(struct cmd_common *c)
{
	c->reader_ = c->reader ? xp_reader_find(c->reader) : xp_reader_default;
	if (!c->reader_) {
		cmd_error("--reader: '%s' is not a reader (wire, protobuf-c)", c->reader);
		return EXIT_USAGE;
	}
	return -1;
}

/* Whether gzip data's first inflated bytes are a summary's (head: the file's first n bytes). */
static int gz_summary(const unsigned char *head, size_t n)
{
	unsigned char out[sizeof(AN_RUN_MAGIC)];
	z_stream zs;
	int r;

	memset(&zs, 0, sizeof(zs));
	if (inflateInit2(&zs, 15 + 16) != Z_OK)
		return 0;
	zs.next_in = (unsigned char *)head;
	zs.avail_in = (uInt)n;
	zs.next_out = out;
	zs.avail_out = sizeof(out) - 1;
	do
		r = inflate(&zs, Z_SYNC_FLUSH);
	while (r == Z_OK && zs.avail_out && zs.avail_in);
	inflateEnd(&zs);
	return an_run_sniff(out, sizeof(out) - 1 - zs.avail_out);
}

/*
 * Whether path is a regular file that begins as a summary does (also when
 * gzip: its first inflated bytes). Standard input, pipes and devices are
 * never looked into: what the look read would be gone for the reader.
 */
static int is_summary(const char *path)
{
	unsigned char head[1 << 16];
	struct stat st;
	FILE *f;
	size_t n;

	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode) || !(f = fopen(path, "rb")))
		return 0;
	n = fread(head, 1, sizeof(AN_RUN_MAGIC), f);
	if (n >= 2 && head[0] == 0x1f && head[1] == 0x8b) {	/* gzip: enough of it to inflate the start */
		n += fread(head + n, 1, sizeof(head) - n, f);
		fclose(f);
		return gz_summary(head, n);
	}
	fclose(f);
	return an_run_sniff(head, n);
}

int cmd_runs_read(const char *path, uint64_t max_input, struct an_run **runs, size_t *n, struct xp_err *err)
{
	struct xp_buf b = {0};
	size_t cap = 0, lineno = 0, i, j;
	int ret;

	*runs = NULL;
	*n = 0;
	if ((ret = xp_buf_load(path, max_input, &b, err)))
		return ret;
	if (b.len && !an_run_sniff(b.data, b.len))
		ret = xp_err_set(err, XP_ERR_FORMAT, "'%s' is not a summary file (see 'xplane-stat summarize')", path);
	for (i = 0; i < b.len && !ret; i = j + 1) {
		const char *line = (const char *)b.data + i;

		lineno++;
		for (j = i; j < b.len && b.data[j] != '\n'; j++)
			;
		if (j == i)
			continue;	/* an empty line: nothing to read */
		if (xp_grow(runs, &cap, *n, sizeof(**runs), 16)) {
			ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
			break;
		}
		if (!(ret = an_run_parse(line, j - i, path, lineno, &(*runs)[*n], err)))
			(*n)++;
	}
	xp_buf_release(&b);
	if (ret) {
		for (i = 0; i < *n; i++)
			an_run_release(&(*runs)[i]);
		free(*runs);
		*runs = NULL;
		*n = 0;
	}
	return ret;
}

/* Replaces each summary file among paths by its runs (c->runs_). */
static int expand_summaries(struct cmd_common *c, struct xp_pathlist *paths, struct xp_err *err)
{
	struct xp_pathlist out = {0};
	struct cmd_runs *r = calloc(1, sizeof(*r));
	size_t i, k;
	int ret = 0;

	if (!r)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (i = 0; i < paths->n && !ret; i++) {
		struct an_run *runs = NULL;
		size_t nruns = 0;

		if (!is_summary(paths->paths[i])) {
			if (xp_grow(&out.paths, &out.cap, out.n, sizeof(*out.paths), 16)) {
				ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
				break;
			}
			out.paths[out.n++] = paths->paths[i];
			paths->paths[i] = NULL;
			continue;
		}
		if ((ret = cmd_runs_read(paths->paths[i], c->max_input, &runs, &nruns, err)))
			break;
		for (k = 0; k < nruns; k++) {
			char *name = ret ? NULL : strdup(runs[k].path);

			if (!ret && (!name || xp_grow(&out.paths, &out.cap, out.n, sizeof(*out.paths), 16) ||
				     xp_grow(&r->e, &r->cap, r->n, sizeof(*r->e), 16))) {
				free(name);
				ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
			}
			if (ret) {
				an_run_release(&runs[k]);
				continue;
			}
			out.paths[out.n++] = name;
			r->e[r->n].key = name;
			r->e[r->n++].run = runs[k];
		}
		free(runs);
	}
	if (r->n > 1)
		qsort(r->e, r->n, sizeof(*r->e), cmp_entry);
	/* the pathlist keeps its counts; its entries are now out's */
	for (i = 0; i < paths->n; i++)
		free(paths->paths[i]);
	free(paths->paths);
	paths->paths = out.paths;
	paths->n = out.n;
	paths->cap = out.cap;
	runs_free(c->runs_);
	c->runs_ = r;
	return ret;
}

int cmd_batch_inputs(struct cmd_batch *b, struct cmd_common *c, const char **pos, size_t npos,
		     struct xp_pathlist *paths, struct xp_notes *notes, unsigned *plane_jobs)
{
	struct xp_err err = {0};

	if (xp_pathlist_expand(paths, pos, npos, &err) || (c->summaries && expand_summaries(c, paths, &err))) {
		cmd_error("%s", err.msg);
		return cmd_exit_for(err.code);
	}
	if (paths->duplicates)
		xp_notes_add(notes, "%zu file%s found again through a symbolic link (read once)",
			     paths->duplicates, paths->duplicates == 1 ? "" : "s");
	*plane_jobs = paths->n == 1 ? cmd_jobs(c, SIZE_MAX) : 1;
	cmd_batch_init(b, paths->n);
	return -1;
}

unsigned cmd_jobs(const struct cmd_common *c, size_t n)
{
	size_t j = c->jobs ? c->jobs : xp_online_cpus();

	if (j > n)
		j = n;
	if (j > 256)
		j = 256;
	return j ? (unsigned)j : 1;
}

int cmd_common_setup(struct cmd_common *c, enum out_mode *mode, enum an_time *t,
		     struct an_exec_opts *xo)
{
	int m = cmd_output_mode(c), ret;

	if (m < 0)
		return EXIT_USAGE;
	ret = cmd_input_setup(c);
	if (ret >= 0)
		return ret;
	*mode = (enum out_mode)m;
	ret = pick_time(c, t);
	if (ret)
		return ret;
	if (c->children) {
		ret = cmd_regex(&c->child_re_, c->children, "--children");
		if (ret)
			return ret;
		c->have_child_ = 1;
	}
	memset(xo, 0, sizeof(*xo));
	xo->device = c->device;
	xo->children = c->have_child_ ? &c->child_re_ : NULL;
	xo->min_dur_ps = c->min_dur_ps;
	return -1;
}

void cmd_common_release(struct cmd_common *c)
{
	runs_free(c->runs_);
	c->runs_ = NULL;
	cmd_history_release(&c->hist_);
	out_bytes_release(&c->hist_lines_);
	if (c->have_child_)
		regfree(&c->child_re_);
	c->have_child_ = 0;
}
