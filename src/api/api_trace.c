/* SPDX-License-Identifier: Apache-2.0 */
/* The public API's version, error codes and trace handle (include/xplane_stat.h). */
#include "api.h"

#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "an_analysis.h"
#include "an_cpu.h"
#include "an_exec.h"
#include "an_group.h"
#include "an_input.h"
#include "xp_guard.h"
#include "xp_input.h"
#include "xp_pool.h"

/* Threads for one trace's planes at most: as the command's --jobs. */
#define API_MAX_THREADS 256

#define STR_(x) #x
#define STR(x) STR_(x)

unsigned xps_version_number(void)
{
	return XPLANE_STAT_VERSION_NUMBER;
}

const char *xps_version_string(void)
{
	return STR(XPLANE_STAT_VERSION_MAJOR) "." STR(XPLANE_STAT_VERSION_MINOR) "." STR(
		XPLANE_STAT_VERSION_PATCH);
}

const char *xps_strerror(int code)
{
	switch (code) {
	case XPS_EOK:
		return "success";
	case XPS_ENOMEM:
		return "out of memory";
	case XPS_EIO:
		return "cannot open or read the input";
	case XPS_EFORMAT:
		return "not a valid XSpace";
	case XPS_ELIMIT:
		return "the input exceeds a limit";
	case XPS_EINVAL:
		return "invalid argument";
	default:
		return "unknown error";
	}
}

static int public_code(int xp_code)
{
	switch (xp_code) {
	case XP_OK:
		return XPS_EOK;
	case XP_ERR_NOMEM:
		return XPS_ENOMEM;
	case XP_ERR_IO:
		return XPS_EIO;
	case XP_ERR_LIMIT:
		return XPS_ELIMIT;
	case XP_ERR_USAGE:
		return XPS_EINVAL;
	default:		/* XP_ERR_FORMAT, and a code the reader should not return */
		return XPS_EFORMAT;
	}
}

int api_fail(const struct xp_err *err, char *errbuf, size_t errlen)
{
	int code = public_code(err->code ? err->code : XP_ERR_NOMEM);

	if (errbuf && errlen)
		snprintf(errbuf, errlen, "%s", err->msg[0] ? err->msg : xps_strerror(code));
	return code;
}

int api_re_compile(struct api_re *r, const char *pattern, const char *what, struct xp_err *err)
{
	char msg[256];
	int e;

	r->set = 0;
	if (!pattern)
		return 0;
	if (!(e = regcomp(&r->re, pattern, REG_EXTENDED))) {
		r->set = 1;
		return 0;
	}
	regerror(e, &r->re, msg, sizeof(msg));
	return xp_err_set(err, XP_ERR_USAGE, "%s: invalid regular expression '%.200s': %s", what, pattern, msg);
}

void api_re_free(struct api_re *r)
{
	if (r->set)
		regfree(&r->re);
	r->set = 0;
}

int api_execs(xps_trace *t, const struct an_exec_opts *xo, struct an_exec_list *l, struct xp_notes *notes,
	      struct xp_err *err)
{
	int ret = an_input_execs(t->t, xo, t->path, l, notes, NULL, err);

	if (an_input_check(t->t, t->path, err)) {
		an_exec_list_release(l);
		return XP_ERR_IO;
	}
	if (ret)
		an_exec_list_release(l);
	return ret;
}

int api_no_device_note(struct xp_notes *notes, const char *path, const char *device)
{
	return xp_notes_add(notes, "'%s': no device plane with events%s", path, device ? " matching --device" : "");
}

int api_add_traces(xps_trace *const *traces, size_t n, const struct an_analysis *an, void *r, const void *opts,
		   int (*none_of)(const void *one), const char *device, struct xp_notes *notes, struct xp_err *err)
{
	void *one = an->merge ? malloc(an->size) : NULL;
	size_t i, k;
	int ret = 0;

	if (an->merge && !one)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (i = 0; i < n && !ret; i++) {
		struct xp_trace *t = traces[i]->t;
		const char *path = traces[i]->path;
		void *into = one ? one : r;

		if (one)
			an->init(one, opts);
		/* planes an open deferred are read now: the host's, where the analysis reads them */
		for (k = 0; an->read.how == AN_READ_HOST && k < t->nplanes && !ret; k++)
			if (an_wants_host_plane(t->planes[k].name, NULL))
				ret = xp_trace_load_plane(t, k, err);
		if (!ret)
			ret = an->add(into, t, path, err);
		/* zeros read where the file shrank: that is the error */
		if (an_input_check(t, path, err))
			ret = XP_ERR_IO;
		else if (ret && ret != XP_ERR_NOMEM)
			an_input_name_err(err, path);
		if (!ret && (an_input_notes(notes, path, t) ||
			     (an->input_notes && an->input_notes(into, path, n > 1, notes)) ||
			     (n > 1 && none_of && none_of(into) && api_no_device_note(notes, path, device))))
			ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		if (!ret && one)
			ret = an->merge(r, one, err);
		if (one)
			an->release(one);
	}
	free(one);
	return ret;
}

int api_warnings(const struct an_analysis *an, const void *r, int several, struct xp_notes *notes,
		 const char *const **msgs, size_t *n, struct xp_err *err)
{
	if (an && an->notes && an->notes(r, several, notes))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	*msgs = (const char *const *)notes->msgs;
	*n = notes->n;
	return 0;
}

static int seen(const uint64_t *digests, size_t n, uint64_t d)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (digests[i] == d)
			return 1;
	return 0;
}

int api_runs(xps_trace *const *t, size_t n, const struct an_exec_opts *xo, int keep, int run_by,
	     int (*add)(void *ctx, const struct an_exec_list *l, struct xp_err *err), void *ctx,
	     struct xp_notes *notes, size_t *copies, struct an_groups *g, size_t *nadded, struct xp_err *err)
{
	uint64_t *digests = calloc(n + 1, sizeof(*digests));
	struct an_group_in *in = calloc(n + 1, sizeof(*in));
	struct xp_arena dirs;
	size_t i, ndigests = 0, k = 0;
	int ret = 0;

	memset(g, 0, sizeof(*g));
	xp_arena_init(&dirs);
	if (!digests || !in)
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (i = 0; i < n && !ret; i++) {
		const char *path = t[i]->path, *slash = strrchr(path, '/');
		struct an_exec_list l;
		uint64_t d;

		if ((ret = api_execs(t[i], xo, &l, notes, err)))
			break;
		/* as the command: a run given twice (the same executions) counts once */
		if (l.n && !keep) {
			d = an_exec_list_digest(&l);
			if (seen(digests, ndigests, d)) {
				++*copies;
				an_exec_list_release(&l);
				continue;
			}
			digests[ndigests++] = d;
		}
		if (!l.ndevices && api_no_device_note(notes, path, xo->device))
			ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		if (!ret)
			ret = add(ctx, &l, err);
		an_exec_list_release(&l);
		in[k].path = path;
		in[k].hostname = t[i]->t->nhostnames ? t[i]->t->hostnames[0] : NULL;
		if (!ret && !(in[k++].dir = slash ? xp_arena_strndup(&dirs, path, (size_t)(slash - path)) : "."))
			ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	if (!ret && an_group_runs(in, k, (enum an_run_by)run_by, g, notes))
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	*nadded = k;
	xp_arena_release(&dirs);
	free(digests);
	free(in);
	return ret;
}

int api_time_opts(const char *fn, int time, const char *children, int64_t min_duration_ps, struct xp_err *err)
{
	if (time != XPS_TIME_BUSY && time != XPS_TIME_SPAN && time != XPS_TIME_CHILDREN)
		return xp_err_set(err, XP_ERR_USAGE, "%s: time %d is not an XPS_TIME_*", fn, time);
	if (children && time == XPS_TIME_SPAN)
		return xp_err_set(err, XP_ERR_USAGE, "%s: children and XPS_TIME_SPAN exclude each other", fn);
	if (!children && time == XPS_TIME_CHILDREN)
		return xp_err_set(err, XP_ERR_USAGE, "%s: XPS_TIME_CHILDREN needs children", fn);
	if (min_duration_ps < 0)
		return xp_err_set(err, XP_ERR_USAGE, "%s: min_duration_ps is negative", fn);
	return 0;
}

int api_check_traces(const char *fn, xps_trace *const *traces, size_t ntraces, int have_out,
		     struct xp_err *err)
{
	size_t i;

	if (!have_out || (ntraces && !traces))
		return xp_err_set(err, XP_ERR_USAGE, "%s: traces and out must not be NULL", fn);
	for (i = 0; i < ntraces; i++)
		if (!traces[i])
			return xp_err_set(err, XP_ERR_USAGE, "%s: traces[%zu] is NULL", fn, i);
	return 0;
}

/*
 * Device planes are decoded now, on the threads asked for, whole (any
 * analysis may need any of their lines); every other plane when an analysis
 * asks for it (xp_trace_load_plane). Every key stat is kept: one trace
 * serves every analysis. Read through an_input_read as the command reads,
 * which for functions keeps fewer lines and stats and finds the same. A
 * trace with no device plane gets XLA:CPU's work as one (an_cpu.h).
 */
/* The identity of the file at path (device, inode, size, modification time); 0, or -1 when it has none. */
static int file_id(const char *path, uint64_t *dev, uint64_t *ino, uint64_t *size, int64_t *s, int64_t *ns)
{
	struct stat st;

	if (!strcmp(path, "-") || stat(path, &st))
		return -1;
	*dev = (uint64_t)st.st_dev;
	*ino = (uint64_t)st.st_ino;
	*size = (uint64_t)st.st_size;
	*s = (int64_t)st.st_mtim.tv_sec;
	*ns = (int64_t)st.st_mtim.tv_nsec;
	return 0;
}

int api_same_file(const struct xps_trace *t, struct xp_err *err)
{
	uint64_t dev, ino, size;
	int64_t s, ns;

	if (!t->have_id)
		return 0;
	if (file_id(t->path, &dev, &ino, &size, &s, &ns) || dev != t->dev || ino != t->ino || size != t->size ||
	    s != t->mtime_s || ns != t->mtime_ns)
		return xp_err_set(err, XP_ERR_IO, "'%.300s' changed or moved since it was opened", t->path);
	return 0;
}

int xps_trace_open(const char *path, const struct xps_read_opts *opts, xps_trace **out, char *errbuf,
		   size_t errlen)
{
	struct xps_read_opts o = {0};
	struct xp_read_opts ro = {0};
	struct xp_err err = {0};
	struct xps_trace *xt = NULL;
	unsigned jobs;
	int ret;

	if (out)
		*out = NULL;
	if (!path || !out) {
		xp_err_set(&err, XP_ERR_USAGE, "xps_trace_open: path and out must not be NULL");
		goto fail;
	}
	if (opts)
		o = *opts;
	xt = calloc(1, sizeof(*xt));
	if (!xt || !(xt->path = strdup(path))) {
		xp_err_set(&err, XP_ERR_NOMEM, "out of memory");
		goto fail;
	}
	jobs = o.threads ? o.threads : xp_online_cpus();
	ro.jobs = jobs > API_MAX_THREADS ? API_MAX_THREADS : jobs;
	ro.want_plane = an_exec_wants_plane;	/* want_ctx NULL: every device plane */
	ro.event_stats = XP_EVSTATS_KEYS;
	/* taken before the read: a summary line's provenance must be of the bytes read (api_same_file) */
	xt->have_id = !file_id(path, &xt->dev, &xt->ino, &xt->size, &xt->mtime_s, &xt->mtime_ns);
	ret = an_input_read(path, o.max_input_size ? o.max_input_size : XP_DEFAULT_MAX_INPUT, &ro, &xt->t, &err);
	if (ret == AN_INPUT_SUMMARY)
		xp_err_set(&err, XP_ERR_FORMAT, "'%s' is a summary of runs (xplane-stat summarize), not a trace",
			   path);
	if (ret)
		goto fail;
	{	/* a CPU-only JAX profile: XLA:CPU's work as a device, as the commands take it */
		struct an_cpu_made made;

		if (an_cpu_device(xt->t, &made, &err)) {
			an_input_name_err(&err, path);
			goto fail;
		}
	}
	*out = xt;
	return 0;
fail:
	xps_trace_free(xt);
	return api_fail(&err, errbuf, errlen);
}

void xps_trace_free(xps_trace *t)
{
	if (!t)
		return;
	xp_trace_free(t->t);
	free(t->path);
	free(t);
}

int xps_input_fault(void *addr)
{
	return xp_guard_fault(addr);
}
