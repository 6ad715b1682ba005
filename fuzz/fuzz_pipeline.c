/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The whole analysis pipeline on one input, as the commands run it: reader ->
 * executions -> functions, autotune and --compat=ejkernel candidates, kernels,
 * ops (by op or category, each sort, the input pooled twice), planes,
 * events (the table and --list's stream), overview, device memory and
 * compile time (each on the full read and the command's own), export (both
 * writers, JSON parsed, the protobuf unpacked), the report's page -> every
 * formatter into a buffer. Beyond not crashing, each output must be
 * well-formed whatever the names in the input hold:
 *   JSON  parses (cJSON) and is valid UTF-8 (JSON lines: each line);
 *   CSV   every record has as many fields as the header (RFC 4180 quoting);
 *   TSV   every line has as many tabs as the header, no raw CR;
 *   table valid UTF-8 with no control character but the newline.
 * The options (reader, device pattern, --children, --min-duration, --time,
 * --trim, --per-device, --match, memory's --peak, --timeline and --memory,
 * compile's --function and --top) come from a hash of the input, so that the
 * fuzzer reaches them all without a format of its own to learn;
 * FUZZ_VERBOSE=1 prints the choice. memory's and compile's results must also
 * keep the promises of an_memory.h (val_memory) and an_compile.h (val_compile);
 * the checks of outputs and results are in validate.c.
 */
#include <math.h>
#include <regex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_autotune.h"
#include "an_compat.h"
#include "an_compile.h"
#include "an_counters.h"
#include "an_cpu.h"
#include "an_export.h"
#include "an_report.h"
#include "an_events.h"
#include "an_exec.h"
#include "an_functions.h"
#include "an_group.h"
#include "an_kernels.h"
#include "an_memory.h"
#include "an_hlo.h"
#include "an_ops.h"
#include "an_overview.h"
#include "an_planes.h"
#include "xp_stray.h"
#include "an_input.h"
#include "cmd.h"
#include "model_check.h"
#include "out_autotune.h"
#include "out_compile.h"
#include "out_export.h"
#include "out_events.h"
#include "out_functions.h"
#include "out_kernels.h"
#include "out_memory.h"
#include "out_hlo.h"
#include "out_ops.h"
#include "out_scope.h"
#include "out_overview.h"
#include "out_planes.h"
#include "validate.h"
#include "xp_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

/*
 * How the formatters are called: without colour, and with it (text tables
 * only); of one input, or of several with every cell whole (--wide).
 */
static const struct out_style style[2] = {{.unit = OUT_UNIT_AUTO}, {.colour = 1, .unit = OUT_UNIT_AUTO}};
static const struct out_style style_several[2] = {{.unit = OUT_UNIT_AUTO, .several = 1, .wide = 1},
						  {.colour = 1, .unit = OUT_UNIT_AUTO, .several = 1, .wide = 1}};

struct list_ctx {
	FILE *f;
	enum out_mode mode;
	size_t listed;
};

static int list_one(void *ctx, const struct xp_plane *p, const struct xp_event *e)
{
	struct list_ctx *c = ctx;

	if (c->listed++ == 4096)
		return 1;	/* enough for one input: stop */
	return out_events_list_event(c->f, c->mode, "fuzz\t\"input\xff", p, e) ? -1 : 0;
}

/* events --list as cmd_events selects (an_ev_each), at most 4096 events; 0, or -1 when a write failed. */
static int list_events(FILE *f, enum out_mode mode, const struct xp_trace *t, const struct an_ev_opts *o)
{
	struct list_ctx c = {f, mode, 0};

	out_events_list_header(f, mode);
	return an_ev_each(o, t, list_one, &c) < 0 ? -1 : 0;
}

/* The read cmd_memory makes (cmd_read_host); 0, or -1 when it fails (err set). */
static int mem_command_read(const struct xp_reader *reader, const uint8_t *data, size_t len, uint64_t h,
			    struct xp_trace **t, struct xp_err *err)
{
	struct xp_read_opts o = {.reader = reader};

	an_read_opts(&o, &an_memory_analysis.read);
	o.jobs = 1 + ((h >> 47) & 1);
	o.split_bytes = (h >> 48) & 1;	/* with 2 jobs: a host plane's lines split, filtered at once */
	o.want_plane = an_wants_host_plane;
	return xp_trace_read_opts(&o, data, len, t, err) ? -1 : 0;
}

/*
 * Adds t to r: straight, or as cmd_memory does, into a result of the input's
 * own (its worker's) merged after r's rows.
 */
static int mem_add(struct an_mem_result *r, int merged, const struct xp_trace *t, const char *input,
		   struct xp_err *err)
{
	struct an_mem_result one;
	int ret;

	if (!merged)
		return an_mem_add(r, t, input, err);
	an_mem_init(&one, &r->opts);
	ret = an_mem_add(&one, t, input, err);
	if (!ret)
		ret = an_mem_merge(r, &one, err);
	an_mem_release(&one);
	return ret;
}

/* The read cmd_compile makes (cmd_read_host); 0, or -1 when it fails (err set). */
static int comp_command_read(const struct xp_reader *reader, const uint8_t *data, size_t len, uint64_t h,
			     struct xp_trace **t, struct xp_err *err)
{
	struct xp_read_opts o = {.reader = reader};

	an_read_opts(&o, &an_compile_analysis.read);
	o.jobs = 1 + ((h >> 57) & 1);
	o.split_bytes = (h >> 58) & 1;	/* with 2 jobs: a host plane's lines split among them */
	o.want_plane = an_wants_host_plane;
	return xp_trace_read_opts(&o, data, len, t, err) ? -1 : 0;
}

/* Adds t to r: straight, or as cmd_compile does, into its worker's result merged after r's. */
static int comp_add(struct an_comp_result *r, int merged, struct xp_trace *t, const char *input,
		    struct xp_err *err)
{
	struct an_comp_result one;
	int ret;

	if (!merged)
		return an_comp_add(r, t, input, err);
	an_comp_init(&one, &r->opts);
	ret = an_comp_add(&one, t, input, err);
	if (!ret)
		ret = an_comp_merge(r, &one, err);
	an_comp_release(&one);
	return ret;
}

static uint64_t hash(const uint8_t *d, size_t n)
{
	uint64_t h = 1469598103934665603ULL ^ n;
	size_t i;

	for (i = 0; i < n && i < 64; i++)
		h = (h ^ d[i]) * 1099511628211ULL;
	for (i = n > 64 ? n - 64 : n; i < n; i++)
		h = (h ^ d[i]) * 1099511628211ULL;
	return h;
}

static regex_t rx_children, rx_match, rx_id;
static int have_rx;

static void compile_regexes(void)
{
	if (have_rx)
		return;
	if (regcomp(&rx_children, "fusion|^%?[a-z]", REG_EXTENDED) ||
	    regcomp(&rx_match, "^jit_", REG_EXTENDED) ||
	    regcomp(&rx_id, AN_AT_DEFAULT_ID_REGEX, REG_EXTENDED))
		abort();
	have_rx = 1;
}

/* Writer fmt's whole output for plan p, into b (released by the caller); -1 out of memory. */
static int export_bytes(const struct an_exp_plan *p, enum out_exp_format fmt, struct out_bytes *b)
{
	size_t i;

	if (out_exp_head(p, fmt, "fuzz", b))
		return -1;
	for (i = 0; i < p->npieces; i++)
		if (out_exp_piece(p, i, fmt, b))
			return -1;
	return out_exp_tail(p, fmt, b);
}

/*
 * The export of the input read again by the wire reader with every event's
 * own stats left in the input (XP_EVSTATS_INPUT, as export reads), on 2
 * threads with every plane split: byte for byte plan p's (from the whole
 * model), both formats.
 */
static void export_as_read(const uint8_t *data, size_t len, const struct an_exp_opts *eo,
			   const struct an_exp_plan *p)
{
	struct xp_read_opts o = {.reader = &xp_reader_wire, .jobs = 2, .split_bytes = 1,
				 .event_stats = XP_EVSTATS_INPUT};
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	struct an_exp_plan q;
	int fmt;

	if (xp_trace_read_opts(&o, data, len, &t, &err)) {
		if (err.code != XP_ERR_NOMEM)
			val_fail("read with stats left in the input failed", err.msg, strlen(err.msg));
		return;
	}
	if (an_exp_plan(t, eo, &q, &err)) {
		if (err.code != XP_ERR_NOMEM)
			val_fail("export plan of the read with stats left in the input failed", err.msg,
				 strlen(err.msg));
		xp_trace_free(t);
		return;
	}
	for (fmt = 0; fmt < 2; fmt++) {
		enum out_exp_format f = fmt ? OUT_EXP_PFTRACE : OUT_EXP_JSON;
		struct out_bytes a = {0}, b = {0};

		if (!export_bytes(p, f, &a) && !export_bytes(&q, f, &b) &&
		    (a.n != b.n || (a.n && memcmp(a.p, b.p, a.n))))
			val_fail("export with stats left in the input differs", (const char *)b.p, b.n);
		out_bytes_release(&a);
		out_bytes_release(&b);
	}
	an_exp_plan_release(&q);
	xp_trace_free(t);
}

static int want_none(const char *name, void *ctx)
{
	(void)name;
	(void)ctx;
	return 0;
}

/*
 * The .pftrace of trace t plane by plane, as export streams it: planes in
 * an_exp_plane_order (by their bytes in the input), each loaded if deferred
 * and planned alone, its sequences after the planes before it, times from
 * zero_ns. 0, or -1: out of memory, a plan that does not fit a .pftrace,
 * or (limit_ok: the whole plan failed so) a plane's own events too far apart
 * for one picosecond timeline (XP_ERR_LIMIT); any other failure fails the run.
 */
static int pf_by_planes(struct xp_trace *t, int64_t zero_ns, int limit_ok, struct out_bytes *b, uint64_t *exported)
{
	struct an_exp_opts o = {.have_plane = 1, .have_clock_zero = 1, .clock_zero_ns = zero_ns};
	struct xp_err err = {0};
	int64_t *pids = NULL;
	size_t *order = malloc((t->nplanes + 1) * sizeof(*order)), k, i;
	int ret = -1;

	*exported = 0;
	if (!order || an_exp_pids(t, &pids))
		goto out;
	an_exp_plane_order(t, order);
	o.pids = pids;
	for (k = 0; k < t->nplanes; k++) {
		struct an_exp_plan p;

		if (xp_trace_load_plane(t, order[k], &err) || an_exp_plan(t, (o.plane = order[k], &o), &p, &err)) {
			if (err.code != XP_ERR_NOMEM && !(limit_ok && err.code == XP_ERR_LIMIT))
				val_fail("export by planes: a plane failed where the whole read and plan did not",
					 err.msg, strlen(err.msg));
			goto out;
		}
		o.first_track += p.npiece_tracks;
		*exported += p.exported;
		if (p.exported && p.origin_ns < zero_ns)
			val_fail("export by planes: a plane starts before the whole plan's clock zero", "", 0);
		if (p.exported && out_exp_pf_fits(&p) != OUT_EXP_PF_FITS) {
			an_exp_plan_release(&p);	/* export refuses it (exit 3) */
			goto out;
		}
		/* the writers fail only out of memory, which aborts */
		if (p.exported && out_exp_head(&p, OUT_EXP_PFTRACE, "fuzz", b))
			abort();
		for (i = 0; p.exported && i < p.npieces; i++)
			if (out_exp_piece(&p, i, OUT_EXP_PFTRACE, b))
				abort();
		an_exp_plan_release(&p);
	}
	ret = 0;
out:
	free(order);
	free(pids);
	return ret;
}

/*
 * export's stream: the .pftrace written plane by plane, from the model read
 * whole and from a read that deferred every plane (the wire reader, stats
 * left in the input, as export reads a file it streams), byte for byte the
 * same, one begin and end per event the whole plan exports (whole; NULL
 * where planes too far apart for one picosecond timeline failed it: a
 * .pftrace of the whole trace holds them).
 */
static void export_by_planes(const uint8_t *data, size_t len, struct xp_trace *t, const struct an_exp_plan *whole,
			     int64_t zero_ns)
{
	struct xp_read_opts o = {.reader = &xp_reader_wire, .jobs = 2, .split_bytes = 1,
				 .event_stats = XP_EVSTATS_INPUT, .want_plane = want_none};
	struct xp_trace *d = NULL;
	struct xp_err err = {0};
	struct out_bytes a = {0}, b = {0};
	uint64_t na, nb;

	if (pf_by_planes(t, zero_ns, !whole, &a, &na))
		goto out;
	if (whole && na != whole->exported)
		val_fail("export by planes: not the whole plan's events", "", 0);
	val_pftrace(&a, na);
	if (xp_trace_read_opts(&o, data, len, &d, &err))
		val_fail("a read deferring every plane failed", err.msg, strlen(err.msg));
	if (pf_by_planes(d, zero_ns, !whole, &b, &nb))
		val_fail("export by planes: a deferred plane failed where the whole read did not", "", 0);
	if (a.n != b.n || (a.n && memcmp(a.p, b.p, a.n)))
		val_fail("export by planes: deferred planes write other bytes", (const char *)b.p, b.n);
out:
	out_bytes_release(&a);
	out_bytes_release(&b);
	xp_trace_free(d);
}

/* JSON of planes or events into a malloc'd buffer (*n bytes); NULL when the formatter fails. */
static char *json_of(const struct an_planes *pl, struct an_ev_result *er, const struct xp_notes *notes,
		     size_t *n)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, n);
	int r;

	if (!f)
		abort();
	r = pl ? out_planes(f, OUT_JSON, "in", pl, notes, &style[0]) : out_events(f, OUT_JSON, er, notes, &style[0]);
	if (fclose(f) || r) {
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * The input read again (by the reader that accepted it) as planes and events
 * read it: each plane described or counted on the thread that read it
 * (split among threads by lines), or after the read where the reader does
 * not call plane_read (protobuf-c), its events then released; planes with
 * pieces also reads every plane in pieces (xp_read_opts.line_events), read
 * again whole where their summaries do not decide; the same JSON as from
 * the whole model, want.
 */
static void check_as_read(const struct xp_reader *reader, const uint8_t *data, size_t len,
			  const struct an_ev_opts *eo, const char *want, size_t want_n, int events, int pieces)
{
	struct xp_read_opts o = {.reader = reader, .jobs = 3, .split_bytes = 1,
				 .event_stats = XP_EVSTATS_NONE, .release_events = 1};
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	struct xp_notes notes = {0};
	struct an_planes pl = {0};
	struct an_ev_result er;
	char *got = NULL;
	size_t n = 0;

	o.plane_read = events ? an_ev_plane_read : an_planes_plane_read;
	o.plane_read_ctx = (void *)eo;
	o.plane_user_free = events ? an_ev_user_free : an_planes_user_free;
	if (pieces && !events) {	/* every plane with lines read in pieces (the wire reader) */
		o.line_events = an_planes_line_events;
		o.line_user_size = sizeof(struct xp_line_spans);
		o.pieces_line_bytes = 1;
	}
	an_ev_init(&er);
	if (xp_trace_read_opts(&o, data, len, &t, &err)) {
		if (err.code != XP_ERR_NOMEM)
			val_fail("read with plane_read failed", err.msg, strlen(err.msg));
		goto out;
	}
	if (events ? an_ev_add(&er, t, eo, &err) || an_ev_add(&er, t, eo, &err) || an_ev_finish(&er, &err)
		   : an_planes_describe(t, &pl, &err)) {
		if (err.code != XP_ERR_NOMEM)
			val_fail("analysis of planes read apart failed", err.msg, strlen(err.msg));
		goto out;
	}
	got = json_of(events ? NULL : &pl, &er, &notes, &n);
	if (got && want && (n != want_n || memcmp(got, want, n)))
		val_fail(events ? "events counted as read differ" : "planes described as read differ", got, n);
out:
	free(got);
	an_planes_release(&pl);
	an_ev_release(&er);
	xp_trace_free(t);
}

/* Each op row counted in the module it ran in (an_hlo_mark_op). */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const char *const devices[] = {NULL, NULL, "gpu", "TPU:0", "GPU:1", "custom"};
	static const enum out_mode modes[] = {OUT_TABLE, OUT_JSON, OUT_CSV, OUT_TSV};
	uint64_t h = hash(data, len);
	const struct xp_reader *reader = h & 1 ? &xp_reader_wire : &xp_reader_protobuf_c;
	struct an_exec_opts xo = {0};
	struct an_fn_opts fo = {0};
	struct an_at_opts ao = {0};
	struct an_compat_opts co = {0};
	struct an_compat_file info;
	struct an_fn_result fr;
	struct an_at_result ar, cr;
	struct an_exec_list l;
	struct an_strag_result sr;
	struct an_planes pl = {0};
	struct xp_notes notes = {0};
	struct xp_trace *t = NULL;
	struct xp_err err = {0};
	struct model_diff d;
	size_t m;
	int colour = (h >> 20) & 1;

	compile_regexes();
	if (xp_trace_read(reader, data, len, &t, &err))
		return 0;
	if (model_check(t, &d)) {
		fprintf(stderr, "%s: broken model: %s\n", reader->name, d.msg);
		abort();
	}
	xo.device = devices[(h >> 1) % 6];
	xo.children = (h >> 4) % 4 == 0 ? &rx_children : NULL;
	xo.min_dur_ps = (h >> 6) % 4 == 0 ? 1000000 : 0;
	fo.time = xo.children ? AN_TIME_CHILDREN : (h >> 8) & 1 ? AN_TIME_SPAN : AN_TIME_BUSY;
	fo.trim = (h >> 9) % 3;
	fo.per_device = (h >> 11) & 1;
	fo.match = (h >> 12) % 4 == 0 ? &rx_match : NULL;
	ao.id_re = &rx_id;
	ao.trim = (h >> 14) % 3;
	ao.all_devices = (h >> 16) & 1;
	ao.run_means = (h >> 17) & 1;	/* then the input twice: two runs, or (h >> 18) one run of two */
	ao.time = fo.time;
	ao.alpha = 0.05;
	if (getenv("FUZZ_VERBOSE"))
		fprintf(stderr, "reader %s, device %s, children %d, min-duration %lld, time %d, trim %zu, "
			"per-device %d, match %d, autotune trim %zu all-devices %d, colour %d\n",
			reader->name, xo.device ? xo.device : "(any)", xo.children != NULL,
			(long long)xo.min_dur_ps, (int)fo.time, fo.trim, fo.per_device, fo.match != NULL,
			ao.trim, ao.all_devices, colour);

	/*
	 * A trace with no device plane: XLA:CPU's thunks as one, as the
	 * commands take it, on a trace of its own (the checks below compare
	 * reads of the file as it is): the model holds, and functions and ops
	 * find as many executions and op events as the plane says.
	 */
	{
		struct an_cpu_made made;
		struct xp_trace *tc = NULL;

		if (!xp_trace_read(reader, data, len, &tc, &err)) {
			if (an_cpu_device(tc, &made, &err)) {
				if (err.code != XP_ERR_NOMEM)
					abort();
			} else if (made.thunks) {
				struct an_exec_list lc;
				struct an_ops_opts oo = {0};
				struct an_ops_result orc;
				struct an_exec_opts xc = {0};

				if (model_check(tc, &d)) {
					fprintf(stderr, "the XLA:CPU plane: broken model: %s\n", d.msg);
					abort();
				}
				if (!an_exec_find(tc, &xc, &lc, &err)) {
					size_t k, stray = 0;

					for (k = 0; k < lc.ndevices; k++)
						stray += lc.devices[k].stray_events;
					if (lc.n + stray != made.executions)
						val_fail("XLA:CPU: executions found are not those made", "", 0);
					an_exec_list_release(&lc);
				}
				an_ops_init(&orc, &oo);
				if (!an_ops_add(&orc, tc, &err) && !an_ops_finish(&orc, &err) &&
				    orc.events[AN_OP_SYNC] + orc.stray_events != made.thunks)
					val_fail("XLA:CPU: op events are not the thunks made", "", 0);
				an_ops_release(&orc);
			}
			xp_trace_free(tc);
		}
	}
	if (an_input_notes(&notes, "fuzz\xff\n\"input", t))
		abort();
	/* functions: the same input pooled twice, as two inputs would be */
	an_fn_init(&fr, &fo);
	an_at_init(&ar, &ao);
	an_strag_init(&sr);
	if (!an_exec_find(t, &xo, &l, &err)) {
		if (an_fn_add(&fr, &l, &err) || an_fn_add(&fr, &l, &err) || an_at_add(&ar, &l, &err) ||
		    (ao.run_means && an_at_add(&ar, &l, &err)))
			abort();
		if (ao.run_means && (h >> 18) & 1)
			an_at_group(&ar, (const size_t[]){0, 0}, 2, 1);
		/*
		 * stragglers: the input twice, as two inputs of one host would be; or
		 * (by the hash) as two hosts of one run, whose host times are then equal
		 */
		if ((h >> 19) & 1) {
			sr.run_by = AN_RUN_BY_DIR;
			if (!an_strag_add_input(&sr, t, &l, "run/a.xplane.pb", &err) &&
			    !an_strag_add_input(&sr, t, &l, "run/b.xplane.pb", &err) && !an_strag_finish(&sr, &err))
				val_strag_hosts(&sr, 1);
		} else if (!an_strag_add(&sr, t, &l, &err) && !an_strag_add(&sr, t, &l, &err) &&
			   !an_strag_finish(&sr, &err)) {
			val_strag(&sr);
			val_strag_hosts(&sr, 0);
		}
	} else if (err.code != XP_ERR_NOMEM && err.code != XP_ERR_LIMIT) {
		/* a limit (host planes based too far apart to compare) is an input the command refuses (exit 3) */
		fprintf(stderr, "an_exec_find: %s\n", err.msg);
		abort();
	}
	an_exec_list_release(&l);
	an_fn_finish(&fr, &err);
	an_at_finish(&ar, &err);
	for (m = 0; m < 4; m++) {
		VAL_FORMAT(modes[m], colour && !m, out_functions(f, modes[m], &fr, &notes, &style[colour && !m]));
		VAL_FORMAT(modes[m], colour && !m,
			   out_autotune(f, modes[m], &ar, 1 + ((h >> 58) & 1), &notes, &style[colour && !m]));
	}
	an_fn_release(&fr);
	an_at_release(&ar);

	/* --compat=ejkernel */
	co.device = xo.device ? xo.device : "gpu";
	co.children = xo.children;
	co.id_re = &rx_id;
	ao.trim = 1;
	ao.all_devices = 0;
	an_at_init(&cr, &ao);
	if (!an_compat_add(t, &co, &cr, cr.inputs++, &info, &err)) {
		an_at_finish(&cr, &err);
		VAL_FORMAT(OUT_JSON, 0, out_autotune(f, OUT_JSON, &cr, 2, &notes, &style[0]));
		VAL_FORMAT(OUT_TABLE, 0, out_autotune(f, OUT_TABLE, &cr, 2, &notes, &style[0]));
	}
	an_at_release(&cr);

	/* kernels: by name, config or function, --slowest; the input pooled twice through a merge */
	{
		struct an_kern_opts ko = {.by = (enum an_kern_by)((h >> 22) % 3), .device = xo.device,
					  .slowest = (h >> 59) & 3};	/* --slowest 0..3: the heap, merged */
		struct out_kern_opts oo = {.top = (h >> 24) % 3, .copies = (h >> 26) & 1};
		struct an_kern_result kr, one;

		an_kern_init(&kr, &ko);
		an_kern_init(&one, &ko);
		if (an_kern_add(&one, t, &err) || an_kern_merge(&kr, &one, &err)) {
			if (err.code != XP_ERR_NOMEM && err.code != XP_ERR_FORMAT)
				abort();
		} else {
			an_kern_release(&one);
			an_kern_init(&one, &ko);
			if (!an_kern_add(&one, t, &err) && an_kern_merge(&kr, &one, &err))
				abort();
			an_kern_finish(&kr, &err);
			for (m = 0; m < 4; m++)
				VAL_FORMAT(modes[m], colour && !m, out_kernels(f, modes[m], &kr, &oo, &notes, &style[colour && !m]));
		}
		an_kern_release(&one);
		an_kern_release(&kr);
	}

	/* ops: by op or category, each sort, --top; the input pooled twice through a merge */
	{
		struct an_ops_opts po = {.device = xo.device, .by_category = (h >> 34) & 1,
					 .sort = (enum an_ops_sort)((h >> 35) % 4), .hlo = (h >> 39) & 1,
					 .by_scope = ((h >> 39) & 3) == 1, .by_source = ((h >> 39) & 3) == 3,
					 .by_framework = ((h >> 39) & 3) == 2};
		size_t top = (h >> 37) % 3;
		struct an_ops_result pr, one;

		an_ops_init(&pr, &po);
		an_ops_init(&one, &po);
		if (an_ops_add(&one, t, &err) || an_ops_merge(&pr, &one, &err)) {
			if (err.code != XP_ERR_NOMEM && err.code != XP_ERR_FORMAT)
				abort();
		} else {
			an_ops_release(&one);
			an_ops_init(&one, &po);
			if (!an_ops_add(&one, t, &err) && an_ops_merge(&pr, &one, &err))
				abort();
			if (an_ops_finish(&pr, &err))
				abort();
			/* calls (an_op_row): GPU only, at most the row's kernels with an id, some when it has them */
			for (m = 0; m < pr.nrows; m++) {
				const struct an_op_row *row = &pr.rows[m];

				if ((row->line != AN_OP_GPU && (row->calls || row->kernels_unscoped)) ||
				    row->kernels_unscoped > row->occurrences ||
				    row->calls > row->occurrences - row->kernels_unscoped ||
				    (row->line == AN_OP_GPU && !row->calls != (row->kernels_unscoped == row->occurrences))) {
					fprintf(stderr, "ops: row '%s' (line %d): %zu occurrences, %zu calls, %zu unscoped\n",
						row->name, (int)row->line, row->occurrences, row->calls, row->kernels_unscoped);
					abort();
				}
				/*
				 * costs from the HLO: GPU rows only; costed ones of known calls,
				 * their FLOPs or bytes known (or overflowed) from it, a reason
				 * exactly where the FLOPs are not
				 */
				if ((row->cost && row->line != AN_OP_GPU) || (row->calls_host && row->line != AN_OP_GPU) ||
				    (row->cost == AN_OP_COST_HLO &&
				     (!an_op_calls_known(row) || (!row->flops.n && !row->bytes.n) ||
				      (row->flops.n && row->flops.n != row->occurrences) ||
				      !row->cost_why != !!row->flops.n)) ||
				    (row->cost == AN_OP_COST_UNKNOWN && !row->cost_why) ||
				    (row->cost == AN_OP_COST_NO_INSTR && row->cost_why)) {
					fprintf(stderr, "ops: row '%s': cost %d, why %s, flops n %zu, bytes n %zu\n", row->name,
						(int)row->cost, row->cost_why ? row->cost_why : "-", row->flops.n, row->bytes.n);
					abort();
				}
			}
			/* framework ops and their types: each op in one group of each, per line kind */
			if (po.by_framework) {
				size_t occ[3] = {0, 0, 0};

				for (m = 0; m < pr.nrows; m++)
					occ[0] += pr.rows[m].occurrences;
				for (m = 0; m < pr.nframeworks; m++)
					occ[1] += pr.frameworks[m].occurrences;
				for (m = 0; m < pr.nfwtypes; m++)
					occ[2] += pr.fwtypes[m].occurrences;
				if (occ[1] != occ[0] || occ[2] != occ[0] || pr.nfwtypes > pr.nframeworks) {
					fprintf(stderr, "ops: %zu occurrences in rows, %zu in framework ops, %zu in types\n",
						occ[0], occ[1], occ[2]);
					abort();
				}
			}
			for (m = 0; m < 4; m++)
				VAL_FORMAT(modes[m], colour && !m,
					   out_ops(f, modes[m], &pr, top, &notes, &style[colour && !m]));
			if (po.hlo)	/* folded stacks: a line per op, "frames value", text as tables write it */
				VAL_FORMAT(OUT_TABLE, 0, out_ops_folded(f, &pr));
			/* hlo: the metadata plane's modules, joined to these ops, each decoded or refused */
			{
				struct an_hlo_set hs = {0};
				size_t e;
				int nomem = 0;

				if (an_hlo_find(&hs, t, &err)) {
					if (err.code != XP_ERR_NOMEM && err.code != XP_ERR_FORMAT)
						abort();
				} else {
					if (an_ops_mark_hlo(&pr, &hs))
						abort();
					for (e = 0; e < hs.n; e++)
						if (!an_hlo_module(&hs, &hs.e[e], &nomem) && (nomem || !hs.e[e].error))
							abort();
					for (m = 0; m < 4; m++)
						VAL_FORMAT(modes[m], colour && !m,
							   out_hlo_modules(f, modes[m], "fuzz", &hs, &notes,
									   &style[colour && !m]));
				}
				an_hlo_set_release(&hs);
			}
		}
		an_ops_release(&one);
		an_ops_release(&pr);
	}

	/* export: both writers over a plan with options from the hash; JSON must parse and be valid
	 * UTF-8 with one X event per exported event, the protobuf must unpack with a begin and an
	 * end per event and only valid UTF-8 in its strings */
	{
		static const char *const exp_dev[] = {NULL, NULL, "gpu", "host", "TPU:0"};
		struct an_exp_opts eo = {.device = exp_dev[(h >> 40) % 5]};
		struct an_exp_plan ep;
		struct xp_err eerr = {0};

		if ((h >> 43) % 4 == 0) {
			eo.have_from = eo.have_to = 1;
			eo.from_ps = (int64_t)((h >> 45) % 4) * 1000000;
			eo.to_ps = eo.from_ps + 2000000;
		}
		eo.max_events = (h >> 47) % 4 == 0 ? (h >> 49) % 7 : 0;
		if (an_exp_plan(t, &eo, &ep, &eerr)) {
			if (eerr.code != XP_ERR_NOMEM && eerr.code != XP_ERR_LIMIT)
				abort();
			if (eerr.code == XP_ERR_LIMIT && reader == &xp_reader_wire && !eo.device && !eo.have_from &&
			    !eo.max_events)
				export_by_planes(data, len, t, NULL, an_exp_clock_zero(t));
		} else {
			val_export(&ep);
			if (!eo.max_events && !eo.have_from)	/* a window would count from the earlier origin */
				val_export_hosts(t, &eo, &ep);
			if (reader == &xp_reader_wire)
				export_as_read(data, len, &eo, &ep);
			if (reader == &xp_reader_wire && !eo.device && !eo.have_from && !eo.max_events)
				export_by_planes(data, len, t, &ep, an_exp_clock_zero(t));
			an_exp_plan_release(&ep);
		}
	}

	/* planes, and the same described as each plane is read */
	if (an_planes_describe(t, &pl, &err))
		abort();
	for (m = 0; m < 4; m++)
		VAL_FORMAT(modes[m], colour && !m,
			   out_planes(f, modes[m], "fuzz\x01input\xc3", &pl, &notes, &style[colour && !m]));
	{
		struct xp_notes none = {0};
		size_t n = 0;
		char *want = json_of(&pl, NULL, &none, &n);

		if (want)
			check_as_read(reader, data, len, NULL, want, n, 0, (h >> 41) & 1);
		free(want);
	}
	an_planes_release(&pl);

	/*
	 * events --counters: once and pooled twice; each counter's mean and
	 * time-weighted mean lie within its min and max, and the input twice
	 * doubles the samples and spans and keeps the means.
	 */
	{
		struct an_ctr_opts cto = {.plane = (h >> 27) % 5 == 2 ? "TPU" : NULL,
					 .match = (h >> 32) % 4 == 0 ? &rx_match : NULL};
		struct an_ctr_result c1, c2;
		size_t i;

		an_ctr_init(&c1);
		an_ctr_init(&c2);
		if (an_ctr_add(&c1, t, &cto, &err) || an_ctr_finish(&c1, &err) || an_ctr_add(&c2, t, &cto, &err) ||
		    an_ctr_add(&c2, t, &cto, &err) || an_ctr_finish(&c2, &err)) {
			if (err.code != XP_ERR_NOMEM)
				abort();
		} else {
			if (c1.n != c2.n || 2 * c1.samples != c2.samples || 2 * c1.no_value != c2.no_value)
				val_fail("counters: the input twice is not twice the samples", "", 0);
			for (i = 0; i < c1.n; i++) {
				const struct an_ctr_row *a = &c1.rows[i], *b = &c2.rows[i];
				double mean = an_ctr_mean(a), tm = an_ctr_time_mean(a), slack;

				if (strcmp(a->plane, b->plane) || strcmp(a->name, b->name) || 2 * a->samples != b->samples ||
				    (a->held_ps < INT64_MAX / 2 && 2 * a->held_ps != b->held_ps))
					val_fail("counters: a row of the input twice is not twice its own", a->name,
						 strlen(a->name));
				slack = 1e-9 * (fabs(a->min) + fabs(a->max)) + 1e-300;
				if (a->samples && (mean < a->min - slack || mean > a->max + slack ||
						   (tm == tm && (tm < a->min - slack || tm > a->max + slack))))
					val_fail("counters: a mean outside min and max", a->name, strlen(a->name));
			}
			for (m = 0; m < 4; m++)
				VAL_FORMAT(modes[m], colour && !m, out_counters(f, modes[m], &c2, &notes,
										&style[colour && !m]));
		}
		an_ctr_release(&c1);
		an_ctr_release(&c2);
	}

	/* events: the names table (the input pooled twice), then --list in each of its modes */
	{
		static const char *const ev_planes[] = {NULL, NULL, "gpu", "host", "TPU:0"};
		static const char *const ev_lines[] = {NULL, NULL, "Stream", "XLA Ops"};
		struct an_ev_opts eo = {.plane = ev_planes[(h >> 27) % 5], .line = ev_lines[(h >> 30) % 4],
					.match = (h >> 32) % 4 == 0 ? &rx_match : NULL};
		struct an_ev_result er;

		an_ev_init(&er);
		if (an_ev_add(&er, t, &eo, &err) || an_ev_add(&er, t, &eo, &err) || an_ev_finish(&er, &err)) {
			if (err.code != XP_ERR_NOMEM)
				abort();
		} else {
			struct xp_notes none = {0};
			size_t n = 0;
			char *want = json_of(NULL, &er, &none, &n);

			for (m = 0; m < 4; m++)
				VAL_FORMAT(modes[m], colour && !m, out_events(f, modes[m], &er, &notes, &style[colour && !m]));
			if (want)
				check_as_read(reader, data, len, &eo, want, n, 1, 0);
			free(want);
		}
		an_ev_release(&er);
		for (m = 1; m < 4; m++) {
			char *buf = NULL;
			size_t n = 0;
			FILE *f = open_memstream(&buf, &n);
			int r;

			if (!f)
				abort();
			r = list_events(f, modes[m], t, &eo);
			if (fclose(f) || r)
				val_fail("events --list failed", buf ? buf : "", buf ? n : 0);
			if (modes[m] == OUT_JSON)
				val_json_lines(buf, n);
			else
				val_output(modes[m], 0, buf, n);
			free(buf);
		}
	}

	/* overview: the input pooled twice (devices by host and name), with its stragglers or not */
	{
		struct an_ov_opts oo = {.stragglers = (h & 4) != 0, .steps = (h & 8) != 0};
		struct an_ov_result orr;
		size_t added;

		an_ov_init_opts(&orr, &oo);
		if (an_ov_add(&orr, t, xo.device, &added, &err) || an_ov_add(&orr, t, xo.device, &added, &err) ||
		    an_ov_finish(&orr, &err)) {
			if (err.code != XP_ERR_NOMEM)
				abort();
		} else {
			if (oo.stragglers)
				val_strag(&orr.strag);
			/* utilization: FLOPs counted over part of the work's time at most; rates not negative */
			for (m = 0; m < orr.n; m++) {
				const struct an_ov_device *od = &orr.devices[m];

				if (od->flops_ps < 0 || od->flops_ps > od->work_ps || od->model_ps < 0 ||
				    od->model_ps > od->work_ps || (!od->flops_ps && an_ov_flops_per_s(od) >= 0) ||
				    (od->peak_src && !(od->peak_flops > 0))) {
					fprintf(stderr, "overview: '%s': work %lld ps, flops %lld ps, model %lld ps\n", od->name,
						(long long)od->work_ps, (long long)od->flops_ps, (long long)od->model_ps);
					abort();
				}
			}
			/* steps: busy = compute + exposed parts, within the step; leaves' flops time within theirs */
			for (m = 0; m < orr.nsteps; m++) {
				const struct an_ov_step *sp = &orr.steps[m];

				if (!sp->device || sp->busy_ps < 0 || sp->busy_ps > sp->dur_ps || sp->compute_ps < 0 ||
				    sp->host_wait_ps < 0 || (sp->dur_ps < INT64_MAX && sp->host_wait_ps > sp->dur_ps - sp->busy_ps) ||
				    sp->coll_exposed_ps < 0 || sp->memcpy_exposed_ps < 0 ||
				    (sp->busy_ps < INT64_MAX &&
				     sp->compute_ps + sp->coll_exposed_ps + sp->memcpy_exposed_ps != sp->busy_ps) ||
				    sp->flops_ps < 0 || sp->flops_ps > sp->leaf_ps || (!sp->tpu && sp->leaf_ps) ||
				    (m && orr.steps[m - 1].dev_ > sp->dev_)) {
					fprintf(stderr, "overview: step %zu: %lld ps, busy %lld = %lld + %lld + %lld\n", m,
						(long long)sp->dur_ps, (long long)sp->busy_ps, (long long)sp->compute_ps,
						(long long)sp->coll_exposed_ps, (long long)sp->memcpy_exposed_ps);
					abort();
				}
			}
			/* steps across devices: each device step lined up once or left out, counted */
			{
				size_t lined = 0;

				for (m = 0; m < orr.naligned; m++) {
					if (!orr.aligned[m].devices || orr.aligned[m].min_ps > orr.aligned[m].max_ps)
						abort();
					lined += orr.aligned[m].devices;
				}
				if (lined + orr.steps_unaligned != orr.nsteps) {
					fprintf(stderr, "overview: %zu steps, %zu lined up, %zu left out\n", orr.nsteps, lined,
						orr.steps_unaligned);
					abort();
				}
			}
			for (m = 0; m < 4; m++)
				VAL_FORMAT(modes[m], colour && !m,
					   out_overview(f, modes[m], &orr, &notes, &style[colour && !m]));
		}
		an_ov_release(&orr);
	}
	an_strag_release(&sr);

	/*
	 * report: functions, the overview and the timeline strips of the input through the HTML
	 * writer; the page must be valid UTF-8 and every '<' in it open a tag the writer writes
	 */
	{
		struct an_ov_result orr;
		struct an_fn_result rfr;
		struct an_exec_list rl;
		struct an_rep_timeline tl = {0};
		struct xp_err rerr = {0};
		size_t added;

		an_ov_init(&orr);
		an_fn_init(&rfr, &fo);
		if (!an_exec_find(t, &xo, &rl, &rerr)) {
			/* the devices on one axis (their planes' bases), as the report draws them, or each on its own */
			int64_t *base = (h >> 51) % 2 ? calloc(rl.ndevices + 1, sizeof(*base)) : NULL;
			size_t dv;

			for (dv = 0; base && dv < rl.ndevices; dv++)
				base[dv] = t->planes[rl.devices[dv].plane].base_ns;
			if (an_fn_add(&rfr, &rl, &rerr) ||
			    an_rep_timeline(&rl, base, (h >> 50) % 2 ? 50 : 7, &tl, &rerr))
				if (rerr.code != XP_ERR_NOMEM)
					abort();
			free(base);
			an_exec_list_release(&rl);
		}
		if (!an_ov_add(&orr, t, xo.device, &added, &rerr))
			an_ov_finish(&orr, &rerr);
		an_fn_finish(&rfr, &rerr);
		val_report(&rfr, &orr, &tl, &notes);
		an_rep_timeline_release(&tl);
		an_fn_release(&rfr);
		an_ov_release(&orr);
	}

	/*
	 * memory: --peak, --timeline and --memory from the hash; the input added twice, as
	 * the harness read it and as the command reads it (freed at once: rows copy strings),
	 * straight or through a merge
	 */
	{
		static const char *const mem_pats[] = {NULL, NULL, NULL, "bfc", "GPU_0", "index_on_host:0"};
		static const enum out_mem_view views[] = {OUT_MEM_SUMMARY, OUT_MEM_TIMELINE, OUT_MEM_PEAK};
		struct an_mem_opts mo = {.peak = (h >> 40) & 1, .timeline = (h >> 41) & 1,
					 .memory = mem_pats[(h >> 42) % 6]};
		struct out_mem_opts oo = {.top = (h >> 46) % 3};
		const struct out_style *mst = (h >> 45) & 1 ? style_several : style;
		struct an_mem_result mr;
		struct xp_trace *tc = NULL;
		struct xp_err me = {0};	/* err may hold an earlier analysis's error: xp_err_set keeps the first */
		size_t v, nviews;
		int added = 0, merged = (h >> 49) & 1;

		if (getenv("FUZZ_VERBOSE"))
			fprintf(stderr, "memory: peak %d, timeline %d, memory %s, show-input %d, top %zu, merged %d\n",
				mo.peak, mo.timeline, mo.memory ? mo.memory : "(any)", mst[0].several, oo.top, merged);
		/* it reads less than the full read, which accepted the input: it must accept it too */
		if (mem_command_read(reader, data, len, h, &tc, &me) && me.code != XP_ERR_NOMEM) {
			fprintf(stderr, "%s: the full read accepts, memory's read: %s\n", reader->name, me.msg);
			abort();
		}
		an_mem_init(&mr, &mo);
		/* XP_ERR_LIMIT: host planes too far apart for one picosecond timeline */
		if (tc) {
			added = !mem_add(&mr, merged, t, MEM_INPUT_A, &me) && !mem_add(&mr, merged, tc, MEM_INPUT_B, &me);
			if (!added && me.code != XP_ERR_NOMEM && me.code != XP_ERR_LIMIT)
				abort();
		}
		xp_trace_free(tc);
		if (added) {
			val_memory(&mr);
			for (m = 0; m < 4; m++) {
				/*
				 * Text and JSON give every list the options ask for in one; CSV and TSV
				 * one table a view, the peak's only with --peak, as the command asks.
				 */
				nviews = modes[m] == OUT_TABLE || modes[m] == OUT_JSON ? 1 : mo.peak ? 3 : 2;
				for (v = 0; v < nviews; v++) {
					oo.view = views[v];
					VAL_FORMAT(modes[m], colour && !m,
						   out_memory(f, modes[m], &mr, &oo, &notes, &mst[colour && !m]));
				}
			}
		}
		an_mem_release(&mr);
	}

	/*
	 * compile: --function and --top from the hash; the input added twice, as the
	 * harness read it and as the command reads it, straight or through a merge
	 */
	{
		static const char *const comp_pats[] = {NULL, NULL, "f", "JIT_", ")"};
		struct an_comp_opts po = {.function = comp_pats[(h >> 50) % 5]};
		struct out_comp_opts oo = {.top = (h >> 54) % 3};
		const struct out_style *pst = (h >> 53) & 1 ? style_several : style;
		struct an_comp_result pr;
		struct xp_trace *tc = NULL;
		struct xp_err pe = {0};
		int added = 0, merged = (h >> 56) & 1, ev;

		if (getenv("FUZZ_VERBOSE"))
			fprintf(stderr, "compile: function %s, show-input %d, top %zu, merged %d\n",
				po.function ? po.function : "(any)", pst[0].several, oo.top, merged);
		if (comp_command_read(reader, data, len, h, &tc, &pe) && pe.code != XP_ERR_NOMEM) {
			fprintf(stderr, "%s: the full read accepts, compile's read: %s\n", reader->name, pe.msg);
			abort();
		}
		an_comp_init(&pr, &po);
		/* XP_ERR_LIMIT: host planes too far apart, for both reads alike */
		if (tc) {
			if (comp_add(&pr, merged, t, COMP_INPUT_A, &pe)) {
				if (pe.code != XP_ERR_NOMEM && pe.code != XP_ERR_LIMIT)
					abort();
			} else if (comp_add(&pr, merged, tc, COMP_INPUT_B, &pe)) {
				if (pe.code != XP_ERR_NOMEM) {
					fprintf(stderr, "compile: the full read is added, the command's read: %s\n",
						pe.msg);
					abort();
				}
			} else {
				added = 1;
			}
		}
		xp_trace_free(tc);
		if (added) {
			val_compile(&pr);
			for (m = 0; m < 4; m++)
				/* CSV and TSV: the functions, then the events (--events) */
				for (ev = 0; ev < (modes[m] == OUT_CSV || modes[m] == OUT_TSV ? 2 : 1); ev++) {
					oo.events = ev;
					VAL_FORMAT(modes[m], colour && !m,
						   out_compile(f, modes[m], &pr, &oo, &notes, &pst[colour && !m]));
				}
		}
		an_comp_release(&pr);
	}

	xp_notes_release(&notes);
	xp_trace_free(t);
	return 0;
}
