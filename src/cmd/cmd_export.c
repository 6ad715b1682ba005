/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat export: a trace to Chrome trace JSON or Perfetto's protobuf, every event, streamed. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "an_export.h"
#include "an_input.h"
#include "cmd.h"
#include "opt.h"
#include "out_export.h"
#include "out_file.h"
#include "out_gzip.h"
#include "xp_pool.h"

#define GZ_LEVEL 6

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

/* The format from --format, else from the output's name; -1 if neither says. */
static int pick_format(const char *format, const char *output)
{
	if (format) {
		if (!strcmp(format, "json"))
			return OUT_EXP_JSON;
		if (!strcmp(format, "json.gz"))
			return OUT_EXP_JSON_GZ;
		if (!strcmp(format, "pftrace") || !strcmp(format, "perfetto-trace") || !strcmp(format, "perfetto"))
			return OUT_EXP_PFTRACE;
		return -1;
	}
	if (ends_with(output, ".json"))
		return OUT_EXP_JSON;
	if (ends_with(output, ".json.gz"))
		return OUT_EXP_JSON_GZ;
	if (ends_with(output, ".pftrace") || ends_with(output, ".perfetto-trace"))
		return OUT_EXP_PFTRACE;
	return -1;
}

/*
 * Buffers written out go back to a stack for the next pieces: a piece's
 * bytes (megabytes) then land in memory already mapped, not in fresh pages
 * the kernel must clear each time.
 */
#define SPARE_MAX 16

/*
 * Written bytes are handed to the disk every KICK_BYTES, while the next
 * pieces encode: else the kernel keeps them all (hundreds of megabytes,
 * under its dirty limits) until the final fsync, and writes them only then.
 * (A file export created itself is written by out_file instead.)
 */
#define KICK_BYTES ((off_t)32 << 20)

struct exp_run {
	const struct an_exp_plan *plan;
	enum out_exp_format fmt;
	FILE *f;
	off_t written, kicked;	/* bytes written; of those, handed to the disk */
	struct out_file *of;	/* writes f's file instead of f, or NULL */
	int werr;		/* of's errno of a failed write or sync, else 0 */
	struct out_gz gz;
	int failed;		/* out of memory, or a write failed */
	pthread_mutex_t lock;	/* for spare */
	struct out_bytes spare[SPARE_MAX];
	size_t nspare;
};

static struct out_bytes take_spare(struct exp_run *r)
{
	struct out_bytes b = {0};

	pthread_mutex_lock(&r->lock);
	if (r->nspare)
		b = r->spare[--r->nspare];
	pthread_mutex_unlock(&r->lock);
	b.n = 0;
	b.failed = 0;
	return b;
}

static void give_spare(struct exp_run *r, struct out_bytes *b)
{
	if (!b->p)
		return;	/* nothing to keep (given back already) */
	pthread_mutex_lock(&r->lock);
	if (r->nspare < SPARE_MAX && !b->failed) {
		r->spare[r->nspare++] = *b;
		memset(b, 0, sizeof(*b));
	}
	pthread_mutex_unlock(&r->lock);
	out_bytes_release(b);
}

struct exp_result {
	struct out_bytes raw;
	struct out_gz_piece z;
	int failed;
};

static void *exp_work(size_t i, void *ctx)
{
	struct exp_run *r = ctx;
	struct exp_result *res = calloc(1, sizeof(*res));

	if (!res)
		return NULL;
	res->raw = take_spare(r);
	if (out_exp_piece(r->plan, i, r->fmt, &res->raw))
		res->failed = 1;
	else if (r->fmt == OUT_EXP_JSON_GZ) {
		if (out_gz_deflate(res->raw.p, res->raw.n, GZ_LEVEL, &res->z))
			res->failed = 1;
		give_spare(r, &res->raw);
	}
	return res;
}

/* Starts the disk's writing of what was written since the last call (a hint: errors, as a pipe's, are ignored). */
static void kick(struct exp_run *r, size_t n)
{
	r->written += (off_t)n;
	if (r->written - r->kicked < KICK_BYTES)
		return;
#ifdef SYNC_FILE_RANGE_WRITE
	if (!fflush(r->f))
		(void)sync_file_range(fileno(r->f), r->kicked, r->written - r->kicked, SYNC_FILE_RANGE_WRITE);
#endif
	r->kicked = r->written;
}

/* Writes n bytes to the output. Returns 0 or -1 (the error: r->werr, else on f). */
static int put(struct exp_run *r, const unsigned char *p, size_t n)
{
	int rc;

	if (r->of) {
		rc = out_file_put(r->of, p, n);
		if (rc && !r->werr)
			r->werr = rc;
		return rc ? -1 : 0;
	}
	if (n && fwrite(p, 1, n, r->f) != n) {
		if (!r->werr)	/* errno is the writing thread's: keep it for the message */
			r->werr = errno ? errno : EIO;
		return -1;
	}
	kick(r, n);
	return 0;
}

/* Writes bytes, deflated first for gzip. */
static void emit(struct exp_run *r, struct out_bytes *raw, struct out_gz_piece *z)
{
	struct out_gz_piece own;

	if (r->failed)
		return;
	if (r->fmt == OUT_EXP_JSON_GZ && !z) {
		if (out_gz_deflate(raw->p, raw->n, GZ_LEVEL, &own)) {
			r->failed = 1;
			out_bytes_release(&own.z);
			return;
		}
		z = &own;
	} else {
		own.z.p = NULL;
	}
	if (z) {
		out_gz_add(&r->gz, z);
		if (put(r, z->z.p, z->z.n))
			r->failed = 1;
	} else if (put(r, raw->p, raw->n)) {
		r->failed = 1;
	}
	free(own.z.p);
}

static void exp_done(size_t i, void *result, void *ctx)
{
	struct exp_run *r = ctx;
	struct exp_result *res = result;

	(void)i;
	if (!res || res->failed)
		r->failed = 1;
	else
		emit(r, &res->raw, r->fmt == OUT_EXP_JSON_GZ ? &res->z : NULL);
	if (res) {
		give_spare(r, &res->raw);
		out_bytes_release(&res->z.z);
		free(res);
	}
}

/* Sets r up to write f (own_file: a regular file this command created, empty, written by out_file). */
static void run_open(struct exp_run *r, enum out_exp_format fmt, FILE *f, int own_file)
{
	memset(r, 0, sizeof(*r));
	r->fmt = fmt;
	r->f = f;
	pthread_mutex_init(&r->lock, NULL);
	if (own_file && !fflush(f))
		r->of = out_file_new(fileno(f), 1);	/* NULL: f, as any output */
}

/* A plan's pieces, encoded on `jobs` threads, written in order. */
static void run_pieces(struct exp_run *r, const struct an_exp_plan *plan, unsigned jobs)
{
	r->plan = plan;
	if (!r->failed)
		xp_pool_run(plan->npieces, jobs, exp_work, exp_done, r);
}

/* A plan's head and pieces. */
static void run_plan(struct exp_run *r, const struct an_exp_plan *plan, unsigned jobs)
{
	struct out_bytes b = {0};

	if (out_exp_head(plan, r->fmt, "xplane-stat " XPS_VERSION, &b))
		r->failed = 1;
	emit(r, &b, NULL);
	out_bytes_release(&b);
	run_pieces(r, plan, jobs);
}

/* Writes what is left and frees r's buffers. Returns 0, or -1: a write error (*werr its errno, or on f) or out of memory. */
static int run_close(struct exp_run *r, int *werr)
{
	size_t i;

	if (r->of) {
		int rc = out_file_finish(r->of);

		if (rc && !r->werr)
			r->werr = rc;
		if (rc)
			r->failed = 1;
		out_file_free(r->of);
		r->of = NULL;
	}
	for (i = 0; i < r->nspare; i++)
		out_bytes_release(&r->spare[i]);
	pthread_mutex_destroy(&r->lock);
	*werr = r->werr;
	return r->failed ? -1 : 0;
}

/*
 * Writes the whole export of n plans on one timeline (one trace, or the
 * hosts of a run) to f, as run_close returns: for JSON one document, its
 * head naming every plan's processes; for .pftrace each plan's head and
 * pieces in turn.
 */
static int write_export(const struct an_exp_plan *const *plans, size_t n, enum out_exp_format fmt, FILE *f,
			int own_file, unsigned jobs, int *werr)
{
	struct exp_run r;
	struct out_bytes b = {0};
	size_t k;

	run_open(&r, fmt, f, own_file);
	if (fmt == OUT_EXP_JSON_GZ) {
		out_gz_header(&b);
		if (b.failed || put(&r, b.p, b.n))
			r.failed = 1;
		b.n = 0;
		r.gz.crc = 0;
	}
	if (fmt == OUT_EXP_PFTRACE) {
		for (k = 0; k < n; k++)
			run_plan(&r, plans[k], jobs);
	} else {
		if (out_exp_head_json(plans, n, "xplane-stat " XPS_VERSION, &b))
			r.failed = 1;
		emit(&r, &b, NULL);
		b.n = 0;
		for (k = 0; k < n; k++)
			run_pieces(&r, plans[k], jobs);
	}
	if (out_exp_tail(plans[0], fmt, &b))
		r.failed = 1;
	emit(&r, &b, NULL);
	if (fmt == OUT_EXP_JSON_GZ && !r.failed) {
		b.n = 0;
		out_gz_trailer(&r.gz, &b);
		if (b.failed || put(&r, b.p, b.n))
			r.failed = 1;
	}
	out_bytes_release(&b);
	return run_close(&r, werr);
}

/*
 * A .pftrace of a whole trace, plane by plane: each plane planned alone
 * (an_exp_opts.have_plane), its track descriptors and events after the
 * planes before it. Deferred planes are loaded in turn, the smallest in the
 * file first, while a thread of its own encodes and writes those already
 * planned: the disk writes the first planes while the last are read (a TPU
 * trace's host plane, most of its input, comes last). The bytes do not
 * depend on the threads, nor on whether the planes were deferred.
 */
struct stream {
	struct exp_run *r;
	unsigned jobs;
	struct an_exp_plan *plans;	/* one per plane at most, in the order written */
	pthread_mutex_t mu;
	pthread_cond_t more;
	size_t n;			/* plans handed to the thread */
	int end;			/* no more will come */
	int cancel;			/* the loader stopped on an error: what is queued is not written */
	int failed;			/* the thread's r->failed, for the loader */
};

static void *stream_main(void *arg)
{
	struct stream *s = arg;
	size_t k = 0;
	int failed, cancel;

	pthread_mutex_lock(&s->mu);
	for (;;) {
		while (k == s->n && !s->end)
			pthread_cond_wait(&s->more, &s->mu);
		if (k == s->n)
			break;
		cancel = s->cancel;
		pthread_mutex_unlock(&s->mu);
		if (!s->r->failed && !cancel)
			run_plan(s->r, &s->plans[k], s->jobs);
		an_exp_plan_release(&s->plans[k]);
		failed = s->r->failed;
		k++;
		pthread_mutex_lock(&s->mu);
		s->failed = failed;
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

enum {
	STREAM_OK,
	STREAM_WRITE,		/* a write failed, or out of memory encoding (r) */
	STREAM_LOAD,		/* a plane did not load (err) */
	STREAM_PLAN,		/* a plane's plan failed (err) */
	STREAM_FIT,		/* a plane does not fit a .pftrace (*fit says why) */
	STREAM_CLOCK,		/* a plane's times do not fit from the clock's zero: again from an_exp_clock_zero */
};

/*
 * Exports t to r as a .pftrace, plane by plane, times from zero_ns on the
 * file's clock: with threads > 1, encoded and written on a thread of its own
 * while the next plane loads; each plan encoded on `jobs` threads. sum gets
 * the counts (total, exported, left_overlap, counter_no_value). Returns a STREAM_* code.
 */
static int stream_planes(struct xp_trace *t, struct exp_run *r, int64_t zero_ns, unsigned threads, unsigned jobs,
			 struct an_exp_plan *sum, int *fit, struct xp_err *err)
{
	struct stream s = {.r = r, .jobs = jobs};
	struct an_exp_opts eo = {0};
	int64_t *pids = NULL;
	size_t *order = NULL, k;
	uint64_t tracks = 0;
	pthread_t th;
	int threaded = 0, ret = STREAM_OK;

	memset(sum, 0, sizeof(*sum));
	if (an_exp_pids(t, &pids) || !(order = malloc((t->nplanes + 1) * sizeof(*order))) ||
	    !(s.plans = calloc(t->nplanes + 1, sizeof(*s.plans)))) {
		r->failed = 1;
		ret = STREAM_WRITE;
		goto out;
	}
	an_exp_plane_order(t, order);
	pthread_mutex_init(&s.mu, NULL);
	pthread_cond_init(&s.more, NULL);
	threaded = threads > 1 && !pthread_create(&th, NULL, stream_main, &s);
	eo.have_plane = 1;
	eo.pids = pids;
	eo.have_clock_zero = 1;
	eo.clock_zero_ns = zero_ns;
	for (k = 0; k < t->nplanes && ret == STREAM_OK; k++) {
		struct an_exp_plan *p = &s.plans[s.n];
		int failed;

		pthread_mutex_lock(&s.mu);
		failed = threaded ? s.failed : r->failed;
		pthread_mutex_unlock(&s.mu);
		if (failed) {
			ret = STREAM_WRITE;
			break;
		}
		if (xp_trace_load_plane(t, order[k], err)) {
			ret = STREAM_LOAD;
			break;
		}
		eo.plane = order[k];
		eo.first_track = tracks;
		if (an_exp_plan(t, &eo, p, err)) {
			ret = STREAM_PLAN;
			break;
		}
		sum->total += p->total;
		sum->exported += p->exported;
		sum->left_overlap += p->left_overlap;
		sum->counter_no_value += p->counter_no_value;
		tracks += p->npiece_tracks;
		sum->npiece_tracks = tracks;
		if (!p->exported) {
			an_exp_plan_release(p);
			continue;
		}
		if ((*fit = out_exp_pf_fits(p)) == OUT_EXP_PF_TOO_LATE)
			ret = STREAM_CLOCK;
		else if (*fit != OUT_EXP_PF_FITS)
			ret = STREAM_FIT;
		if (ret != STREAM_OK) {
			an_exp_plan_release(p);
			break;
		}
		if (!threaded) {
			run_plan(r, p, jobs);
			an_exp_plan_release(p);
			continue;
		}
		pthread_mutex_lock(&s.mu);
		s.n++;
		pthread_cond_signal(&s.more);
		pthread_mutex_unlock(&s.mu);
	}
	if (threaded) {
		pthread_mutex_lock(&s.mu);
		s.end = 1;
		s.cancel = ret != STREAM_OK;
		pthread_cond_signal(&s.more);
		pthread_mutex_unlock(&s.mu);
		pthread_join(th, NULL);
	}
	pthread_cond_destroy(&s.more);
	pthread_mutex_destroy(&s.mu);
	if (ret == STREAM_OK && r->failed)
		ret = STREAM_WRITE;
out:
	free(s.plans);
	free(order);
	free(pids);
	return ret;
}

/* What the selection left out, one note; and what did not fit on any track, a warning. */
static int note_selection(struct xp_notes *n, const char *path, const struct an_exp_plan *p)
{
	if (p->left_overlap &&
	    xp_notes_add(n, "'%s': %llu event%s left out: each overlaps, without nesting, events on all %d "
			    "tracks its line was given (export lays partial overlaps on extra tracks)",
			    path, (unsigned long long)p->left_overlap, p->left_overlap == 1 ? "" : "s",
			    AN_EXP_MAX_TRACKS))
		return -1;
	if (p->counter_no_value &&
	    xp_notes_add(n, "'%s': %llu counter sample%s left out: no value (a counter_value stat, a stat named "
			    "as the counter, or its only numeric stat)", path,
			    (unsigned long long)p->counter_no_value, p->counter_no_value == 1 ? "" : "s"))
		return -1;
	return 0;
}

static void print_selection(const char *path, const struct an_exp_plan *p)
{
	char parts[256];
	int len = 0;

	if (p->exported == p->total)
		return;
	parts[0] = '\0';
	if (p->left_device)
		len += snprintf(parts + len, sizeof(parts) - (size_t)len, "%s%llu on other planes (--device)",
				len ? ", " : "", (unsigned long long)p->left_device);
	if (p->left_window && len < (int)sizeof(parts))
		len += snprintf(parts + len, sizeof(parts) - (size_t)len, "%s%llu outside --from/--to",
				len ? ", " : "", (unsigned long long)p->left_window);
	if (p->left_max && len < (int)sizeof(parts))
		len += snprintf(parts + len, sizeof(parts) - (size_t)len, "%s%llu past --max-events",
				len ? ", " : "", (unsigned long long)p->left_max);
	if (p->left_overlap && len < (int)sizeof(parts))
		len += snprintf(parts + len, sizeof(parts) - (size_t)len, "%s%llu on no track", len ? ", " : "",
				(unsigned long long)p->left_overlap);
	if (p->counter_no_value && len < (int)sizeof(parts))
		snprintf(parts + len, sizeof(parts) - (size_t)len, "%s%llu counter sample%s without a value",
			 len ? ", " : "", (unsigned long long)p->counter_no_value, p->counter_no_value == 1 ? "" : "s");
	cmd_error("'%s': exported %llu of %llu events; left out: %s", path, (unsigned long long)p->exported,
		  (unsigned long long)p->total, parts);
}

/* Why a plan does not fit a .pftrace (out_exp_pf_fits), with the packet sequences counted so far. */
static void pf_unfit(const char *path, int fit, uint64_t seqs)
{
	if (fit == OUT_EXP_PF_TOO_LATE)	/* only planes 2^63 ns apart: a plan's own times are within 2^63 ps */
		cmd_error("'%s': planes about 2^63 ns (292 years) apart or more: a .pftrace's int64 ns times cannot hold "
			  "them all: export them apart (--device)",
			  path);
	else	/* a packet sequence per piece, line and track, each its own 32-bit id */
		cmd_error("'%s': too many lines and tracks for a .pftrace (%" PRIu64 " packet sequences or more, at "
			  "most %" PRIu64 ", or a plane or line past the track ids' 2^25 and 2^32): export it as "
			  "JSON, or in parts (--device, --from/--to)",
			  path, seqs, OUT_EXP_PF_MAX_SEQS);
}

/* A failed export's message: out of memory, or the write's error. */
static void write_error(const struct cmd_out *out, const char *output, int werr)
{
	if (werr)
		cmd_error("cannot write '%s': %s", output, strerror(werr));
	else if (!ferror(out->f))
		cmd_error("out of memory");
	else
		cmd_error("cannot write '%s': %s", output, strerror(errno));
}

/*
 * Whether path's file shrank while t was read (planes loaded, stats read
 * again as written): then what was written holds zeros, not the file's
 * events, and this says so. Any other error it may have caused gives way.
 */
static int input_changed(const struct xp_trace *t, const char *path)
{
	struct xp_err err = {0};

	if (!an_input_check(t, path, &err))
		return 0;
	cmd_error("%s", err.msg);
	return 1;
}

/* Loads every plane still deferred. Returns 0 or an xp_errcode (err). */
static int load_all(struct xp_trace *t, struct xp_err *err)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < t->nplanes && !ret; i++)
		ret = xp_trace_load_plane(t, i, err);
	return ret;
}

/*
 * export of a whole trace to .pftrace, plane by plane (stream_planes). To a
 * file of its own (a temporary one), the planes are read as they are
 * written; times count from the file clock's zero, or, when a plane turns
 * out to start before it or too far past it (an_exp_clock_zero), the file
 * is written again from the first start. To standard output, the trace is
 * read first and that zero known at once: the bytes are the same. Returns
 * an exit code.
 */
static int export_streamed(const struct cmd_common *c, const char *path, unsigned jobs)
{
	struct cmd_out out = {0};
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	struct xp_notes notes = {0};
	struct an_exp_plan sum;
	struct exp_run r;
	int64_t zero = 0;
	int ret, rc = STREAM_OK, wrc = 0, werr = 0, deferred, again = 0, fit = OUT_EXP_PF_FITS;

	/* the input's own errors first (its planes' wait for their turn), then the output's */
	ret = cmd_read_deferred(c, path, jobs, &t, &err);
	if (ret) {
		cmd_error("%s", err.msg);
		return ret;
	}
	ret = cmd_out_open(&out, c->output);
	if (ret) {
		xp_trace_free(t);
		return ret;
	}
	deferred = out.tmp != NULL;
	if (!deferred) {
		/* standard output or a device, written once: every plane read first, the zero known */
		rc = load_all(t, &err) ? STREAM_LOAD : STREAM_OK;
		if (rc == STREAM_OK)
			zero = an_exp_clock_zero(t);
	}
	for (;;) {
		if (!deferred && rc != STREAM_OK)
			break;
		run_open(&r, OUT_EXP_PFTRACE, out.f, deferred);
		/* a thread of its own only while planes load: standard output is written on this one */
		rc = stream_planes(t, &r, zero, deferred ? jobs : 1, jobs, &sum, &fit, &err);
		wrc = run_close(&r, &werr);
		if (rc != STREAM_CLOCK || again || !deferred)
			break;
		/* once more, from the first start: every plane read, the file emptied */
		again = 1;
		if (load_all(t, &err)) {
			rc = STREAM_LOAD;
			break;
		}
		zero = an_exp_clock_zero(t);
		if (fflush(out.f) || ftruncate(fileno(out.f), 0)) {
			rc = STREAM_WRITE;
			wrc = -1;
			werr = errno;
			break;
		}
		rewind(out.f);
	}
	if (rc == STREAM_OK && wrc)
		rc = STREAM_WRITE;
	if (input_changed(t, path)) {
		ret = EXIT_INPUT;
		goto fail;
	}
	switch (rc) {
	case STREAM_OK:
		break;
	case STREAM_WRITE:
		if (out.f == stdout && ferror(stdout)) {
			/* main checks standard output once: a closed pipe ends quietly, other errors exit 1 */
			ret = cmd_out_close(&out, 1);
			goto out;
		}
		write_error(&out, c->output, werr);
		ret = EXIT_ERROR;
		goto fail;
	case STREAM_LOAD:
		/* the whole read's error, as every command reports it (the first bad plane in the file) */
		xp_trace_free(t);
		t = NULL;
		ret = cmd_read(c, path, jobs, 0, &t, &err);
		if (!ret) {
			an_input_name_err(&err, path);
			ret = cmd_exit_for(err.code);
		}
		cmd_error("%s", err.msg);
		goto fail;
	case STREAM_PLAN:
		cmd_error("'%s': %s", path, err.msg);
		ret = err.code == XP_ERR_NOMEM ? EXIT_ERROR : EXIT_INPUT;
		goto fail;
	default:	/* STREAM_FIT, STREAM_CLOCK (once more from the zero, or to standard output) */
		pf_unfit(path, fit, sum.npiece_tracks);
		ret = EXIT_INPUT;
		goto fail;
	}
	if (an_input_notes(&notes, path, t) || note_selection(&notes, path, &sum)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto fail;
	}
	if (!sum.exported) {
		cmd_print_notes(&notes);
		cmd_error("'%s': no event to export: the file holds none", path);
		ret = EXIT_NOMATCH;
		goto fail;
	}
	ret = cmd_out_close(&out, 1);
	if (!ret) {
		cmd_print_notes(&notes);
		print_selection(path, &sum);
	}
	goto out;
fail:
	cmd_out_close(&out, 0);
out:
	xp_notes_release(&notes);
	xp_trace_free(t);
	return ret;
}

/*
 * Writes the export of the n plans of traces t (read from paths) to c's
 * output and closes it: an exit code, EXIT_OK when it is written whole.
 * An input that shrank while read makes it EXIT_INPUT, whatever else.
 */
static int write_out(const struct cmd_common *c, const struct an_exp_plan *const *pp, struct xp_trace *const *t,
		     const char *const *paths, size_t n, int fmt, unsigned jobs)
{
	struct cmd_out out = {0};
	size_t k;
	int ret, werr = 0, failed;

	if ((ret = cmd_out_open(&out, c->output)))
		return ret;
	failed = write_export(pp, n, (enum out_exp_format)fmt, out.f, out.tmp != NULL, jobs, &werr);
	for (k = 0; k < n; k++)
		if (input_changed(t[k], paths[k])) {
			cmd_out_close(&out, 0);
			return EXIT_INPUT;
		}
	if (!failed)
		return cmd_out_close(&out, 1);
	if (out.f == stdout && ferror(stdout))	/* main checks standard output once: a closed pipe ends quietly */
		return cmd_out_close(&out, 1);
	write_error(&out, c->output, werr);
	cmd_out_close(&out, 0);
	return EXIT_ERROR;
}

static int is_dir(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* path's file name less .xplane.pb[.gz] (the whole path with whole): in a, NULL when out of memory. */
static const char *stem(struct xp_arena *a, const char *path, int whole)
{
	const char *base = whole ? path : strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t n = strlen(base);

	if (n > 13 && !strcmp(base + n - 13, ".xplane.pb.gz"))
		n -= 13;
	else if (n > 10 && !strcmp(base + n - 10, ".xplane.pb"))
		n -= 10;
	return xp_arena_strndup(a, base, n);
}

/*
 * Each input's name on the timeline, before its planes' (host:/device:GPU:0):
 * its host (XSpace hostname, else the file's name less .xplane.pb), or where
 * those repeat (two processes of a host) the file's name less the suffix,
 * or where those repeat too (several runs) its path less the suffix, and
 * its place among the inputs after it (a file given twice). 0 or -1 when
 * out of memory.
 */
static int host_labels(struct xp_trace *const *t, char *const *paths, size_t n, struct xp_arena *a,
		       const char **label)
{
	size_t i, k;
	int level;

	for (level = 0; level < 4; level++) {
		int distinct = 1;

		for (i = 0; i < n; i++) {
			label[i] = !level && t[i]->nhostnames && *t[i]->hostnames[0]
					   ? xp_arena_strndup(a, t[i]->hostnames[0], strlen(t[i]->hostnames[0]))
					   : stem(a, paths[i], level >= 2);
			if (label[i] && level == 3) {	/* one file given twice: its place among the inputs */
				char *own;

				if (asprintf(&own, "%s#%zu", label[i], i + 1) < 0)
					return -1;
				label[i] = xp_arena_strndup(a, own, strlen(own));
				free(own);
			}
			if (!label[i])
				return -1;
			for (k = 0; k < i && distinct; k++)
				distinct = strcmp(label[k], label[i]) != 0;
		}
		if (distinct)
			break;
	}
	return 0;
}

/*
 * export of several traces (the hosts of a run, a session directory) to one
 * timeline: each read whole, its processes named host:plane, its pids past
 * the hosts' before it, times from the first start of all. Returns an exit
 * code.
 */
static int export_hosts(const struct cmd_common *c, char *const *paths, size_t n, int fmt,
			const struct an_exp_opts *sel, unsigned jobs)
{
	struct an_exp_opts base = *sel;	/* its origin: the first start of all */
	struct xp_trace **t = calloc(n, sizeof(*t));
	struct an_exp_plan *plans = calloc(n, sizeof(*plans));
	const struct an_exp_plan **pp = calloc(n, sizeof(*pp));
	int64_t **pids = calloc(n, sizeof(*pids)), stride = 0, zero = 0, ns, sub;
	const char **label = calloc(n, sizeof(*label));
	struct xp_arena names = {0};
	struct xp_notes notes = {0};
	struct xp_err err = {0};
	uint64_t exported = 0, tracks = 0;
	size_t k, i, planes = 0;
	int ret = EXIT_ERROR, have = 0, fit;

	if (!t || !plans || !pp || !pids || !label) {
		cmd_error("out of memory");
		goto out;
	}
	for (k = 0; k < n; k++) {
		if ((ret = cmd_read(c, paths[k], jobs, 0, &t[k], &err))) {
			cmd_error("%s", err.msg);
			goto out;
		}
		if (!an_exp_origin(t[k], c->device, &ns, &sub) &&
		    (!have || ns < base.origin_ns || (ns == base.origin_ns && sub < base.origin_sub_ps))) {
			base.origin_ns = ns;
			base.origin_sub_ps = sub;
			have = 1;
		}
		if (an_exp_clock_zero(t[k]) && (!zero || an_exp_clock_zero(t[k]) < zero))
			zero = an_exp_clock_zero(t[k]);
		ret = EXIT_ERROR;
		if (an_exp_pids(t[k], &pids[k])) {
			cmd_error("out of memory");
			goto out;
		}
		for (i = 0; i < t[k]->nplanes; i++)
			if (pids[k][i] >= stride)
				stride = pids[k][i] + 1;
	}
	/* a host's pids past the hosts' before it, readable: host k's device 0 is k * stride + 1 */
	stride = (stride + 999) / 1000 * 1000;
	if (stride > INT32_MAX / (int64_t)n) {
		cmd_error("%zu inputs of up to %" PRId64 " process ids each: more than a timeline's 2^31 process ids; "
			  "export fewer at once", n, stride);
		ret = EXIT_INPUT;
		goto out;
	}
	if (host_labels(t, paths, n, &names, label)) {
		cmd_error("out of memory");
		goto out;
	}
	for (k = 0; k < n; k++) {
		struct an_exp_opts eo = base;

		for (i = 0; i < t[k]->nplanes; i++)
			pids[k][i] += (int64_t)k * stride;
		eo.pids = pids[k];
		eo.have_origin = have;
		eo.name_prefix = label[k];
		eo.plane_base = planes;
		eo.first_track = tracks;
		eo.have_clock_zero = 1;
		eo.clock_zero_ns = zero;
		if (an_exp_plan(t[k], &eo, &plans[k], &err)) {
			if (input_changed(t[k], paths[k])) {
				ret = EXIT_INPUT;
				goto out;
			}
			cmd_error("'%s': %s", paths[k], err.msg);
			ret = err.code == XP_ERR_NOMEM ? EXIT_ERROR : EXIT_INPUT;
			goto out;
		}
		pp[k] = &plans[k];
		planes += t[k]->nplanes;
		tracks += plans[k].npiece_tracks;
		exported += plans[k].exported;
		if (an_input_notes(&notes, paths[k], t[k]) || note_selection(&notes, paths[k], &plans[k])) {
			cmd_error("out of memory");
			goto out;
		}
	}
	if (!exported) {
		cmd_print_notes(&notes);
		for (k = 0; k < n; k++)
			print_selection(paths[k], &plans[k]);
		cmd_error("no event to export in the %zu inputs%s", n, c->device || sel->have_from || sel->have_to
			  ? " with this selection" : ": they hold none");
		ret = EXIT_NOMATCH;
		goto out;
	}
	for (k = 0; fmt == OUT_EXP_PFTRACE && k < n; k++) {
		if (plans[k].exported && (fit = out_exp_pf_fits(&plans[k])) != OUT_EXP_PF_FITS) {
			pf_unfit(paths[k], fit, tracks);
			ret = EXIT_INPUT;
			goto out;
		}
	}
	if ((ret = write_out(c, pp, t, (const char *const *)paths, n, fmt, jobs)))
		goto out;
	cmd_print_notes(&notes);
	for (k = 0; k < n; k++)
		print_selection(paths[k], &plans[k]);
out:
	for (k = 0; k < n; k++) {
		if (plans)
			an_exp_plan_release(&plans[k]);
		if (t)
			xp_trace_free(t[k]);
		if (pids)
			free(pids[k]);
	}
	free(t);
	free(plans);
	free(pp);
	free(pids);
	free(label);
	xp_arena_release(&names);
	xp_notes_release(&notes);
	return ret;
}

int cmd_export(int argc, char **argv)
{
	struct cmd_common c;
	const char *format = NULL;
	int64_t from = -1, to = -1;
	size_t max_events = 0;
	const struct opt opts[] = {
		{"output", 'o', OPT_STR, &c.output, "FILE",
		 "write to FILE (required; via a temporary name, renamed when complete); - is stdout"},
		{"format", 0, OPT_STR, &format, "json|json.gz|pftrace",
		 "the format (default: from FILE's name: .json, .json.gz, .pftrace or .perfetto-trace)"},
		{"device", 'd', OPT_STR, &c.device, "PATTERN",
		 "only planes whose name contains PATTERN, any case (gpu, TPU:1, host)"},
		{"from", 0, OPT_DUR, &from, "TIME",
		 "only events ending after TIME from the first event's start (1.5s, 200ms)"},
		{"to", 0, OPT_DUR, &to, "TIME", "only events starting before TIME from the first event's start"},
		{"max-events", 0, OPT_COUNT, &max_events, "N",
		 "at most N events: the earliest by start (ties: by line, then the line's order)"},
		CMD_OPTS_INPUT(&c),
		{0},
	};
	const struct opt_cmd cmd = {
		"export", "[OPTIONS] FILE|DIR|-... -o OUT",
		"Writes every event of a trace for a timeline viewer: Chrome trace JSON\n"
		"(chrome://tracing, Perfetto, .json or .json.gz) or Perfetto's own protobuf\n"
		"format (.pftrace: open it at ui.perfetto.dev, which loads it locally; far\n"
		"larger traces than JSON allows). A process per plane (pid 1 + plane id for\n"
		"devices, 701 for host threads, as XLA's trace viewer), a thread per line;\n"
		"events that overlap without nesting go on extra threads named 'LINE #2'...\n"
		"JSON times are from the first event's start, exact to the picosecond;\n"
		".pftrace times are the file's own clock in ns (the format's unit; Perfetto\n"
		"shows them from the trace's start), or from the first event where int64 ns\n"
		"cannot hold that clock (before 0, or 292 years on). Nothing is capped: what\n"
		"--device, --from/--to and --max-events leave out is reported on stderr.\n"
		"Several inputs, or a directory of them (a run's hosts: XProf's session\n"
		"directory), go on one timeline: processes named host:plane, times from the\n"
		"first start of all (each host's clock as it recorded it).",
		opts, .min_pos = 1, .pos_msg = "export takes an input",
	};
	struct xp_trace *t = NULL;
	struct an_exp_plan plan = {0};
	const struct an_exp_plan *one;
	struct an_exp_opts eo = {0};
	struct xp_err err = {0};
	struct xp_notes notes = {0};
	struct xp_pathlist paths = {0};
	const char **pos = NULL;
	size_t npos;
	int ret, fmt, fit;

	cmd_common_init(&c);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (!c.output) {
		cmd_error("export needs -o OUT: a .json, .json.gz or .pftrace file, or - with --format");
		goto out;
	}
	fmt = pick_format(format, c.output);
	if (fmt < 0) {
		if (format)
			cmd_error("--format: '%s' is not json, json.gz or pftrace", format);
		else
			cmd_error("cannot tell the format from '%s': name it .json, .json.gz or .pftrace, or give --format",
				  c.output);
		goto out;
	}
	if (fmt != OUT_EXP_JSON && !strcmp(c.output, "-") && isatty(STDOUT_FILENO)) {
		cmd_error("not writing binary output to a terminal: redirect it or give -o FILE");
		goto out;
	}
	if (from >= 0 && to >= 0 && to <= from) {
		cmd_error("--to must come after --from");
		goto out;
	}
	ret = cmd_input_setup(&c);
	if (ret >= 0)
		goto out;
	c.read.event_stats = XP_EVSTATS_INPUT;	/* every stat becomes an argument, read again as written */
	if (npos > 1 || is_dir(pos[0])) {
		if (xp_pathlist_expand(&paths, pos, npos, &err)) {
			cmd_error("%s", err.msg);
			ret = cmd_exit_for(err.code);
			goto out;
		}
		if (paths.duplicates)
			cmd_error("warning: %zu file%s reached more than once (given twice, or through a symbolic link): "
				  "exported once", paths.duplicates, paths.duplicates == 1 ? "" : "s");
		if (!paths.n) {
			cmd_error("no *.xplane.pb or *.xplane.pb.gz file in %s", npos == 1 ? pos[0] : "the inputs");
			ret = EXIT_INPUT;
			goto out;
		}
		if (paths.n > 1 && max_events) {
			cmd_error("--max-events takes one input: the earliest events of several hosts' clocks are not "
				  "one timeline's (use --from/--to)");
			ret = EXIT_USAGE;
			goto out;
		}
		if (paths.n > 1) {
			eo.device = c.device;
			eo.have_from = from >= 0;
			eo.from_ps = from;
			eo.have_to = to >= 0;
			eo.to_ps = to;
			ret = export_hosts(&c, paths.paths, paths.n, fmt, &eo, cmd_jobs(&c, SIZE_MAX));
			goto out;
		}
		pos[0] = paths.paths[0];	/* a directory of one profile: that profile */
	}
	if (fmt == OUT_EXP_PFTRACE && !c.device && from < 0 && to < 0 && !max_events) {
		ret = export_streamed(&c, pos[0], cmd_jobs(&c, SIZE_MAX));
		goto out;
	}
	ret = cmd_read(&c, pos[0], cmd_jobs(&c, SIZE_MAX), 0, &t, &err);
	if (ret) {
		cmd_error("%s", err.msg);
		goto out;
	}
	eo.device = c.device;
	eo.have_from = from >= 0;
	eo.from_ps = from;
	eo.have_to = to >= 0;
	eo.to_ps = to;
	eo.max_events = max_events;
	if (an_exp_plan(t, &eo, &plan, &err)) {
		if (input_changed(t, pos[0])) {
			ret = EXIT_INPUT;
			goto out;
		}
		cmd_error("'%s': %s", pos[0], err.msg);
		ret = err.code == XP_ERR_NOMEM ? EXIT_ERROR : EXIT_INPUT;
		goto out;
	}
	if (an_input_notes(&notes, pos[0], t) || note_selection(&notes, pos[0], &plan)) {
		cmd_error("out of memory");
		ret = EXIT_ERROR;
		goto out;
	}
	if (!plan.exported) {
		cmd_print_notes(&notes);
		print_selection(pos[0], &plan);
		cmd_error("'%s': no event to export%s", pos[0],
			  plan.total ? " with this selection" : ": the file holds none");
		ret = EXIT_NOMATCH;
		goto out;
	}
	if (fmt == OUT_EXP_PFTRACE && (fit = out_exp_pf_fits(&plan)) != OUT_EXP_PF_FITS) {
		pf_unfit(pos[0], fit, plan.npiece_tracks);
		ret = EXIT_INPUT;
		goto out;
	}
	one = &plan;
	if ((ret = write_out(&c, &one, &t, pos, 1, fmt, cmd_jobs(&c, SIZE_MAX))))
		goto out;
	cmd_print_notes(&notes);
	print_selection(pos[0], &plan);
out:
	xp_notes_release(&notes);
	an_exp_plan_release(&plan);
	xp_trace_free(t);
	xp_pathlist_release(&paths);
	free(pos);
	return ret;
}
