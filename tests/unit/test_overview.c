/* SPDX-License-Identifier: Apache-2.0 */
/*
 * overview and events: the hand-computed answers of tests/synth/EXPECTED.md
 * sections 18 and 19, and on the real traces checks against a second path
 * (an_exec_find's device busy union; an_planes_describe's event counts).
 */
#include <stdlib.h>
#include <string.h>

#include "an_events.h"
#include "an_exec.h"
#include "an_input.h"
#include "an_notes.h"
#include "an_overview.h"
#include "an_planes.h"
#include "test.h"
#include "test_trace.h"
#include "xp_input.h"
#include "xp_model.h"

#define US(x) ((int64_t)(x) * 1000000)

static struct xp_trace *load(const char *dir, const char *rel)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/%s", dir, rel);
	return test_load(path, NULL);
}

/* The overview of every device of t in r (to release), counting a failure; how many devices it added. */
static size_t overview_of(struct xp_trace *t, struct an_ov_result *r)
{
	struct xp_err err = {0};
	size_t added = 0;

	an_ov_init(r);
	CHECK_INT(an_ov_add(r, t, NULL, &added, &err), 0);
	CHECK_INT(an_ov_finish(r, &err), 0);
	return added;
}

/* The events of t with options o in r (to release), counting a failure. */
static void events_of(struct xp_trace *t, const struct an_ev_opts *o, struct an_ev_result *r)
{
	struct xp_err err = {0};

	an_ev_init(r);
	CHECK_INT(an_ev_add(r, t, o, &err), 0);
	CHECK_INT(an_ev_finish(r, &err), 0);
}

/* Section 18. */
static void synth_overview(void)
{
	struct xp_trace *t = load(SYNTH_DIR, "overview.xplane.pb");
	struct an_ov_result r;
	struct xp_err err = {0};
	const struct an_ov_device *d;
	size_t added = 0;

	if (!t)
		return;
	CHECK_INT(overview_of(t, &r), 1);
	CHECK_INT(r.n, 1);
	if (r.n == 1) {
		d = &r.devices[0];
		CHECK_STR(d->name, "/device:GPU:0");
		CHECK_INT(d->events, 7);
		CHECK_INT(d->span_ps, US(50));
		CHECK_INT(d->busy_ps, US(43));
		CHECK_INT(d->compute_ps, US(19));
		CHECK_INT(d->coll_ps, US(20));
		CHECK_INT(d->coll_exposed_ps, US(16));
		CHECK_INT(d->memcpy_ps, US(15));
		CHECK_INT(d->memcpy_exposed_ps, US(8));
		CHECK_INT(d->coll_events, 2);
		CHECK_INT(d->memcpy_events, 2);
		CHECK_INT(d->busy_ps, d->compute_ps + d->coll_exposed_ps + d->memcpy_exposed_ps);
		CHECK_INT(d->steps.n, 2);
		CHECK(d->steps.mean == US(25) && d->steps.median == US(25));
		CHECK(d->steps.min == US(20) && d->steps.max == US(30));
		CHECK_INT(d->corr_events, 6);
		CHECK_INT(d->latency.n, 4);
		CHECK_INT(d->no_launch, 1);
		CHECK_INT(d->ambiguous, 1);
		CHECK_INT(d->off_scale, 0);
		CHECK(d->latency.mean == 1875000.0);
		CHECK(d->latency.median == 1500000.0);
		CHECK(d->latency.p99 == 4000000.0);
		CHECK(d->latency.min == 500000.0 && d->latency.max == 4000000.0);
	}
	CHECK_INT(r.host_steps.n, 2);
	CHECK(r.host_steps.mean == 9500000.0 && r.host_steps.median == 9500000.0);
	CHECK(r.host_steps.min == US(6) && r.host_steps.max == US(13));
	an_ov_release(&r);

	/* --device selecting nothing adds nothing */
	an_ov_init(&r);
	CHECK_INT(an_ov_add(&r, t, "TPU", &added, &err), 0);
	CHECK_INT(added, 0);
	an_ov_release(&r);
	xp_trace_free(t);
}

/*
 * EXPECTED.md 8a: one device plane twice in a trace. Executions and the
 * overview count the first plane only and say the second was left out
 * (before: one device with span 59 us and busy 23 us, executions doubled).
 */
static void synth_plane_twice(void)
{
	static const char *const said = "'t.pb': plane '/device:TPU:0' appears 2 times in the trace (dumps "
					"merged into one?): the first is counted, the other left out";
	struct xp_trace *t = load(SYNTH_DIR, "tpu_plane_twice.xplane.pb");
	struct an_exec_opts xo = {0};
	struct an_exec_list l;
	struct an_ov_result r;
	struct xp_notes n = {0};
	struct xp_err err = {0};
	size_t *before = NULL, added = 0;

	if (!t)
		return;
	CHECK_INT(an_exec_find(t, &xo, &l, &err), 0);
	CHECK_INT(l.ndevices, 1);
	CHECK_INT(l.n, 2);
	if (l.ndevices == 1) {
		CHECK_INT(l.devices[0].plane, 0);
		CHECK_INT(l.devices[0].repeats, 1);
		CHECK_INT(l.devices[0].busy_ps, US(15));
		CHECK_INT(l.devices[0].events, 2);
	}
	CHECK_INT(an_exec_notes(&n, "t.pb", &l), 0);
	CHECK_INT(n.n, 1);
	if (n.n == 1)
		CHECK_STR(n.msgs[0], said);
	xp_notes_release(&n);
	an_exec_list_release(&l);

	/* the trace as two inputs: each counts its first plane once and says so */
	an_ov_init(&r);
	for (int k = 0; k < 2; k++) {
		CHECK_INT(an_ov_counts(&r, &before), 0);
		CHECK_INT(an_ov_add(&r, t, NULL, &added, &err), 0);
		CHECK_INT(added, 1);
		CHECK_INT(an_ov_input_notes(&n, "t.pb", &r, before, k ? 1 : 0), 0);
		free(before);
		CHECK_INT(n.n, (size_t)k + 1);
		if (n.n == (size_t)k + 1)
			CHECK_STR(n.msgs[k], said);
	}
	CHECK_INT(an_ov_finish(&r, &err), 0);
	CHECK_INT(r.n, 1);
	if (r.n == 1) {
		const struct an_ov_device *d = &r.devices[0];

		CHECK_INT(d->planes, 2);
		CHECK_INT(d->repeats, 2);
		CHECK_INT(d->events, 4);
		/* one input's: the planes' mean, not their sum */
		CHECK_INT(d->span_ps, US(25));
		CHECK_INT(d->busy_ps, US(12));
	}
	xp_notes_release(&n);
	an_ov_release(&r);
	xp_trace_free(t);
}

/* Adds each of the synthetic files rel[0..n) to r, counting a failure. */
static void add_files(struct an_ov_result *r, const char *const *rel, size_t n)
{
	struct xp_err err = {0};
	size_t i, added;

	for (i = 0; i < n; i++) {
		struct xp_trace *t = load(SYNTH_DIR, rel[i]);

		if (!t)
			continue;
		CHECK_INT(an_ov_add(r, t, NULL, &added, &err), 0);
		CHECK_INT(added, 1);
		xp_trace_free(t);
	}
	CHECK_INT(an_ov_finish(r, &err), 0);
}

/*
 * Devices of several hosts (the synthetic sessions, EXPECTED.md 5c: one
 * execution per file filling its TPU:0): a device per host and plane, named
 * host:plane, its times one input's; one host's planes keep the bare name,
 * and a mean that is no whole picosecond rounds with busy's parts adding up.
 */
static void hosts_and_means(void)
{
	static const char *const two_hosts[] = {
		"sessions/base/run_0/host-a.xplane.pb", "sessions/base/run_0/host-b.xplane.pb",
		"sessions/base/run_1/host-a.xplane.pb",
	};
	static const char *const one_host[] = {
		"sessions/rounds/round_0.xplane.pb", "sessions/rounds/round_1.xplane.pb",
		"sessions/rounds/round_1.xplane.pb",
	};
	struct an_ov_result r;

	an_ov_init(&r);
	add_files(&r, two_hosts, 3);
	CHECK_INT(r.hosts, 2);
	CHECK_INT(r.n, 2);
	if (r.n == 2) {
		CHECK_STR(r.devices[0].name, "host-a:/device:TPU:0");
		CHECK_STR(r.devices[0].plane, "/device:TPU:0");
		CHECK_STR(r.devices[0].host, "host-a");
		CHECK_INT(r.devices[0].planes, 2);
		CHECK_INT(r.devices[0].span_ps, US(100) + US(1) / 2);	/* (100 + 101) / 2 us */
		CHECK_STR(r.devices[1].name, "host-b:/device:TPU:0");
		CHECK_INT(r.devices[1].planes, 1);
		CHECK_INT(r.devices[1].busy_ps, US(110));
	}
	an_ov_release(&r);
	an_ov_init(&r);
	add_files(&r, one_host, 3);
	CHECK_INT(r.hosts, 1);
	CHECK_INT(r.n, 1);
	if (r.n == 1) {
		const struct an_ov_device *d = &r.devices[0];

		CHECK_STR(d->name, "/device:TPU:0");
		CHECK_INT(d->busy_ps, 100666667);	/* 302 us / 3, rounded */
		CHECK_INT(d->span_ps, 100666667);
		CHECK_INT(d->busy_ps, d->compute_ps + d->coll_exposed_ps + d->memcpy_exposed_ps);
	}
	an_ov_release(&r);
}

/* The interval helpers on a case worked by hand: [0,4) u [2,6) u [8,9) = 7; minus [3,8) = 7 - 3 = 4. */
static void intervals(void)
{
	int64_t a[][2] = {{8, 9}, {2, 6}, {0, 4}};
	int64_t b[][2] = {{3, 8}};
	size_t n = an_ov_merge(a, 3);

	CHECK_INT(n, 2);
	CHECK_INT(an_ov_minus((const int64_t(*)[2])a, n, (const int64_t(*)[2])b, 1), 4);
	CHECK_INT(an_ov_minus((const int64_t(*)[2])a, n, NULL, 0), 7);
}

/*
 * The union against a second way of computing it: intervals on a grid of
 * 512 points, marked one point at a time. Inputs of 1 to 100 sorted runs
 * (sorted input is left as it is, the rest sorted), with ties, nesting and
 * empty intervals.
 */
static void intervals_runs(void)
{
	enum { GRID = 512, MAXN = 400 };
	static int64_t v[MAXN][2];
	unsigned seed = 12345;
	int round;

	for (round = 0; round < 300; round++) {
		unsigned char mark[GRID] = {0};
		size_t n = 1 + (size_t)(round * 7 % MAXN), runs = 1 + (size_t)(round % 100), i, k;
		int64_t want = 0, got = 0, at = 0;

		for (i = 0; i < n; i++) {
			int64_t len;

			seed = seed * 1103515245u + 12345u;
			if (i % ((n + runs - 1) / runs) == 0)
				at = (int64_t)((seed >> 8) % (GRID / 2));	/* a new run starts lower */
			seed = seed * 1103515245u + 12345u;
			at += (int64_t)((seed >> 8) % 3);
			len = (int64_t)((seed >> 12) % 40);
			v[i][0] = at;
			v[i][1] = at + len < GRID ? at + len : GRID;
		}
		for (i = 0; i < n; i++)
			for (k = (size_t)v[i][0]; k < (size_t)v[i][1]; k++)
				mark[k] = 1;
		for (k = 0; k < GRID; k++)
			want += mark[k];
		n = an_ov_merge(v, n);
		for (i = 0; i < n; i++) {
			got += v[i][1] - v[i][0];
			if (i && v[i][0] <= v[i - 1][1])
				test_failures++, fprintf(stderr, "round %d: union not disjoint at %zu\n", round, i);
		}
		CHECK_INT(got, want);
	}
}

/*
 * Device order: numbers in names compare as numbers. The pairs are ordered by
 * hand; an_ov_finish must put eleven GPUs given backwards in 0, 1, ..., 10
 * order, where strcmp gives 0, 1, 10, 2, ...
 */
static void name_order(void)
{
	static const char *const less[][2] = {
		{"/device:GPU:2", "/device:GPU:10"}, {"/device:GPU:9", "/device:GPU:10"},
		{"/device:GPU:1", "/device:GPU:2"},  {"/device:GPU:10", "/device:TPU:0"},
		{"/device:GPU:1", "/device:GPU:1a"}, {"/device:GPU:1a", "/device:GPU:2"},
		{"x9y2", "x9y10"},		     {"/device:GPU:01", "/device:GPU:1"},
		{"/device:GPU:01", "/device:GPU:2"}, {"", "a"},
		{"/device:GPU", "/device:GPU:0"},    {"/device:GPU:99999999999999999999", "/device:GPU:100000000000000000000"},
	};
	struct an_ov_result r;
	struct xp_err err = {0};
	char name[11][32];
	size_t i;

	for (i = 0; i < sizeof(less) / sizeof(less[0]); i++) {
		if (an_name_cmp(less[i][0], less[i][1]) >= 0 || an_name_cmp(less[i][1], less[i][0]) <= 0) {
			fprintf(stderr, "an_name_cmp: '%s' should sort before '%s'\n", less[i][0], less[i][1]);
			test_failures++;
		}
	}
	CHECK_INT(an_name_cmp("/device:GPU:10", "/device:GPU:10"), 0);
	an_ov_init(&r);
	r.devices = calloc(11, sizeof(*r.devices));
	if (!r.devices) {
		test_failures++;
		return;
	}
	r.n = r.cap = 11;
	for (i = 0; i < 11; i++) {
		snprintf(name[i], sizeof(name[i]), "/device:GPU:%zu", 10 - i);
		r.devices[i].name = name[i];
	}
	CHECK_INT(an_ov_finish(&r, &err), 0);
	for (i = 0; i < 11; i++) {
		char want[32];

		snprintf(want, sizeof(want), "/device:GPU:%zu", i);
		CHECK_STR(r.devices[i].name, want);
	}
	an_ov_release(&r);
}

static const struct an_ev_row *find_row(const struct an_ev_result *r, const char *line, const char *name)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->rows[i].line, line) && !strcmp(r->rows[i].name, name))
			return &r->rows[i];
	return NULL;
}

/* Section 19. */
static void synth_events(void)
{
	struct xp_trace *t = load(SYNTH_DIR, "overview.xplane.pb");
	struct an_ev_result r;
	struct an_ev_opts o = {0};
	const struct an_ev_row *w;
	regex_t re;

	if (!t)
		return;
	events_of(t, &o, &r);
	CHECK_INT(r.events, 18);
	CHECK_INT(r.n, 12);
	CHECK((w = find_row(&r, "launch", "cuLaunchKernel")) && w->count == 6 && w->total_ps == US(6) &&
	      w->min_ps == US(1) && w->max_ps == US(1));
	CHECK((w = find_row(&r, "steps", "train")) && w->count == 2 && w->total_ps == US(16) &&
	      w->min_ps == US(6) && w->max_ps == US(10));
	CHECK((w = find_row(&r, "steps2", "train")) && w->count == 1 && w->total_ps == US(11));
	/* order: GPU plane first, Stream #1 by total descending, ties by count then name */
	if (r.n == 12) {
		CHECK_STR(r.rows[0].name, "all-reduce.1");
		CHECK_STR(r.rows[1].name, "fusion_a");
		CHECK_STR(r.rows[2].name, "fusion_c");
		CHECK_STR(r.rows[3].name, "ncclKernel_AllGather");
	}
	an_ev_release(&r);

	/* --plane host --line steps --match '^tr' */
	regcomp(&re, "^tr", REG_EXTENDED);
	o.plane = "host";
	o.line = "steps";
	o.match = &re;
	events_of(t, &o, &r);
	CHECK_INT(r.events, 3);
	CHECK_INT(r.n, 2);
	an_ev_release(&r);
	regfree(&re);
	xp_trace_free(t);
}

/* Real traces: overview busy = an_exec_find's device busy (every event is on stream lines there). */
static void real_busy(struct xp_trace *t)
{
	struct an_exec_opts xo = {0};
	struct an_exec_list l = {0};
	struct an_ov_result r;
	struct xp_err err = {0};
	size_t i, j, matched = 0;

	overview_of(t, &r);
	CHECK_INT(an_exec_find(t, &xo, &l, &err), 0);
	CHECK_INT(l.ndevices, r.n);
	for (i = 0; i < l.ndevices; i++)
		for (j = 0; j < r.n; j++)
			if (!strcmp(l.devices[i].name, r.devices[j].name)) {
				CHECK_INT(r.devices[j].busy_ps, l.devices[i].busy_ps);
				CHECK_INT(r.devices[j].events, l.devices[i].events);
				matched++;
			}
	CHECK_INT(matched, l.ndevices);
	an_exec_list_release(&l);
	an_ov_release(&r);
}

/* Real traces: events' counts per plane add up to planes' counts. */
static void real_counts(struct xp_trace *t)
{
	struct an_planes p = {0};
	struct an_ev_result r;
	struct an_ev_opts o = {0};
	struct xp_err err = {0};
	size_t i, j, sum;

	events_of(t, &o, &r);
	CHECK_INT(an_planes_describe(t, &p, &err), 0);
	CHECK_INT(r.events, p.events);
	CHECK_INT(r.stray, p.stray_ends);
	for (i = 0; i < p.n; i++) {
		for (sum = 0, j = 0; j < r.n; j++)
			if (!strcmp(r.rows[j].plane, p.planes[i].name))
				sum += r.rows[j].count;
		CHECK_INT(sum, p.planes[i].events);
	}
	an_planes_release(&p);
	an_ev_release(&r);
}

/* check on the real trace file, loaded for it alone. */
static void on_real(const char *file, void (*check)(struct xp_trace *t))
{
	struct xp_trace *t = load(TESTDATA_DIR "/real", file);

	if (t)
		check(t);
	xp_trace_free(t);
}

/*
 * Intervals near the int64 ends (offsets can be negative): the lengths
 * saturate and an exposed time is never negative; idle never either.
 */
static void extreme_intervals(void)
{
	const int64_t a[2][2] = {{INT64_MIN + 1, 0}, {0, INT64_MAX - 1}};
	const int64_t b[1][2] = {{INT64_MIN + 1, INT64_MAX - 1}};
	struct an_ov_device d = {0};

	CHECK_INT(an_ov_minus(a, 2, NULL, 0), INT64_MAX);
	CHECK_INT(an_ov_minus(a, 2, b, 1) >= 0, 1);
	CHECK_INT(an_ov_minus(b, 1, a, 2) >= 0, 1);
	d.span_ps = INT64_MIN + 5;
	d.busy_ps = 10;
	CHECK_INT(an_ov_idle(&d), 0);
	d.span_ps = INT64_MAX;
	d.busy_ps = -10;
	CHECK_INT(an_ov_idle(&d), INT64_MAX);
	d.span_ps = 30;
	d.busy_ps = 10;
	CHECK_INT(an_ov_idle(&d), 20);
}

/*
 * gpu_repeated_ids (EXPECTED.md 13): three copies 100 us apart keep ids 1
 * and 2; each kernel's nearest launch of its id is its own copy's (1 us
 * away; the next 99 us): latencies 12-11 = 1 us and 15-13 = 2 us three
 * times, mean and median 1.5 us. r_k3's two launches are 50 us away each:
 * ambiguous.
 */
static void repeated_ids_latency(void)
{
	struct xp_trace *t = load(SYNTH_DIR, "gpu_repeated_ids.xplane.pb");
	struct an_ov_result r;

	if (!t)
		return;
	overview_of(t, &r);
	if (r.n == 1) {
		CHECK_INT(r.devices[0].corr_events, 7);
		CHECK_INT(r.devices[0].latency.n, 6);
		CHECK_INT(r.devices[0].ambiguous, 1);
		CHECK_INT(r.devices[0].latency.mean, US(1) * 1.5);
		CHECK_INT(r.devices[0].latency.median, US(1) * 1.5);
	}
	an_ov_release(&r);
	xp_trace_free(t);
}

int main(void)
{
	intervals();
	intervals_runs();
	repeated_ids_latency();
	extreme_intervals();
	name_order();
	synth_overview();
	synth_events();
	synth_plane_twice();
	hosts_and_means();
	on_real("mi300x_jax_gemm.xplane.pb", real_busy);
	on_real("mi300x_jax_conv.xplane.pb", real_busy);
	on_real("mi300x_jax_elementwise.xplane.pb", real_busy);
	on_real("tpu_v6e_inference.xplane.pb", real_counts);
	on_real("v100_tf_bert.xplane.pb", real_counts);
	on_real("mi300x_jax_conv.xplane.pb", real_counts);
	return test_done("overview");
}
