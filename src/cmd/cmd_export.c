/* SPDX-License-Identifier: Apache-2.0 */
/* xplane-stat export: a trace to Chrome trace JSON or Perfetto's protobuf, every event, streamed. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "an_export.h"
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
	if (n && fwrite(p, 1, n, r->f) != n)
		return -1;
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

/*
 * Writes the whole export to f; own_file: f is a regular file this command
 * created, empty (written by out_file). Returns 0, or -1: a write error
 * (*werr its errno, or on f) or out of memory.
 */
static int write_export(const struct an_exp_plan *plan, enum out_exp_format fmt, FILE *f, int own_file,
			unsigned jobs, int *werr)
{
	struct exp_run r;
	struct out_bytes b = {0};
	size_t i;

	memset(&r, 0, sizeof(r));
	r.plan = plan;
	r.fmt = fmt;
	r.f = f;
	pthread_mutex_init(&r.lock, NULL);
	if (own_file && !fflush(f))
		r.of = out_file_new(fileno(f), 1);	/* NULL: f, as any output */

	if (fmt == OUT_EXP_JSON_GZ) {
		out_gz_header(&b);
		if (b.failed || put(&r, b.p, b.n))
			r.failed = 1;
		b.n = 0;
		r.gz.crc = 0;
	}
	if (out_exp_head(plan, fmt, "xplane-stat " XPS_VERSION, &b))
		r.failed = 1;
	emit(&r, &b, NULL);
	b.n = 0;
	if (!r.failed)
		xp_pool_run(plan->npieces, jobs, exp_work, exp_done, &r);
	if (out_exp_tail(plan, fmt, &b))
		r.failed = 1;
	emit(&r, &b, NULL);
	if (fmt == OUT_EXP_JSON_GZ && !r.failed) {
		b.n = 0;
		out_gz_trailer(&r.gz, &b);
		if (b.failed || put(&r, b.p, b.n))
			r.failed = 1;
	}
	if (r.of) {
		int rc = out_file_finish(r.of);

		if (rc && !r.werr)
			r.werr = rc;
		if (rc)
			r.failed = 1;
		out_file_free(r.of);
	}
	out_bytes_release(&b);
	for (i = 0; i < r.nspare; i++)
		out_bytes_release(&r.spare[i]);
	pthread_mutex_destroy(&r.lock);
	*werr = r.werr;
	return r.failed ? -1 : 0;
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
		snprintf(parts + len, sizeof(parts) - (size_t)len, "%s%llu on no track", len ? ", " : "",
			 (unsigned long long)p->left_overlap);
	fprintf(stderr, "xplane-stat: '%s': exported %llu of %llu events; left out: %s\n", path,
		(unsigned long long)p->exported, (unsigned long long)p->total, parts);
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
		"export", "[OPTIONS] FILE|- -o OUT",
		"Writes every event of a trace for a timeline viewer: Chrome trace JSON\n"
		"(chrome://tracing, Perfetto, .json or .json.gz) or Perfetto's own protobuf\n"
		"format (.pftrace: open it at ui.perfetto.dev, which loads it locally; far\n"
		"larger traces than JSON allows). A process per plane (pid 1 + plane id for\n"
		"devices, 701 for host threads, as XLA's trace viewer), a thread per line;\n"
		"events that overlap without nesting go on extra threads named 'LINE #2'...\n"
		"Times are from the first event's start, exact to the picosecond in JSON,\n"
		"to the nanosecond (the format's unit) in .pftrace. Nothing is capped: what\n"
		"--device, --from/--to and --max-events leave out is reported on stderr.",
		opts,
	};
	struct xp_trace *t = NULL;
	struct an_exp_plan plan = {0};
	struct an_exp_opts eo = {0};
	struct xp_err err = {0};
	struct xp_notes notes = {0};
	struct cmd_out out = {0};
	const char **pos = NULL;
	size_t npos;
	int ret, fmt, werr = 0;

	cmd_common_init(&c);
	ret = cmd_parse(&cmd, argc, argv, &pos, &npos);
	if (ret >= 0)
		goto out;
	ret = EXIT_USAGE;
	if (npos != 1) {
		cmd_error("export takes one input (see 'xplane-stat export --help')");
		goto out;
	}
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
	c.event_stats = XP_EVSTATS_INPUT;	/* every stat becomes an argument, read again as written */
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
		cmd_error("'%s': %s", pos[0], err.msg);
		ret = err.code == XP_ERR_NOMEM ? EXIT_ERROR : EXIT_INPUT;
		goto out;
	}
	if (cmd_note_counts(&notes, pos[0], t) || note_selection(&notes, pos[0], &plan)) {
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
	if (fmt == OUT_EXP_PFTRACE && plan.npiece_tracks > OUT_EXP_PF_MAX_SEQS) {
		/* a packet sequence per piece, line and track, each its own 32-bit id */
		cmd_error("'%s': too many lines and tracks for a .pftrace (%" PRIu64 " packet sequences, at most %" PRIu64
			  "): export it as JSON, or in parts (--device, --from/--to)",
			  pos[0], plan.npiece_tracks, OUT_EXP_PF_MAX_SEQS);
		ret = EXIT_INPUT;
		goto out;
	}
	ret = cmd_out_open(&out, c.output);
	if (ret)
		goto out;
	if (write_export(&plan, (enum out_exp_format)fmt, out.f, out.tmp != NULL, cmd_jobs(&c, SIZE_MAX), &werr)) {
		if (out.f == stdout && ferror(stdout)) {
			/* main checks standard output once: a closed pipe ends quietly, other errors exit 1 */
			ret = cmd_out_close(&out, 1);
			goto out;
		}
		if (werr)
			cmd_error("cannot write '%s': %s", c.output, strerror(werr));
		else if (!ferror(out.f))
			cmd_error("out of memory");
		else
			cmd_error("cannot write '%s': %s", c.output, strerror(errno));
		cmd_out_close(&out, 0);
		ret = EXIT_ERROR;
		goto out;
	}
	ret = cmd_out_close(&out, 1);
	if (ret)
		goto out;
	cmd_print_notes(&notes);
	print_selection(pos[0], &plan);
out:
	xp_notes_release(&notes);
	an_exp_plan_release(&plan);
	xp_trace_free(t);
	free(pos);
	return ret;
}
