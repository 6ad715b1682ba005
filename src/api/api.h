/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The public API's glue (include/xplane_stat.h) over the reader (xp/) and the
 * analyses (an/), and the summary line's writer (out/): the trace handle and
 * how an internal error reaches the caller.
 * Nothing here prints, exits or keeps state between calls.
 */
#ifndef API_H
#define API_H

#include <math.h>
#include <regex.h>
#include <stddef.h>
#include <stdlib.h>

#include "xp_err.h"
#include "xp_model.h"
#include "xplane_stat.h"

struct xps_trace {
	struct xp_trace *t;	/* owns the input's bytes (host planes are read from them on demand) */
	char *path;		/* as given, for messages */
	int have_id;		/* a file (not standard input) whose identity was taken at open: */
	uint64_t dev, ino, size;
	int64_t mtime_s, mtime_ns;
};

/* 0 when t's path still names the file it was opened from, unchanged; else XP_ERR_IO (err set). */
int api_same_file(const struct xps_trace *t, struct xp_err *err);

/* err's message into errbuf (when there is room), and its code as an XPS_E* code, which it returns. */
int api_fail(const struct xp_err *err, char *errbuf, size_t errlen);
/* A pattern option, compiled when given: re is valid when set. */
struct api_re {
	regex_t re;
	int set;
};
/*
 * Compiles pattern (an extended regex) into r; NULL leaves r unset. 0, or
 * an XP_ERR_USAGE naming what (the option) and why not.
 */
int api_re_compile(struct api_re *r, const char *pattern, const char *what, struct xp_err *err);
/* The compiled pattern, or NULL when none was given. */
static inline const regex_t *api_re_get(const struct api_re *r)
{
	return r->set ? &r->re : NULL;
}
void api_re_free(struct api_re *r);
/* ps as the commands' JSON gives them in ns: rounded to the ps (out_json_add_ns). */
/* p = calloc(n, sizeof(*p)): 0, or XP_ERR_NOMEM with err set. */
#define API_CALLOC(p, n, err) \
	(((p) = calloc((n), sizeof(*(p)))) ? 0 : xp_err_set((err), XP_ERR_NOMEM, "out of memory"))

/* A rate, peak or share as the command's JSON gives it: NAN where it has none (negative or not finite). */
static inline double api_known(double v)
{
	return v >= 0 && isfinite(v) ? v : NAN;
}

static inline double api_ns(double ps)
{
	return __builtin_round(ps) / 1000.0;
}
/*
 * One trace's executions, as the command finds them, and the warnings it
 * gives of them (its reader's, the executions') in notes: 0, or an
 * xp_errcode with err naming the input (a plane read now may be malformed,
 * or zeros where the file shrank since it was opened: XP_ERR_IO); l is
 * then empty.
 */
struct an_exec_opts;
struct an_exec_list;
int api_execs(xps_trace *t, const struct an_exec_opts *xo, struct an_exec_list *l, struct xp_notes *notes,
	      struct xp_err *err);
/*
 * A set of runs as the commands read one: each of the n traces' executions
 * found (api_execs; its warnings, and one for a trace without a device
 * plane, to notes), one whose executions a trace before it had (a copy of
 * a run) skipped unless keep (*copies counts them), the others passed to
 * add(ctx, executions) in order; then those traces grouped into runs as
 * run_by (an XPS_RUN_BY_*) says (an_group.h; its warnings to notes) into
 * *g, of *nadded traces. 0, or the first xp_errcode (err set); *g is then
 * empty.
 */
struct an_groups;
int api_runs(xps_trace *const *t, size_t n, const struct an_exec_opts *xo, int keep, int run_by,
	     int (*add)(void *ctx, const struct an_exec_list *l, struct xp_err *err), void *ctx,
	     struct xp_notes *notes, size_t *copies, struct an_groups *g, size_t *nadded, struct xp_err *err);
/*
 * Adds each of the n traces to r, the result of analysis an (an_analysis.h:
 * its add, its host planes loaded first where it reads them), as the
 * command does: where an pools results, each trace into a result of its own
 * (init with opts) merged after r's. The warnings the command gives of each
 * trace (its reader's, the analysis's of that input, and with several
 * traces one for a trace none_of says added no device: none_of may be NULL;
 * device names the pattern) go to notes. 0, or
 * the first trace's xp_errcode with err naming it (XP_ERR_IO where its file
 * shrank since it was opened).
 */
struct an_analysis;
int api_add_traces(xps_trace *const *traces, size_t n, const struct an_analysis *an, void *r, const void *opts,
		   int (*none_of)(const void *one), const char *device, struct xp_notes *notes, struct xp_err *err);
/* The command's warning for a trace without a device plane (device: the pattern, NULL: none). 0 or XP_ERR_NOMEM. */
int api_no_device_note(struct xp_notes *notes, const char *path, const char *device);
/*
 * The warnings of a result: notes moved into the public pair (*msgs, *n),
 * after the analysis's own about r where it has them (an->notes; an may be
 * NULL). The strings stay notes's: release it with the result. 0 or
 * XP_ERR_NOMEM (err set).
 */
int api_warnings(const struct an_analysis *an, const void *r, int several, struct xp_notes *notes,
		 const char *const **msgs, size_t *n, struct xp_err *err);
/*
 * An analysis's time options (fn names it in the message): time an XPS_TIME_*,
 * children with XPS_TIME_CHILDREN and never with XPS_TIME_SPAN, a duration not
 * negative. 0 or XP_ERR_USAGE.
 */
int api_time_opts(const char *fn, int time, const char *children, int64_t min_duration_ps, struct xp_err *err);
/* traces (ntraces of them, none NULL) and out (have_out) as an analysis needs them; 0 or XP_ERR_USAGE. */
int api_check_traces(const char *fn, xps_trace *const *traces, size_t ntraces, int have_out,
		     struct xp_err *err);

#endif
