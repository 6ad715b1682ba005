/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The hand-computed answers of tests/synth/EXPECTED.md, asserted against the
 * library on the traces that tools/gen_synth writes into SYNTH_DIR.
 *
 * Where the tool deliberately departs from a convention of EXPECTED.md, the
 * expected value is re-derived by hand below from the numbers in
 * EXPECTED.md, with the arithmetic in a comment:
 *
 *  - program id: the program_id stat, else the "(digits)" fingerprint of the
 *    event name, never run_id.  jit_f(123456) is one function (program
 *    123456) whatever its run_id, so its executions pool into one row.
 *  - rows pool devices unless an_fn_opts.per_device is set.
 *  - an_summary: total, min, median and max are over all samples; mean and
 *    std over the samples left after trimming.
 *
 * Times are integer picoseconds (1 us = 1,000,000 ps).  Statistics that are
 * whole picoseconds are compared exactly; square roots to 1e-12 relative.
 */
#include <regex.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "an_autotune.h"
#include "an_compat.h"
#include "an_exec.h"
#include "an_functions.h"
#include "an_stats.h"
#include "test.h"
#include "test_trace.h"
#include "xp_input.h"
#include "xp_model.h"

#define US(x) ((int64_t)(x) * 1000000)	/* microseconds to ps */

/* A double that must equal a whole number of picoseconds exactly. */
#define CHECK_PS(a, b)                                                                   \
	do {                                                                             \
		double p_ = (double)(a), q_ = (double)(b);                               \
		if (p_ != q_) {                                                          \
			fprintf(stderr, "%s:%d: %s == %.17g, expected exactly %.17g\n", __FILE__, \
				__LINE__, #a, p_, q_);                                   \
			test_failures++;                                                 \
		}                                                                        \
	} while (0)

/* ---- helpers ---------------------------------------------------------------------- */

static void compile(regex_t *re, const char *pattern)
{
	if (regcomp(re, pattern, REG_EXTENDED)) {
		fprintf(stderr, "test bug: bad regex '%s'\n", pattern);
		exit(2);
	}
}

/* Loads SYNTH_DIR/rel into a trace; NULL (a failure counted) if it cannot. */
static struct xp_trace *load(const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", SYNTH_DIR, rel);
	return test_load(path, NULL);
}

/* Executions of t on the planes matching device (NULL: all), with --children pattern. */
static int find_execs(struct xp_trace *t, const char *device, const char *children,
		      struct an_exec_list *l)
{
	struct an_exec_opts o = {.device = device};
	struct xp_err err = {0};
	regex_t re;
	int ret;

	if (children) {
		compile(&re, children);
		o.children = &re;
	}
	ret = an_exec_find(t, &o, l, &err);
	if (ret) {
		fprintf(stderr, "an_exec_find: %s\n", err.msg);
		test_failures++;
	}
	if (children)
		regfree(&re);
	return ret;
}

/* Function rows of one trace: executions (children pattern or NULL), then an_fn_*. */
static void fn_rows(struct xp_trace *t, const char *children, const struct an_fn_opts *fo,
		    struct an_fn_result *r)
{
	struct an_exec_list l;
	struct xp_err err = {0};

	an_fn_init(r, fo);
	if (find_execs(t, NULL, children, &l))
		return;
	CHECK_INT(an_fn_add(r, &l, &err), 0);
	CHECK_INT(an_fn_finish(r, &err), 0);
	an_exec_list_release(&l);
}

/* The row of (name, program id or none, device or NULL when pooled); NULL if absent. */
static const struct an_fn_row *find_row(const struct an_fn_result *r, const char *name,
					int has_pid, uint64_t pid, const char *device)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		const struct an_fn_row *w = &r->rows[i];

		if (strcmp(w->name, name) || w->has_program_id != has_pid ||
		    (has_pid && w->program_id != pid))
			continue;
		if (device ? !w->device || strcmp(w->device, device) : w->device != NULL)
			continue;
		return w;
	}
	fprintf(stderr, "no row %s/%s%" PRIu64 " on %s\n", name, has_pid ? "" : "none ",
		pid, device ? device : "(pooled)");
	test_failures++;
	return NULL;
}

static const struct an_at_cand *find_cand(const struct an_at_result *r, const char *id)
{
	size_t i;

	for (i = 0; i < r->ncands; i++)
		if (!strcmp(r->cands[i].id, id))
			return &r->cands[i];
	fprintf(stderr, "no autotune candidate '%s'\n", id);
	test_failures++;
	return NULL;
}

/* Expected an_summary; n_used = n unless trimmed. */
struct want {
	size_t n, n_used;
	double total, mean, std, min, median, max;
};

/* A whole-ps expectation is compared exactly, anything else to 1e-12 relative. */
static void check_value(double got, double want, const char *field)
{
	if (want == floor(want)) {
		if (got != want) {
			fprintf(stderr, "  %s == %.17g, expected exactly %.17g\n", field, got, want);
			test_failures++;
		}
	} else {
		int before = test_failures;

		CHECK_NEAR(got, want, 1e-12);
		if (test_failures != before)
			fprintf(stderr, "  (that is the %s)\n", field);
	}
}

static void check_summary(const char *what, const struct an_summary *s, const struct want *w)
{
	int before = test_failures;

	if (!s) {
		fprintf(stderr, "%s: missing\n", what);
		test_failures++;
		return;
	}
	CHECK_INT(s->n, w->n);
	CHECK_INT(s->n_used, w->n_used);
	CHECK_INT(s->trimmed, (w->n - w->n_used) / 2);
	check_value(s->total, w->total, "total");
	check_value(s->mean, w->mean, "mean");
	check_value(s->std, w->std, "std");
	check_value(s->min, w->min, "min");
	check_value(s->median, w->median, "median");
	check_value(s->max, w->max, "max");
	if (test_failures != before)
		fprintf(stderr, "  ^ in %s\n", what);
}

static void check_row(const char *what, const struct an_fn_row *row, size_t ndevices,
		      const struct want *w)
{
	if (!row)
		return;
	CHECK_INT(row->ndevices, ndevices);
	check_summary(what, &row->s, w);
}

/* Expected an_exec fields (children_ps checked apart). */
struct want_exec {
	const char *name;
	int has_pid;
	uint64_t pid;
	uint32_t device;
	enum an_split split;
	int64_t start, busy, span;
	uint32_t events;
};

static void check_exec(const char *what, const struct an_exec *x, const struct want_exec *w)
{
	int before = test_failures;

	CHECK_STR(x->name, w->name);
	CHECK_INT(x->has_program_id, w->has_pid);
	if (w->has_pid)
		CHECK_INT(x->program_id, w->pid);
	CHECK_INT(x->device, w->device);
	CHECK_INT(x->split, w->split);
	CHECK_INT(x->start_ps, w->start);
	CHECK_INT(x->busy_ps, w->busy);
	CHECK_INT(x->span_ps, w->span);
	CHECK_INT(x->events, w->events);
	if (test_failures != before)
		fprintf(stderr, "  ^ in %s\n", what);
}

static const struct xp_event *find_event(const struct xp_plane *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->nevents; i++)
		if (!strcmp(xp_event_name(p, &p->events[i]), name))
			return &p->events[i];
	fprintf(stderr, "%s: no event '%s'\n", p->name, name);
	test_failures++;
	return NULL;
}

/* ---- 1. tpu_basic ----------------------------------------------------------------- */

/*
 * Children time of E1..E6 (in list order) per --children pattern, in us:
 * EXPECTED.md's per-execution table.  The patterns are searched (regexec),
 * not matched in full: "usion" hits fusion.N and "^usion" nothing.
 */
static const struct {
	const char *re;
	int64_t us[6];
} tpu_children[] = {
	{"fusion.*", {6, 8, 12, 15, 0, 2}},
	{"copy.*", {2, 6, 0, 5, 0, 0}},
	{"(fusion|copy).*", {7, 14, 12, 20, 0, 2}},
	{".*", {7, 14, 12, 20, 0, 2}},
	{"usion", {6, 8, 12, 15, 0, 2}},
	{"^usion", {0, 0, 0, 0, 0, 0}},
	{"^copy", {2, 6, 0, 5, 0, 0}},
	{"^(fusion|copy)\\.[0-9]+$", {7, 14, 12, 20, 0, 2}},
};

static void test_tpu_basic(void)
{
	struct xp_trace *t = load("tpu_basic.xplane.pb");
	struct an_exec_list l;
	struct an_fn_result r;
	struct an_fn_opts fo = {0};
	const struct xp_event *e;
	char *key;
	size_t i, k;

	if (!t)
		return;

	/* The model: planes in file order, bases, the XLA Ops line 2 ns after TPU:0's base. */
	CHECK_INT(t->nplanes, 3);
	CHECK_INT(t->nhostnames, 0);
	CHECK_STR(t->planes[0].name, "/host:CPU");
	CHECK_STR(t->planes[1].name, "/device:TPU:0");
	CHECK_STR(t->planes[2].name, "/device:TPU:1");
	CHECK_INT(t->planes[0].base_ns, 3000);
	CHECK_INT(t->planes[1].base_ns, 1000);
	CHECK_INT(t->planes[2].base_ns, 5000);
	if ((e = find_event(&t->planes[1], "fusion.1"))) {
		CHECK_INT(e->start_ps, US(11));	/* offset 10,998,000 + 2,000 */
		CHECK_INT(e->dur_ps, US(3));
	}
	if ((e = find_event(&t->planes[1], "fusion.4"))) {
		CHECK_INT(e->start_ps, 19500000);
		CHECK_INT(e->dur_ps, 1500000);
	}

	/* Device keys: "host:plane", or the plane alone when the file names no host. */
	key = an_device_key("", "/device:TPU:0");
	CHECK_STR(key, "/device:TPU:0");
	free(key);
	key = an_device_key("worker0", "/device:TPU:0");
	CHECK_STR(key, "worker0:/device:TPU:0");
	free(key);

	/*
	 * Executions: one per XLA Modules event, TPU:0 in start order then TPU:1;
	 * busy = span = duration.  jit_f's program id is its fingerprint 123456
	 * (never run_id); jit_g is named by its hlo_module ref, program 7 from
	 * the metadata, 8 from E4's own stat.  The host plane gives none.
	 */
	if (!find_execs(t, NULL, NULL, &l)) {
		static const struct want_exec w[6] = {
			{"jit_f", 1, 123456, 0, AN_SPLIT_MODULE_LINE, US(10), US(10), US(10), 1},
			{"jit_g", 1, 7, 0, AN_SPLIT_MODULE_LINE, US(30), US(20), US(20), 1},
			{"jit_f", 1, 123456, 0, AN_SPLIT_MODULE_LINE, US(60), US(12), US(12), 1},
			{"jit_g", 1, 8, 0, AN_SPLIT_MODULE_LINE, US(80), US(30), US(30), 1},
			{"jit_f", 1, 123456, 0, AN_SPLIT_MODULE_LINE, US(120), US(14), US(14), 1},
			{"jit_f", 1, 123456, 1, AN_SPLIT_MODULE_LINE, US(2), US(16), US(16), 1},
		};
		static const uint64_t run_id[6] = {1, 0, 2, 0, 3, 1};

		CHECK_STR(l.hostname, "");
		CHECK_INT(l.ndevices, 2);
		CHECK_INT(l.n, 6);
		if (l.ndevices == 2) {
			CHECK_STR(l.devices[0].name, "/device:TPU:0");
			CHECK_INT(l.devices[0].plane, 1);
			CHECK_INT(l.devices[0].busy_ps, US(10 + 20 + 12 + 30 + 14));
			CHECK_INT(l.devices[0].events, 5);
			CHECK_INT(l.devices[0].unattributed_events, 0);
			CHECK_STR(l.devices[1].name, "/device:TPU:1");
			CHECK_INT(l.devices[1].plane, 2);
			CHECK_INT(l.devices[1].busy_ps, US(16));
			CHECK_INT(l.devices[1].events, 1);
		}
		for (i = 0; i < l.n && i < 6; i++) {
			check_exec("tpu_basic exec", &l.execs[i], &w[i]);
			CHECK_INT(l.execs[i].has_run_id, run_id[i] != 0);
			if (run_id[i])
				CHECK_INT(l.execs[i].run_id, run_id[i]);
			if (!strcmp(w[i].name, "jit_f"))
				CHECK_STR(l.execs[i].fingerprint, "123456");
			else
				CHECK(l.execs[i].fingerprint == NULL);
		}
		an_exec_list_release(&l);
	}

	/*
	 * Pooled rows (default), by total, largest first:
	 *   jit_f/123456 {10,12,14,16} us: total 52, mean 13, deviations -3,-1,1,3
	 *     -> var (9+1+1+9)/4 = 5 -> std sqrt(5) us; median (12+14)/2 = 13.
	 *   jit_g/8 {30}, jit_g/7 {20}.
	 * Device busy 86 + 16 = 102 us, so jit_f's share is 52/102.
	 */
	fn_rows(t, NULL, &fo, &r);
	CHECK_INT(r.nrows, 3);
	CHECK_INT(r.inputs, 1);
	CHECK_INT(r.devices, 2);
	CHECK_INT(r.executions, 6);
	CHECK_INT(r.device_busy_ps, US(102));
	CHECK_INT(r.device_events, 6);
	if (r.nrows == 3) {
		CHECK_STR(r.rows[0].name, "jit_f");
		CHECK_INT(r.rows[0].program_id, 123456);
		CHECK_STR(r.rows[0].fingerprint, "123456");
		CHECK(r.rows[0].device == NULL);
		CHECK_INT(r.rows[0].events, 4);
		CHECK_NEAR(r.rows[0].share, 52.0 / 102.0, 1e-12);
		CHECK_STR(r.rows[1].name, "jit_g");
		CHECK_INT(r.rows[1].program_id, 8);
		CHECK(r.rows[1].fingerprint == NULL);
		CHECK_STR(r.rows[2].name, "jit_g");
		CHECK_INT(r.rows[2].program_id, 7);
	}
	check_row("tpu jit_f pooled", find_row(&r, "jit_f", 1, 123456, NULL), 2,
		  &(struct want){4, 4, US(52), US(13), sqrt(5.0) * 1e6, US(10), US(13), US(16)});
	check_row("tpu jit_g/8", find_row(&r, "jit_g", 1, 8, NULL), 1,
		  &(struct want){1, 1, US(30), US(30), 0, US(30), US(30), US(30)});
	check_row("tpu jit_g/7", find_row(&r, "jit_g", 1, 7, NULL), 1,
		  &(struct want){1, 1, US(20), US(20), 0, US(20), US(20), US(20)});
	an_fn_release(&r);

	/*
	 * Per-device rows: jit_f on TPU:0 {10,12,14} us: total 36, mean 12,
	 * var (4+0+4)/3 = 8/3 -> std sqrt(8/3) us, median 12; jit_f on TPU:1 {16}.
	 * Order by total: 36, 30, 20, 16.
	 */
	fo.per_device = 1;
	fn_rows(t, NULL, &fo, &r);
	CHECK_INT(r.nrows, 4);
	if (r.nrows == 4) {
		CHECK_STR(r.rows[0].device, "/device:TPU:0");
		CHECK_PS(r.rows[0].s.total, US(36));
		CHECK_PS(r.rows[1].s.total, US(30));
		CHECK_PS(r.rows[2].s.total, US(20));
		CHECK_STR(r.rows[3].device, "/device:TPU:1");
		CHECK_PS(r.rows[3].s.total, US(16));
	}
	check_row("tpu jit_f TPU:0", find_row(&r, "jit_f", 1, 123456, "/device:TPU:0"), 1,
		  &(struct want){3, 3, US(36), US(12), sqrt(8.0 / 3) * 1e6, US(10), US(12), US(14)});
	check_row("tpu jit_f TPU:1", find_row(&r, "jit_f", 1, 123456, "/device:TPU:1"), 1,
		  &(struct want){1, 1, US(16), US(16), 0, US(16), US(16), US(16)});
	check_row("tpu jit_g/7 TPU:0", find_row(&r, "jit_g", 1, 7, "/device:TPU:0"), 1,
		  &(struct want){1, 1, US(20), US(20), 0, US(20), US(20), US(20)});
	check_row("tpu jit_g/8 TPU:0", find_row(&r, "jit_g", 1, 8, "/device:TPU:0"), 1,
		  &(struct want){1, 1, US(30), US(30), 0, US(30), US(30), US(30)});
	an_fn_release(&r);
	fo.per_device = 0;

	/* --children per execution, for every pattern of tpu_children[]. */
	for (k = 0; k < sizeof(tpu_children) / sizeof(tpu_children[0]); k++) {
		if (find_execs(t, NULL, tpu_children[k].re, &l))
			continue;
		CHECK_INT(l.n, 6);
		for (i = 0; i < l.n && i < 6; i++) {
			if (l.execs[i].children_ps != US(tpu_children[k].us[i])) {
				fprintf(stderr, "--children '%s': exec %zu: children_ps %" PRId64
					", expected %" PRId64 "\n", tpu_children[k].re, i,
					l.execs[i].children_ps, US(tpu_children[k].us[i]));
				test_failures++;
			}
			/* busy and span do not change with --children */
			CHECK_INT(l.execs[i].busy_ps, l.execs[i].span_ps);
		}
		an_exec_list_release(&l);
	}

	/*
	 * --children rows (AN_TIME_CHILDREN), pooled: jit_f is {E1, E3, E5, E6}.
	 *   fusion.*: {6,12,0,2}: total 20, mean 5, deviations 1,7,-5,-3 ->
	 *     var (1+49+25+9)/4 = 21 -> std sqrt(21) us; sorted {0,2,6,12}: median 4.
	 *   copy.*: {2,0,0,0}: total 2, mean 0.5, deviations 1.5,-0.5 x3 ->
	 *     var (2.25+3*0.25)/4 = 0.75 -> std sqrt(0.75) us; median 0.
	 *   (fusion|copy).*: {7,12,0,2}: total 21, mean 5.25, deviations
	 *     1.75,6.75,-5.25,-3.25 -> squares 3.0625+45.5625+27.5625+10.5625 =
	 *     86.75, var 21.6875 = 347/16 -> std sqrt(347)/4 us; median (2+7)/2 = 4.5.
	 *   jit_g/7 and jit_g/8 keep one sample each: 8/15, 6/5, 14/20 us.
	 * Per device (fusion.*), jit_f on TPU:0 is {6,12,0}: mean 6, var
	 * (0+36+36)/3 = 24 -> std sqrt(24) us, median 6.
	 */
	fo.time = AN_TIME_CHILDREN;
	fn_rows(t, "fusion.*", &fo, &r);
	CHECK_INT(r.nrows, 3);
	if (r.nrows == 3) {	/* totals 20, 15, 8 */
		CHECK_STR(r.rows[0].name, "jit_f");
		CHECK_INT(r.rows[1].program_id, 8);
		CHECK_INT(r.rows[2].program_id, 7);
	}
	check_row("tpu fusion.* jit_f", find_row(&r, "jit_f", 1, 123456, NULL), 2,
		  &(struct want){4, 4, US(20), US(5), sqrt(21.0) * 1e6, 0, US(4), US(12)});
	check_row("tpu fusion.* jit_g/7", find_row(&r, "jit_g", 1, 7, NULL), 1,
		  &(struct want){1, 1, US(8), US(8), 0, US(8), US(8), US(8)});
	check_row("tpu fusion.* jit_g/8", find_row(&r, "jit_g", 1, 8, NULL), 1,
		  &(struct want){1, 1, US(15), US(15), 0, US(15), US(15), US(15)});
	an_fn_release(&r);

	fn_rows(t, "copy.*", &fo, &r);
	check_row("tpu copy.* jit_f", find_row(&r, "jit_f", 1, 123456, NULL), 2,
		  &(struct want){4, 4, US(2), 500000, sqrt(0.75) * 1e6, 0, 0, US(2)});
	check_row("tpu copy.* jit_g/7", find_row(&r, "jit_g", 1, 7, NULL), 1,
		  &(struct want){1, 1, US(6), US(6), 0, US(6), US(6), US(6)});
	check_row("tpu copy.* jit_g/8", find_row(&r, "jit_g", 1, 8, NULL), 1,
		  &(struct want){1, 1, US(5), US(5), 0, US(5), US(5), US(5)});
	an_fn_release(&r);

	fn_rows(t, "(fusion|copy).*", &fo, &r);
	check_row("tpu (fusion|copy).* jit_f", find_row(&r, "jit_f", 1, 123456, NULL), 2,
		  &(struct want){4, 4, US(21), 5250000, sqrt(347.0) / 4 * 1e6, 0, 4500000, US(12)});
	check_row("tpu (fusion|copy).* jit_g/7", find_row(&r, "jit_g", 1, 7, NULL), 1,
		  &(struct want){1, 1, US(14), US(14), 0, US(14), US(14), US(14)});
	check_row("tpu (fusion|copy).* jit_g/8", find_row(&r, "jit_g", 1, 8, NULL), 1,
		  &(struct want){1, 1, US(20), US(20), 0, US(20), US(20), US(20)});
	an_fn_release(&r);

	fo.per_device = 1;
	fn_rows(t, "fusion.*", &fo, &r);
	check_row("tpu fusion.* jit_f TPU:0", find_row(&r, "jit_f", 1, 123456, "/device:TPU:0"), 1,
		  &(struct want){3, 3, US(18), US(6), sqrt(24.0) * 1e6, 0, US(6), US(12)});
	check_row("tpu fusion.* jit_f TPU:1", find_row(&r, "jit_f", 1, 123456, "/device:TPU:1"), 1,
		  &(struct want){1, 1, US(2), US(2), 0, US(2), US(2), US(2)});
	an_fn_release(&r);
	fo.per_device = 0;
	fo.time = AN_TIME_BUSY;

	/* --device: a case-insensitive substring; "TPU:1" selects only E6, "GPU" nothing. */
	if (!find_execs(t, "tpu:1", NULL, &l)) {
		CHECK_INT(l.ndevices, 1);
		CHECK_INT(l.n, 1);
		if (l.ndevices == 1)
			CHECK_STR(l.devices[0].name, "/device:TPU:1");
		if (l.n == 1)
			CHECK_INT(l.execs[0].busy_ps, US(16));
		an_exec_list_release(&l);
	}
	if (!find_execs(t, "GPU", NULL, &l)) {
		CHECK_INT(l.ndevices, 0);
		CHECK_INT(l.n, 0);
		an_exec_list_release(&l);
	}

	/* --match is searched in the function name: "_g" finds jit_g, "^g" nothing. */
	{
		regex_t m;

		compile(&m, "_g");
		fo.match = &m;
		fn_rows(t, NULL, &fo, &r);
		CHECK_INT(r.nrows, 2);
		CHECK_INT(r.executions, 2);
		an_fn_release(&r);
		regfree(&m);
		compile(&m, "^g");
		fn_rows(t, NULL, &fo, &r);
		CHECK_INT(r.nrows, 0);
		an_fn_release(&r);
		regfree(&m);
		fo.match = NULL;
	}

	xp_trace_free(t);
}

/* ---- 2. epoch --------------------------------------------------------------------- */

static void test_epoch(void)
{
	struct xp_trace *t = load("epoch.xplane.pb");
	struct an_exec_list l;
	struct an_fn_result r;
	struct an_fn_opts fo = {0};
	const struct xp_plane *p;

	if (!t)
		return;

	/*
	 * The model: base = the smallest timestamp of lines with events (the empty
	 * Stream #15 at ts 0 does not count); events line by line, and Stream #14
	 * (base + 1000 ns) adds 1,000,000 ps to its offsets, without overflow.
	 */
	CHECK_INT(t->nplanes, 1);
	p = &t->planes[0];
	CHECK_STR(p->name, "/device:GPU:0");
	CHECK(p->base_ns == INT64_C(1700000000123456789));
	CHECK_INT(p->nlines, 3);
	CHECK_INT(p->nevents, 3);
	if (p->nlines == 3) {
		CHECK_INT(p->lines[2].nevents, 0);
		CHECK_INT(p->lines[2].timestamp_ns, 0);
	}
	if (p->nevents == 3) {
		CHECK_STR(xp_event_name(p, &p->events[0]), "fusion_a");
		CHECK_INT(p->events[0].start_ps, 999000);
		CHECK_INT(p->events[0].dur_ps, 3000);
		CHECK_STR(xp_event_name(p, &p->events[1]), "fusion_c");
		CHECK_INT(p->events[1].start_ps, 1005000);
		CHECK_INT(p->events[1].dur_ps, 1000);
		CHECK_STR(xp_event_name(p, &p->events[2]), "fusion_b");
		CHECK_INT(p->events[2].start_ps, 1001000);	/* 1,000,000 + offset 1,000 */
		CHECK_INT(p->events[2].dur_ps, 2000);
	}

	/*
	 * One run of jit_epoch/1: busy [999000,1003000] + [1005000,1006000] =
	 * 4000 + 1000 = 5000 (not the summed 6000), span 1006000 - 999000 = 7000.
	 */
	if (!find_execs(t, NULL, NULL, &l)) {
		CHECK_INT(l.n, 1);
		if (l.n == 1)
			check_exec("epoch exec", &l.execs[0],
				   &(struct want_exec){"jit_epoch", 1, 1, 0, AN_SPLIT_RUNS, 999000, 5000, 7000, 3});
		an_exec_list_release(&l);
	}
	fn_rows(t, NULL, &fo, &r);
	CHECK_INT(r.nrows, 1);
	check_row("epoch jit_epoch", find_row(&r, "jit_epoch", 1, 1, NULL), 1,
		  &(struct want){1, 1, 5000, 5000, 0, 5000, 5000, 5000});
	an_fn_release(&r);

	xp_trace_free(t);
}

/* ---- 3. gpu_runs ------------------------------------------------------------------ */

static void test_gpu_runs(void)
{
	struct xp_trace *t = load("gpu_runs.xplane.pb");
	struct an_exec_list l;
	struct an_fn_result r;
	struct an_fn_opts fo = {0};
	size_t i;

	if (!t)
		return;

	/*
	 * Executions X1..X7 by the runs rule (no host plane), in start order.
	 * untagged_kernel does not break X3; fusion_5 (no program_id) is X4 alone.
	 */
	if (!find_execs(t, NULL, NULL, &l)) {
		static const struct want_exec w[7] = {
			{"jit_step", 1, 5, 0, AN_SPLIT_RUNS, US(1), US(10), US(11), 3},
			{"jit_other", 1, 6, 0, AN_SPLIT_RUNS, US(13), US(4), US(5), 2},
			{"jit_step", 1, 5, 0, AN_SPLIT_RUNS, US(19), US(4), US(7), 3},
			{"jit_step", 0, 0, 0, AN_SPLIT_RUNS, US(27), US(3), US(3), 1},
			{"jit_step", 1, 5, 0, AN_SPLIT_RUNS, US(31), US(2), US(2), 2},
			{"jit_other", 1, 6, 0, AN_SPLIT_RUNS, US(34), US(7), US(7), 2},
			{"jit_step", 1, 5, 0, AN_SPLIT_RUNS, US(42), US(20), US(22), 3},
		};

		CHECK_INT(l.n, 7);
		for (i = 0; i < l.n && i < 7; i++)
			check_exec("gpu_runs exec", &l.execs[i], &w[i]);
		/*
		 * The device: 17 events (16 tagged + untagged_kernel, 1 us, unattributed);
		 * busy = union of all = 9+1+3+1+2+1+2+3+2+7+17+3 = 51 us
		 * ([1,10] [11,12] [13,16] [17,18] [19,21] [22,23] [24,26] [27,30]
		 * [31,33] [34,41] [42,59] [61,64]).
		 */
		CHECK_INT(l.ndevices, 1);
		if (l.ndevices == 1) {
			CHECK_INT(l.devices[0].events, 17);
			CHECK_INT(l.devices[0].unattributed_events, 1);
			CHECK_INT(l.devices[0].unattributed_busy_ps, US(1));
			CHECK_INT(l.devices[0].busy_ps, US(51));
		}
		an_exec_list_release(&l);
	}

	/* Rows (busy): EXPECTED.md's table; order by total 36, 11, 3. */
	fn_rows(t, NULL, &fo, &r);
	CHECK_INT(r.nrows, 3);
	if (r.nrows == 3) {
		CHECK_STR(r.rows[0].name, "jit_step");
		CHECK_INT(r.rows[0].has_program_id, 1);
		CHECK_INT(r.rows[0].events, 3 + 3 + 2 + 3);
		CHECK_STR(r.rows[1].name, "jit_other");
		CHECK_INT(r.rows[1].events, 4);
		CHECK_STR(r.rows[2].name, "jit_step");
		CHECK_INT(r.rows[2].has_program_id, 0);
	}
	check_row("gpu_runs jit_step/5", find_row(&r, "jit_step", 1, 5, NULL), 1,
		  &(struct want){4, 4, US(36), US(9), US(7), US(2), US(7), US(20)});
	check_row("gpu_runs jit_step/none", find_row(&r, "jit_step", 0, 0, NULL), 1,
		  &(struct want){1, 1, US(3), US(3), 0, US(3), US(3), US(3)});
	check_row("gpu_runs jit_other/6", find_row(&r, "jit_other", 1, 6, NULL), 1,
		  &(struct want){2, 2, US(11), 5500000, 1500000, US(4), 5500000, US(7)});
	an_fn_release(&r);

	/*
	 * --trim 1: jit_step/5 (n=4 > 2) drops 2 and 20 from mean and std: {4, 10}
	 * gives mean 7 and std 3 us.  total, min, median and max stay those of all
	 * four samples (36, 2, 7, 20), not EXPECTED.md's trimmed 14, 4, 7, 10.
	 * jit_other (n=2) and jit_step/none (n=1) are not trimmed.
	 */
	fo.trim = 1;
	fn_rows(t, NULL, &fo, &r);
	check_row("gpu_runs trim1 jit_step/5", find_row(&r, "jit_step", 1, 5, NULL), 1,
		  &(struct want){4, 2, US(36), US(7), US(3), US(2), US(7), US(20)});
	check_row("gpu_runs trim1 jit_step/none", find_row(&r, "jit_step", 0, 0, NULL), 1,
		  &(struct want){1, 1, US(3), US(3), 0, US(3), US(3), US(3)});
	check_row("gpu_runs trim1 jit_other/6", find_row(&r, "jit_other", 1, 6, NULL), 1,
		  &(struct want){2, 2, US(11), 5500000, 1500000, US(4), 5500000, US(7)});
	an_fn_release(&r);
	fo.trim = 0;

	/*
	 * Span time: jit_step/5 {11,7,2,22}: total 42, mean 10.5, deviations
	 * 0.5,-3.5,-8.5,11.5 -> squares 0.25+12.25+72.25+132.25 = 217, var 217/4
	 * -> std sqrt(217)/2 us; sorted {2,7,11,22}: median 9.
	 * jit_other/6 {5,7}: mean 6, std 1, median 6.
	 */
	fo.time = AN_TIME_SPAN;
	fn_rows(t, NULL, &fo, &r);
	check_row("gpu_runs span jit_step/5", find_row(&r, "jit_step", 1, 5, NULL), 1,
		  &(struct want){4, 4, US(42), 10500000, sqrt(217.0) / 2 * 1e6, US(2), US(9), US(22)});
	check_row("gpu_runs span jit_other/6", find_row(&r, "jit_other", 1, 6, NULL), 1,
		  &(struct want){2, 2, US(12), US(6), US(1), US(5), US(6), US(7)});
	an_fn_release(&r);

	/*
	 * --children '.*' on GPU: a GPU execution's own kernels count (only a TPU
	 * module event is excluded from its own children), so each execution gets
	 * the union of every event inside its window [first start, last end]:
	 * X1 [1,12] 10, X2 [13,18] 4, X3 [19,26] 2+1+2 = 5 (untagged_kernel [22,23]
	 * now counts), X4 3, X5 [31,33] 2, X6 [34,41] 7, X7 [42,64] 17+3 = 20.
	 * jit_step/5 = X1,X3,X5,X7 = {10,5,2,20}: total 37, mean 9.25, deviations
	 * 0.75,-4.25,-7.25,10.75 -> squares 0.5625+18.0625+52.5625+115.5625 = 186.75,
	 * var 46.6875 -> std sqrt(46.6875) us; sorted {2,5,10,20}: median 7.5.
	 */
	if (!find_execs(t, NULL, ".*", &l)) {
		static const int64_t want_us[7] = {10, 4, 5, 3, 2, 7, 20};

		CHECK_INT(l.n, 7);
		for (i = 0; i < l.n && i < 7; i++)
			CHECK_INT(l.execs[i].children_ps, US(want_us[i]));
		an_exec_list_release(&l);
	}
	fo.time = AN_TIME_CHILDREN;
	fn_rows(t, ".*", &fo, &r);
	check_row("gpu_runs children jit_step/5", find_row(&r, "jit_step", 1, 5, NULL), 1,
		  &(struct want){4, 4, US(37), 9250000, sqrt(46.6875) * 1e6, US(2), 7500000, US(20)});
	check_row("gpu_runs children jit_step/none", find_row(&r, "jit_step", 0, 0, NULL), 1,
		  &(struct want){1, 1, US(3), US(3), 0, US(3), US(3), US(3)});
	check_row("gpu_runs children jit_other/6", find_row(&r, "jit_other", 1, 6, NULL), 1,
		  &(struct want){2, 2, US(11), 5500000, 1500000, US(4), 5500000, US(7)});
	an_fn_release(&r);

	xp_trace_free(t);
}

/* ---- 4. gpu_host ------------------------------------------------------------------ */

static void test_gpu_host(void)
{
	struct xp_trace *t = load("gpu_host.xplane.pb");
	struct an_exec_list l;
	struct an_fn_result r;
	struct an_fn_opts fo = {0};

	if (!t)
		return;
	CHECK_INT(t->nplanes, 2);
	if (t->nplanes != 2) {
		xp_trace_free(t);
		return;
	}
	CHECK_STR(t->planes[1].name, "/host:CPU");

	/*
	 * Host linkage: launches at 12, 15 us (corr 101, 102) fall in
	 * ExecuteThunks [10,30], those at 32, 36 (103, 104) in [30,50].
	 * ET1 = {K1 [0,3], K2 [4,6]}: busy 5, span 6; ET2 = {K3 [7,12],
	 * K4 [13,14]}: busy 6, span 7.
	 */
	if (!find_execs(t, NULL, NULL, &l)) {
		CHECK_INT(l.n, 2);
		if (l.n == 2) {
			check_exec("gpu_host ET1", &l.execs[0],
				   &(struct want_exec){"jit_train", 1, 3, 0, AN_SPLIT_HOST, 0, US(5), US(6), 2});
			check_exec("gpu_host ET2", &l.execs[1],
				   &(struct want_exec){"jit_train", 1, 3, 0, AN_SPLIT_HOST, US(7), US(6), US(7), 2});
		}
		CHECK_INT(l.ndevices, 1);	/* the host plane is no device */
		if (l.ndevices == 1)
			CHECK_INT(l.devices[0].busy_ps, US(11));
		an_exec_list_release(&l);
	}
	fn_rows(t, NULL, &fo, &r);
	CHECK_INT(r.nrows, 1);
	check_row("gpu_host jit_train", find_row(&r, "jit_train", 1, 3, NULL), 1,
		  &(struct want){2, 2, US(11), 5500000, 500000, US(5), 5500000, US(6)});
	an_fn_release(&r);

	/*
	 * The runs rule, reached by hiding the host plane (the linkage is only
	 * looked for on "/host:" planes): K1..K4 form one run, busy 3+2+5+1 = 11,
	 * span 14, 4 events.
	 */
	t->planes[1].name = "/hidden:CPU";
	if (!find_execs(t, NULL, NULL, &l)) {
		CHECK_INT(l.n, 1);
		if (l.n == 1)
			check_exec("gpu_host runs", &l.execs[0],
				   &(struct want_exec){"jit_train", 1, 3, 0, AN_SPLIT_RUNS, 0, US(11), US(14), 4});
		/* Four events of one name: a repeat the gaps (1 us each) cannot split. */
		if (l.ndevices == 1) {
			CHECK_INT(l.devices[0].runs_execs, 1);
			CHECK_INT(l.devices[0].runs_split, 0);
			CHECK_INT(l.devices[0].runs_repeating, 1);
		}
		an_exec_list_release(&l);
	}
	fn_rows(t, NULL, &fo, &r);
	check_row("gpu_host runs jit_train", find_row(&r, "jit_train", 1, 3, NULL), 1,
		  &(struct want){1, 1, US(11), US(11), 0, US(11), US(11), US(11)});
	an_fn_release(&r);

	xp_trace_free(t);
}

/* ---- 5. autotune rounds ----------------------------------------------------------- */

#define AT_ROUNDS 5

/* The five rounds through an_exec_find + an_at_add. */
static void at_rounds(const regex_t *id_re, int all_devices, size_t trim, struct an_at_result *r)
{
	struct an_at_opts o = {.id_re = id_re, .trim = trim, .all_devices = all_devices,
			       .time = AN_TIME_BUSY, .alpha = 0.05};
	struct xp_err err = {0};
	char name[64];
	int i;

	an_at_init(r, &o);
	for (i = 0; i < AT_ROUNDS; i++) {
		struct xp_trace *t;
		struct an_exec_list l;

		snprintf(name, sizeof(name), "autotune/round_%d.xplane.pb", i);
		if (!(t = load(name)))
			continue;
		if (!find_execs(t, NULL, NULL, &l)) {
			CHECK_INT(an_at_add(r, &l, &err), 0);
			an_exec_list_release(&l);
		}
		xp_trace_free(t);
	}
	CHECK_INT(an_at_finish(r, &err), 0);
}

/* The five rounds through an_compat_add (device "gpu"). */
static void at_compat_rounds(const regex_t *id_re, struct an_at_result *r)
{
	struct an_at_opts o = {.id_re = id_re, .trim = 1, .time = AN_TIME_BUSY, .alpha = 0.05};
	struct an_compat_opts co = {.device = "gpu", .id_re = id_re};
	struct an_compat_file info;
	struct xp_err err = {0};
	char name[64];
	int i;

	an_at_init(r, &o);
	for (i = 0; i < AT_ROUNDS; i++) {
		struct xp_trace *t;

		snprintf(name, sizeof(name), "autotune/round_%d.xplane.pb", i);
		if (!(t = load(name)))
			continue;
		CHECK_INT(an_compat_add(t, &co, r, (size_t)i, &info, &err), 0);
		/* only GPU:0 (round_0's GPU:1 comes later): 3 kernels, 3 keys */
		CHECK_STR(info.plane, "/device:GPU:0");
		CHECK_INT(info.kept, 3);
		CHECK_INT(info.dropped_short, 0);
		CHECK_INT(info.truncated, 0);
		CHECK_INT(info.keys, 3);
		xp_trace_free(t);
	}
	CHECK_INT(an_at_finish(r, &err), 0);
}

/*
 * Default mode and compat mode give the same trimmed values (GPU:0 only, trim 1):
 *   id 0 {102,100,98,110,95}: keeps {98,100,102}: mean 100, var 8/3;
 *        total 505, min 95, median 100, max 110 (all samples).
 *   id 1 {50,52,49,51,60}: keeps {50,51,52}: mean 51, var 2/3;
 *        total 262, min 49, median 51, max 60.
 *   id 2 {102,99,105,96,99}: keeps {99,99,102}: mean 100, var 2;
 *        total 501, min 96, median 99, max 105.
 * Rank: 1 first (51); 0 and 2 tie at 100, the earlier id ranks first.
 */
static void check_at_default(const char *what, const struct an_at_result *r)
{
	static const char *const ids[3] = {"0", "1", "2"};
	static const size_t rank[3] = {2, 1, 3};
	const struct want w[3] = {
		{5, 3, US(505), US(100), sqrt(8.0 / 3) * 1e6, US(95), US(100), US(110)},
		{5, 3, US(262), US(51), sqrt(2.0 / 3) * 1e6, US(49), US(51), US(60)},
		{5, 3, US(501), US(100), sqrt(2.0) * 1e6, US(96), US(99), US(105)},
	};
	size_t i;

	CHECK_INT(r->ncands, 3);
	for (i = 0; i < r->ncands && i < 3; i++) {
		const struct an_at_cand *c = &r->cands[i];

		CHECK_STR(c->id, ids[i]);
		check_summary(what, &c->s, &w[i]);
		CHECK_INT(c->inputs, AT_ROUNDS);
		CHECK_INT(c->rank, rank[i]);
		/* 0 and 2 are ~49 us slower than 1 with stds of 1-2 us: Welch p is tiny */
		CHECK_INT(c->tied, i == 1 ? 1 : 0);
		if (i != 1)
			CHECK(c->p_vs_fastest >= 0 && c->p_vs_fastest < 0.01);
	}
	/* sample std (ddof=1) of id 0's kept {98,100,102}: sqrt(8/2) = 2 us */
	if (r->ncands == 3)
		CHECK_PS(r->cands[0].s.sample_std, US(2));
}

static void test_autotune(void)
{
	struct an_at_result r;
	regex_t id_re;
	const struct an_at_cand *c;

	compile(&id_re, AN_AT_DEFAULT_ID_REGEX);

	/* Default: per input the first device plane that ran a candidate (GPU:0); trim 1. */
	at_rounds(&id_re, 0, 1, &r);
	CHECK_INT(r.inputs, AT_ROUNDS);
	CHECK_INT(r.inputs_without, 0);
	check_at_default("autotune default", &r);
	an_at_release(&r);

	/*
	 * Untrimmed, GPU:0 only, n = 5 (EXPECTED.md's working):
	 *   id 0: mean 101, var 128/5 = 25.6; id 1: mean 52.4, var 77.2/5 = 15.44;
	 *   id 2: mean 100.2, var 46.8/5 = 9.36 (us, us^2).
	 */
	at_rounds(&id_re, 0, 0, &r);
	check_summary("autotune trim0 id 0", (c = find_cand(&r, "0")) ? &c->s : NULL,
		      &(struct want){5, 5, US(505), US(101), sqrt(25.6) * 1e6, US(95), US(100), US(110)});
	check_summary("autotune trim0 id 1", (c = find_cand(&r, "1")) ? &c->s : NULL,
		      &(struct want){5, 5, US(262), 52400000, sqrt(15.44) * 1e6, US(49), US(51), US(60)});
	check_summary("autotune trim0 id 2", (c = find_cand(&r, "2")) ? &c->s : NULL,
		      &(struct want){5, 5, US(501), 100200000, sqrt(9.36) * 1e6, US(96), US(99), US(105)});
	an_at_release(&r);

	/*
	 * --all-devices, trim 1: round_0's GPU:1 adds 100, 30, 80 us (n = 6 -> 4 used):
	 *   id 0 sorted {95,98,100,100,102,110}: keeps {98,100,100,102}: mean 100,
	 *        var 8/4 = 2; total 605, min 95, median 100, max 110.
	 *   id 1 sorted {30,49,50,51,52,60}: keeps {49,50,51,52}: mean 50.5,
	 *        var 5/4 = 1.25; total 292, min 30, median 50.5, max 60.
	 *   id 2 sorted {80,96,99,99,102,105}: keeps {96,99,99,102}: mean 99,
	 *        var 18/4 = 4.5; total 581, min 80, median 99, max 105.
	 * Rank: 1 (50.5), 2 (99), 0 (100).
	 */
	at_rounds(&id_re, 1, 1, &r);
	CHECK_INT(r.ncands, 3);
	if ((c = find_cand(&r, "0"))) {
		check_summary("autotune all id 0", &c->s,
			      &(struct want){6, 4, US(605), US(100), sqrt(2.0) * 1e6, US(95), US(100), US(110)});
		CHECK_INT(c->rank, 3);
		CHECK_INT(c->tied, 0);
		CHECK_INT(c->inputs, AT_ROUNDS);
	}
	if ((c = find_cand(&r, "1"))) {
		check_summary("autotune all id 1", &c->s,
			      &(struct want){6, 4, US(292), 50500000, sqrt(1.25) * 1e6, US(30), 50500000, US(60)});
		CHECK_INT(c->rank, 1);
		CHECK_INT(c->tied, 1);
	}
	if ((c = find_cand(&r, "2"))) {
		check_summary("autotune all id 2", &c->s,
			      &(struct want){6, 4, US(581), US(99), sqrt(4.5) * 1e6, US(80), US(99), US(105)});
		CHECK_INT(c->rank, 2);
		CHECK_INT(c->tied, 0);
	}
	an_at_release(&r);

	/*
	 * --all-devices untrimmed (n = 6), EXPECTED.md's working:
	 *   id 0: mean 605/6, var 773/36 -> std sqrt(773)/6 us
	 *   id 1: mean 292/6, var 743/9 -> std sqrt(743)/3 us, median 50.5
	 *   id 2: mean 581/6, var 2321/36 -> std sqrt(2321)/6 us
	 */
	at_rounds(&id_re, 1, 0, &r);
	check_summary("autotune all trim0 id 0", (c = find_cand(&r, "0")) ? &c->s : NULL,
		      &(struct want){6, 6, US(605), 605e6 / 6, sqrt(773.0) / 6 * 1e6, US(95), US(100), US(110)});
	check_summary("autotune all trim0 id 1", (c = find_cand(&r, "1")) ? &c->s : NULL,
		      &(struct want){6, 6, US(292), 292e6 / 6, sqrt(743.0) / 3 * 1e6, US(30), 50500000, US(60)});
	check_summary("autotune all trim0 id 2", (c = find_cand(&r, "2")) ? &c->s : NULL,
		      &(struct want){6, 6, US(581), 581e6 / 6, sqrt(2321.0) / 6 * 1e6, US(80), US(99), US(105)});
	an_at_release(&r);

	/* compat: keys jit_autotune_fn_<i>(1<i>-None), one sample per file, trim 1. */
	at_compat_rounds(&id_re, &r);
	check_at_default("autotune compat", &r);
	an_at_release(&r);

	regfree(&id_re);
}

/* an_at_winner with too few samples: the fastest untested, or a rival (samples in us, trim 0). */
static void test_autotune_untested(void)
{
	struct an_at_opts o = {.trim = 0, .time = AN_TIME_BUSY, .alpha = 0.05};
	struct an_at_result r;
	struct xp_err err = {0};
	const struct an_at_cand *rival;
	enum an_at_nowinner why;

	/* "0": 10, 11, 12 (fastest, tested); "1": one sample of 50: it is the untested one */
	an_at_init(&r, &o);
	CHECK_INT(an_at_add_sample(&r, "0", 0, US(10)), 0);
	CHECK_INT(an_at_add_sample(&r, "0", 1, US(11)), 0);
	CHECK_INT(an_at_add_sample(&r, "0", 2, US(12)), 0);
	CHECK_INT(an_at_add_sample(&r, "1", 0, US(50)), 0);
	CHECK_INT(an_at_finish(&r, &err), 0);
	CHECK(an_at_winner(&r, &why, &rival) == NULL);
	CHECK_INT(why, AN_AT_UNTESTED);
	CHECK(rival != NULL && !strcmp(rival->id, "1"));
	an_at_release(&r);

	/* "0": one sample of 5, fastest; "1": 50, 51: untested against it, named as the rival */
	an_at_init(&r, &o);
	CHECK_INT(an_at_add_sample(&r, "0", 0, US(5)), 0);
	CHECK_INT(an_at_add_sample(&r, "1", 0, US(50)), 0);
	CHECK_INT(an_at_add_sample(&r, "1", 1, US(51)), 0);
	CHECK_INT(an_at_finish(&r, &err), 0);
	CHECK(an_at_winner(&r, &why, &rival) == NULL);
	CHECK_INT(why, AN_AT_UNTESTED);
	CHECK(rival != NULL && !strcmp(rival->id, "1"));
	CHECK(find_cand(&r, "0") && find_cand(&r, "0")->rank == 1 && find_cand(&r, "0")->tied == 1);
	an_at_release(&r);
}

/* ---- 5a. one candidate, two programs ----------------------------------------------- */

/* autotune_programs.xplane.pb through an_exec_find + an_at_add, trim 1. */
static void at_programs(const regex_t *id_re, enum an_at_programs mode, struct an_at_result *r)
{
	struct an_at_opts o = {.id_re = id_re, .trim = 1, .time = AN_TIME_BUSY, .alpha = 0.05,
			       .programs = mode};
	struct xp_trace *t = load("autotune_programs.xplane.pb");
	struct xp_err err = {0};
	struct an_exec_list l;

	an_at_init(r, &o);
	if (t && !find_execs(t, NULL, NULL, &l)) {
		CHECK_INT(an_at_add(r, &l, &err), 0);
		an_exec_list_release(&l);
	}
	xp_trace_free(t);
	CHECK_INT(an_at_finish(r, &err), 0);
}

/*
 * EXPECTED.md 5a, in us:
 *   (0, 7) {12,10,13,30,11}: keeps {11,12,13}: mean 12, var 2/3, sample sd 1
 *   (0, 8) {42,44,40,41,43}: keeps {41,42,43}: mean 42, var 2/3, sample sd 1
 *   (1, 9) {23,21,24,20,22}: keeps {21,22,23}: mean 22, var 2/3, sample sd 1
 * Welch against (0, 7): se^2 = 2/3, df = 4; t^2 = 150 for (1, 9), 1350 for (0, 8);
 * with df 4, p = 1 - sin(th) (1 + cos^2(th) / 2), sin^2 = t^2/(4+t^2):
 *   (1, 9): p = 1 - (78/77) sqrt(75/77); (0, 8): p = 1 - (678/677) sqrt(675/677).
 * Pooled (--pool-programs): id 0 {10..13,30,40..44} keeps {11,12,13,30,40,41,42,43}:
 *   mean 29, SS 1500 -> var 187.5; median (30+40)/2 = 35; id 1 fastest, id 0 tied.
 */
static void test_autotune_programs(void)
{
	struct an_at_result r;
	regex_t id_re;
	const struct an_at_cand *c;
	const double v = sqrt(2.0 / 3) * 1e6;

	compile(&id_re, AN_AT_DEFAULT_ID_REGEX);
	at_programs(&id_re, AN_AT_SPLIT_PROGRAMS, &r);
	CHECK_INT(r.ncands, 3);
	CHECK_INT(r.programs, 1);
	if (r.ncands == 3) {
		static const char *const id[3] = {"0", "0", "1"};
		static const uint64_t prog[3] = {7, 8, 9};
		static const size_t rank[3] = {1, 3, 2}, rows[3] = {2, 2, 1};
		const struct want w[3] = {
			{5, 3, US(76), US(12), v, US(10), US(12), US(30)},
			{5, 3, US(210), US(42), v, US(40), US(42), US(44)},
			{5, 3, US(110), US(22), v, US(20), US(22), US(24)},
		};
		const double p[3] = {1, 1 - 678.0 / 677 * sqrt(675.0 / 677), 1 - 78.0 / 77 * sqrt(75.0 / 77)};
		size_t i;

		for (i = 0; i < 3; i++) {
			c = &r.cands[i];
			CHECK_STR(c->id, id[i]);
			CHECK_INT(c->nprogs, 1);
			CHECK(c->nprogs == 1 && c->progs[0].known && c->progs[0].id == prog[i]);
			CHECK_INT(c->id_rows, rows[i]);
			check_summary("autotune programs split", &c->s, &w[i]);
			CHECK_INT(c->rank, rank[i]);
			CHECK_INT(c->tied, i == 0);
			/* the closed forms cancel to ~1e-10 relative themselves */
			CHECK_NEAR(c->p_vs_fastest, p[i], 1e-8);
		}
	}
	an_at_release(&r);

	at_programs(&id_re, AN_AT_POOL_PROGRAMS, &r);
	CHECK_INT(r.ncands, 2);
	if ((c = find_cand(&r, "0"))) {
		check_summary("autotune programs pooled id 0", &c->s,
			      &(struct want){10, 8, US(286), US(29), sqrt(187.5) * 1e6, US(10), US(35), US(44)});
		CHECK_INT(c->nprogs, 2);
		CHECK(c->nprogs == 2 && c->progs[0].id == 7 && c->progs[1].id == 8);
		CHECK_INT(c->id_rows, 1);
		CHECK_INT(c->rank, 2);
		CHECK_INT(c->tied, 1);
	}
	if ((c = find_cand(&r, "1")))
		CHECK_INT(c->rank, 1);
	an_at_release(&r);
	regfree(&id_re);
}

/* ---- 6. compat -------------------------------------------------------------------- */

static void test_compat(void)
{
	/* EXPECTED.md's key map of compat.xplane.pb (GPU:0 only). */
	static const struct {
		const char *key;
		int64_t ps;
	} map[] = {
		{"jit_a(1-None)", 8000000},	/* k_a2 replaces k_a1; k_a3 dropped first */
		{"jit_b(4-7)", 3000000},
		{"jit_b(4-None)", 2000000},
		{"jit_c(None-None)", 6000000},
		{"jit_d(9-None)", 4000000},	/* run_id stands in for program_id */
		{"jit_meta_only(None-None)", 2000000},
		{"jit_tie(5-None)", 3000000},	/* k_tie2: same start, later in file order */
		{"jit_edge(3-None)", 1000000},	/* exactly 1 us is kept */
		{"jit_autotune_fn_3(12-None)", 7000000},
	};
	const size_t nmap = sizeof(map) / sizeof(map[0]);
	struct xp_trace *t = load("compat.xplane.pb");
	struct an_at_opts o = {.trim = 1, .time = AN_TIME_BUSY, .alpha = 0.05};
	struct an_compat_opts co = {.device = "gpu"};
	struct an_compat_file info;
	struct an_at_result r;
	struct xp_err err = {0};
	const struct an_at_cand *c;
	regex_t id_re, key_re;
	size_t i;

	if (!t)
		return;
	compile(&id_re, AN_AT_DEFAULT_ID_REGEX);
	compile(&key_re, "^(jit_.*)$");

	/*
	 * Default id regex: only jit_autotune_fn_3 -> id "3", one sample of
	 * 7,000,000 ps (n = 1: nothing trimmed, std 0).  The file info: 14
	 * events on GPU:0, k_short (999,000) and k_a3 (500,000) under 1 us, so
	 * 12 kept (volta_sgemm_128x64 included); 9 distinct jit_ keys (the map).
	 */
	o.id_re = co.id_re = &id_re;
	an_at_init(&r, &o);
	CHECK_INT(an_compat_add(t, &co, &r, 0, &info, &err), 0);
	CHECK_STR(info.plane, "/device:GPU:0");
	CHECK_INT(info.kept, 12);
	CHECK_INT(info.dropped_short, 2);
	CHECK_INT(info.truncated, 0);
	CHECK_INT(info.keys, nmap);
	CHECK_INT(an_at_finish(&r, &err), 0);
	CHECK_INT(r.ncands, 1);
	if ((c = find_cand(&r, "3"))) {
		check_summary("compat id 3", &c->s, &(struct want){1, 1, 7000000, 7000000, 0, 7000000, 7000000, 7000000});
		CHECK_INT(c->rank, 1);
		CHECK_INT(c->tied, 1);
		CHECK_INT(c->inputs, 1);
	}
	an_at_release(&r);

	/*
	 * The whole key map, read back by taking the key itself as the id: exactly
	 * the 9 keys, each with its one duration; no jit_short, no volta_sgemm,
	 * nothing from GPU:1 or the host plane.
	 */
	o.id_re = co.id_re = &key_re;
	an_at_init(&r, &o);
	CHECK_INT(an_compat_add(t, &co, &r, 0, &info, &err), 0);
	CHECK_INT(an_at_finish(&r, &err), 0);
	CHECK_INT(r.ncands, nmap);
	for (i = 0; i < nmap; i++) {
		if (!(c = find_cand(&r, map[i].key)))
			continue;
		CHECK_INT(c->s.n, 1);
		CHECK_PS(c->s.total, map[i].ps);
	}
	an_at_release(&r);

	/* A device substring no plane contains is a usage error. */
	co.device = "tpu";
	an_at_init(&r, &o);
	CHECK_INT(an_compat_add(t, &co, &r, 0, &info, &err), XP_ERR_USAGE);
	an_at_release(&r);

	regfree(&id_re);
	regfree(&key_re);
	xp_trace_free(t);
}

/* ---- 11. tpu_stray_end: the execution finder leaves stray ends out ------------------ */

static void test_tpu_stray_end_functions(void)
{
	struct xp_trace *t = load("tpu_stray_end.xplane.pb");
	struct an_exec_list l;
	struct an_fn_result r;
	struct an_fn_opts fo = {0};

	if (!t)
		return;
	/* TPU:0's M5 (its duration an 82 ms end time) is no execution and no busy time. */
	if (!find_execs(t, NULL, NULL, &l)) {
		CHECK_INT(l.n, 26);
		CHECK_INT(l.ndevices, 3);
		if (l.ndevices == 3) {
			CHECK_INT(l.devices[0].stray_events, 1);
			CHECK_INT(l.devices[0].busy_ps, US(100));
			CHECK_INT(l.devices[1].stray_events, 0);
			CHECK_INT(l.devices[2].stray_events, 0);
			CHECK_INT(l.devices[0].busy_ps + l.devices[1].busy_ps + l.devices[2].busy_ps,
				  US(82250));
		}
		an_exec_list_release(&l);
	}
	fn_rows(t, NULL, &fo, &r);
	CHECK_INT(r.nrows, 3);
	check_row("stray jit_step", find_row(&r, "jit_step", 1, 77, NULL), 1,
		  &(struct want){10, 10, US(100), US(10), sqrt(2) * 1e6, US(8), US(10), US(12)});
	check_row("stray jit_tiny", find_row(&r, "jit_tiny", 1, 79, NULL), 1,
		  &(struct want){5, 5, US(82040), US(16408), US(32796), US(10), US(10), US(82000)});
	CHECK_INT(r.stray_events, 1);
	an_fn_release(&r);
	xp_trace_free(t);
}

/* ---- 12. gpu_old_layout ------------------------------------------------------------ */

/* GPU:0's three calls, GPU:1's one, GPU:2's one (EXPECTED.md 12), with a given split. */
static void check_old_layout(const char *what, const struct an_exec_list *l, enum an_split split)
{
	const struct want_exec w[5] = {
		{"jit_conv", 1, 9, 0, split, 0, US(6), US(8), 3},
		{"jit_conv", 1, 9, 0, split, US(12), US(7), US(9), 3},
		{"jit_conv", 1, 9, 0, split, US(24), US(6), US(8), 3},
		{"jit_conv", 1, 9, 1, split, US(2), US(8), US(10), 3},
		{"jit_conv", 1, 9, 2, split, US(40), US(4), US(5), 2},
	};
	size_t i;

	CHECK_INT(l->n, 5);
	for (i = 0; i < l->n && i < 5; i++)
		check_exec(what, &l->execs[i], &w[i]);
}

static void test_gpu_old_layout(void)
{
	struct xp_trace *t = load("gpu_old_layout.xplane.pb");
	struct an_exec_list l;
	struct an_fn_result r;
	struct an_fn_opts fo = {0};
	size_t i;

	if (!t)
		return;
	/*
	 * "<module>:XLA GPU module" and XlaModule-range executors with the
	 * launches on their own line: every event linked, GPU:1 one call
	 * although its launches also lie in GPU:0's executors.
	 */
	if (!find_execs(t, NULL, NULL, &l)) {
		check_old_layout("old layout linked", &l, AN_SPLIT_HOST);
		CHECK_INT(l.ndevices, 3);
		for (i = 0; i < l.ndevices; i++) {
			CHECK_INT(l.devices[i].linked_events, l.devices[i].corr_events);
			CHECK_INT(l.devices[i].runs_execs, 0);
			CHECK_INT(l.devices[i].host_linkage, AN_LINK_OK);
		}
		an_exec_list_release(&l);
	}
	/* Pooled: samples {6, 7, 6, 8, 4} us, total 31, mean 6.2, median 6. */
	fn_rows(t, NULL, &fo, &r);
	CHECK_INT(r.nrows, 1);
	check_row("old layout jit_conv", find_row(&r, "jit_conv", 1, 9, NULL), 3,
		  &(struct want){5, 5, US(31), 6200000, sqrt(1.76) * 1e6, US(4), US(6), US(8)});
	an_fn_release(&r);
	xp_trace_free(t);

	/* Without its host plane: the runs rule splits GPU:0's run into the same calls. */
	t = load("gpu_old_layout_nohost.xplane.pb");
	if (!t)
		return;
	if (!find_execs(t, NULL, NULL, &l)) {
		check_old_layout("old layout runs", &l, AN_SPLIT_RUNS);
		if (l.ndevices == 3) {
			CHECK_INT(l.devices[0].runs_execs, 3);
			CHECK_INT(l.devices[0].runs_split, 2);
			CHECK_INT(l.devices[1].runs_execs, 1);
			CHECK_INT(l.devices[1].runs_split, 0);
			CHECK_INT(l.devices[0].runs_repeating + l.devices[1].runs_repeating +
				  l.devices[2].runs_repeating, 0);
			CHECK_INT(l.devices[0].host_linkage, AN_LINK_NO_HOST_PLANE);
		}
		an_exec_list_release(&l);
	}
	xp_trace_free(t);
}

/* ---- 13. gpu_repeated_ids ---------------------------------------------------------- */

static void test_gpu_repeated_ids(void)
{
	struct xp_trace *t = load("gpu_repeated_ids.xplane.pb");
	struct an_exec_list l;

	if (!t)
		return;
	if (!find_execs(t, NULL, NULL, &l)) {
		static const struct want_exec w[4] = {
			{"jit_r", 1, 4, 0, AN_SPLIT_HOST, US(12), US(3), US(4), 2},
			{"jit_r", 1, 4, 0, AN_SPLIT_HOST, US(112), US(3), US(4), 2},
			{"jit_r", 1, 4, 0, AN_SPLIT_HOST, US(212), US(3), US(4), 2},
			{"jit_r", 1, 4, 0, AN_SPLIT_RUNS, US(300), US(1), US(1), 1},
		};
		size_t i;

		CHECK_INT(l.n, 4);
		for (i = 0; i < l.n && i < 4; i++)
			check_exec("repeated ids", &l.execs[i], &w[i]);
		if (l.ndevices == 1) {
			CHECK_INT(l.devices[0].corr_events, 7);
			CHECK_INT(l.devices[0].linked_events, 6);
			CHECK_INT(l.devices[0].corr_ambiguous, 1);
			CHECK_INT(l.devices[0].corr_no_launch, 0);
			CHECK_INT(l.devices[0].corr_no_executor, 0);
		}
		an_exec_list_release(&l);
	}
	xp_trace_free(t);
}

/* ---- 14. host-linkage edge cases, 15. a call whose kernels repeat ------------------- */

static void test_gpu_link_edges(void)
{
	struct xp_trace *t;
	struct an_exec_list l;
	size_t i, bad = 0;

	/* 300 copies of one id, none unique: the nearest launch, 300 executions of 2 us. */
	if ((t = load("gpu_many_copies.xplane.pb")) && !find_execs(t, NULL, NULL, &l)) {
		CHECK_INT(l.n, 300);
		for (i = 0; i < l.n; i++)
			bad += l.execs[i].split != AN_SPLIT_HOST || l.execs[i].busy_ps != US(2) ||
			       l.execs[i].start_ps != US(12 + 100 * (int64_t)i);
		CHECK_INT(bad, 0);
		if (l.ndevices == 1)
			CHECK_INT(l.devices[0].corr_ambiguous, 0);
		an_exec_list_release(&l);
	}
	xp_trace_free(t);

	/* id 5 on both devices at the same time: each device's own launch thread decides. */
	if ((t = load("gpu_merged_processes.xplane.pb")) && !find_execs(t, NULL, NULL, &l)) {
		CHECK_INT(l.n, 2);
		if (l.n == 2) {
			check_exec("merged GPU:0", &l.execs[0],
				   &(struct want_exec){"jit_p", 1, 6, 0, AN_SPLIT_HOST, US(12), US(5), US(12), 2});
			check_exec("merged GPU:1", &l.execs[1],
				   &(struct want_exec){"jit_p", 1, 6, 1, AN_SPLIT_HOST, US(12), US(3), US(11), 2});
		}
		for (i = 0; i < l.ndevices; i++)
			CHECK_INT(l.devices[i].corr_ambiguous, 0);
		an_exec_list_release(&l);
	}
	xp_trace_free(t);

	/* ExecuteThunks around "<module>:XLA GPU module": one execution each, a launch between their starts included. */
	if ((t = load("gpu_both_forms.xplane.pb")) && !find_execs(t, NULL, NULL, &l)) {
		CHECK_INT(l.n, 2);
		if (l.n == 2) {
			check_exec("both forms 1", &l.execs[0],
				   &(struct want_exec){"jit_b", 1, 7, 0, AN_SPLIT_HOST, 0, US(4), US(5), 2});
			check_exec("both forms 2", &l.execs[1],
				   &(struct want_exec){"jit_b", 1, 7, 0, AN_SPLIT_HOST, US(10), US(5), US(6), 2});
		}
		an_exec_list_release(&l);
	}
	xp_trace_free(t);

	/* gemm relu gemm relu x4, no host: cut between calls, not inside them. */
	if ((t = load("gpu_runs_mlp.xplane.pb")) && !find_execs(t, NULL, NULL, &l)) {
		CHECK_INT(l.n, 4);
		for (i = 0; i < l.n && i < 4; i++)
			check_exec("mlp call", &l.execs[i],
				   &(struct want_exec){"jit_mlp", 1, 2, 0, AN_SPLIT_RUNS, US(100 * (int64_t)i),
						       US(24), US(29), 4});
		if (l.ndevices == 1) {
			CHECK_INT(l.devices[0].runs_execs, 4);
			CHECK_INT(l.devices[0].runs_split, 3);
		}
		an_exec_list_release(&l);
	}
	xp_trace_free(t);

	/* --children on tpu_stray_end: the whole plane's three stray ends are left out of it. */
	if ((t = load("tpu_stray_end.xplane.pb")) && !find_execs(t, "TPU:0", ".", &l)) {
		if (l.ndevices == 1) {
			CHECK_INT(l.devices[0].stray_events, 1);
			CHECK_INT(l.devices[0].stray_children, 3);
		}
		an_exec_list_release(&l);
	}
	xp_trace_free(t);
}

/* ---- real MI300X conv trace: each executor form alone gives the same executions --------- */

/* Hides host executor forms of t: the module_name stat, and/or "<module>:XLA GPU module" names. */
static void hide_executors(struct xp_trace *t, int module_name, int gpu_module)
{
	size_t pi, i;

	for (pi = 0; pi < t->nplanes; pi++) {
		struct xp_plane *p = &t->planes[pi];

		if (strncmp(p->name, "/host:", 6))
			continue;
		if (module_name)
			p->has_key[XP_K_MODULE_NAME] = 0;
		for (i = 0; gpu_module && i < p->nevmetas; i++)
			if (strstr(p->evmetas[i].name, ":XLA GPU module"))
				p->evmetas[i].name = "hidden";
	}
}

static void test_real_executor_forms(void)
{
	struct xp_trace *t = test_load(TESTDATA_DIR "/real/mi300x_jax_conv.xplane.pb", NULL);
	struct an_exec_list a, b;
	size_t i;

	if (!t)
		return;
	/* JAX 0.8 writes ExecuteThunks (module_name) around "<module>:XLA GPU module". */
	if (!find_execs(t, NULL, NULL, &a)) {
		CHECK_INT(a.n, 40);
		hide_executors(t, 1, 0);	/* the older layout's executors alone */
		if (!find_execs(t, NULL, NULL, &b)) {
			CHECK_INT(b.n, a.n);
			for (i = 0; i < a.n && i < b.n; i++) {
				CHECK_INT(b.execs[i].split, AN_SPLIT_HOST);
				CHECK_INT(b.execs[i].device, a.execs[i].device);
				CHECK_INT(b.execs[i].start_ps, a.execs[i].start_ps);
				CHECK_INT(b.execs[i].busy_ps, a.execs[i].busy_ps);
				CHECK_INT(b.execs[i].events, a.execs[i].events);
			}
			an_exec_list_release(&b);
		}
		hide_executors(t, 1, 1);	/* no executor left: every device says so */
		if (!find_execs(t, NULL, NULL, &b)) {
			for (i = 0; i < b.ndevices; i++)
				CHECK_INT(b.devices[i].host_linkage, AN_LINK_NO_EXECUTORS);
			/* and the runs rule finds the 40 calls again (EXPECTED.md 12's rule on real data) */
			CHECK_INT(b.n, 40);
			for (i = 0; i < a.n && i < b.n; i++) {
				CHECK_INT(b.execs[i].split, AN_SPLIT_RUNS);
				CHECK_INT(b.execs[i].busy_ps, a.execs[i].busy_ps);
			}
			an_exec_list_release(&b);
		}
		an_exec_list_release(&a);
	}
	xp_trace_free(t);
}

int main(void)
{
	test_tpu_basic();
	test_epoch();
	test_gpu_runs();
	test_gpu_host();
	test_autotune();
	test_autotune_untested();
	test_autotune_programs();
	test_compat();
	test_tpu_stray_end_functions();
	test_gpu_old_layout();
	test_gpu_repeated_ids();
	test_gpu_link_edges();
	test_real_executor_forms();
	return test_done("test_synth");
}
