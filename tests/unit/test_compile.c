/* SPDX-License-Identifier: Apache-2.0 */
/*
 * compile: the hand-computed answers of tests/synth/EXPECTED.md section 22,
 * and on the real traces a second computation over the protobuf-c reader's
 * model: per event, its innermost enclosing call found by a quadratic scan
 * (instead of the analysis's nesting stack), call counts, first calls,
 * later medians, compiler events per function and the union per line.
 */
#include <stdlib.h>
#include <string.h>

#include "an_callprog.h"
#include "an_compile.h"
#include "test.h"
#include "test_trace.h"
#include "xp_model.h"

#define US(x) ((int64_t)(x) * 1000000)

static void synth(void)
{
	char path[4096];
	struct xp_trace *t;
	struct an_comp_result r;
	struct xp_err err = {0};
	const struct an_comp_fn *f;
	const struct an_comp_event *e;

	snprintf(path, sizeof(path), "%s/compile.xplane.pb", SYNTH_DIR);
	if (!(t = test_load(path, NULL)))
		return;
	an_comp_init(&r, NULL);
	CHECK_INT(an_comp_add(&r, t, "in", &err), 0);
	CHECK_INT(r.nfns, 4);
	CHECK_INT(r.call_events, 9);
	CHECK_INT(r.calls, 8);
	CHECK_INT(r.compiler_events, 9);
	CHECK_INT(r.phase_ps[AN_COMP_TRACE], US(15));
	CHECK_INT(r.phase_ps[AN_COMP_LOWER], US(20));
	CHECK_INT(r.phase_ps[AN_COMP_COMPILE], US(113));
	CHECK_INT(r.total_ps, US(148));
	CHECK_INT(r.host_span_ps, US(760));
	CHECK_INT(r.unattributed, 2);
	CHECK_INT(r.unattributed_ps, US(25));
	CHECK_INT(r.nevents, 9);
	if (r.nfns == 4) {
		f = &r.fns[0];
		CHECK_STR(f->name, "f");
		CHECK_INT(f->calls, 4);
		CHECK_INT(f->first_ps, US(100));
		CHECK(f->has_later && f->later_median_ps == US(14));
		CHECK_INT(f->phase_ps[AN_COMP_TRACE], US(10));
		CHECK_INT(f->phase_ps[AN_COMP_LOWER], US(20));
		CHECK_INT(f->phase_ps[AN_COMP_COMPILE], US(93));
		CHECK_INT(f->compiling_calls, 3);
		CHECK_INT(f->nevents, 6);
		if (f->nevents == 6) {
			e = &r.events[f->first_event];
			CHECK_STR(e[2].name, "backend_compile");
			CHECK_INT(e[2].inner, 1);
			CHECK_INT(e[2].inner_ps, US(2));
			CHECK_STR(e[3].name, "GpuCompiler::RunBackend");
			CHECK_INT(e[3].nested, 1);
			CHECK_INT(e[3].inner, 2);
			CHECK_INT(e[3].inner_ps, US(25));
			CHECK_INT(e[4].call, 1);
			CHECK_INT(e[4].inside, 0);
			CHECK_INT(e[5].call, 3);
			CHECK_INT(e[5].inside, 1);
		}
		f = &r.fns[1];
		CHECK_STR(f->name, "g");
		CHECK_INT(f->calls, 2);
		CHECK_INT(f->first_ps, US(6));
		CHECK(f->later_median_ps == US(4));
		CHECK_INT(f->phase_ps[AN_COMP_TRACE], US(3));
		CHECK_STR(r.fns[2].name, "h");
		CHECK_INT(r.fns[2].has_later, 0);
		CHECK_STR(r.fns[3].name, "k");
		CHECK(r.events[7].fn == NULL && r.events[8].fn == NULL);
	}
	an_comp_release(&r);
	xp_trace_free(t);
}

/* A row compile_programs*.xplane.pb should give. */
struct want_row {
	const char *name;
	int has_program;
	uint64_t program;
	size_t calls;
	int64_t first_us, median_us;	/* median -1: one call */
};

/* The rows of a synthetic file, and its counts of calls, calls with a program and ambiguous ones. */
static void check_rows(const char *file, const struct want_row *want, size_t n, size_t calls, size_t with,
		       size_t ambiguous)
{
	char path[4096];
	struct xp_trace *t;
	struct an_comp_result r;
	struct xp_err err = {0};
	size_t i;

	snprintf(path, sizeof(path), "%s/%s", SYNTH_DIR, file);
	if (!(t = test_load(path, NULL)))
		return;
	an_comp_init(&r, NULL);
	CHECK_INT(an_comp_add(&r, t, "in", &err), 0);
	CHECK_INT(r.calls, calls);
	CHECK_INT(r.calls_program, with);
	CHECK_INT(r.calls_ambiguous, ambiguous);
	CHECK_INT(r.nfns, n);
	for (i = 0; i < r.nfns && i < n; i++) {
		const struct an_comp_fn *f = &r.fns[i];

		CHECK_STR(f->name, want[i].name);
		CHECK_INT(f->has_program, want[i].has_program);
		CHECK(f->program_id == want[i].program);
		CHECK_INT(f->calls, want[i].calls);
		CHECK_INT(f->first_ps, US(want[i].first_us));
		CHECK_INT(f->has_later, want[i].median_us >= 0);
		if (want[i].median_us >= 0)
			CHECK(f->later_median_ps == US(want[i].median_us));
	}
	an_comp_release(&r);
	xp_trace_free(t);
}

/* EXPECTED.md section 22b: a function's calls split by the program each ran (9 call events, 7 calls). */
static void synth_programs(void)
{
	static const struct want_row want[] = {
		{"f", 1, 7, 2, 100, 30}, {"f", 0, 0, 2, 60, 40}, {"<lambda>", 1, 13, 1, 20, -1}, {"f", 1, 9, 2, 10, 20},
	};

	check_rows("compile_programs.xplane.pb", want, 4, 7, 5, 1);
}

/* EXPECTED.md section 22c: TPU enqueues, run ids per device. */
static void synth_programs_tpu(void)
{
	static const struct want_row want[] = {
		{"f", 1, 7, 2, 50, 20}, {"f", 0, 0, 2, 30, 40}, {"f", 1, 9, 1, 10, -1}, {"f", 1, UINT64_MAX, 1, 5, -1},
	};

	check_rows("compile_programs_tpu.xplane.pb", want, 4, 6, 4, 0);
}

/* The search's budget: calls left when it is spent are unsearched (EXPECTED.md 22b's f #1, #3, #6). */
static void budget(void)
{
	char path[4096];
	struct xp_trace *t;
	struct xp_err err = {0};
	struct an_call_prog out[3];
	struct an_call_span spans[3] = {
		{0, 0, US(0), US(100), "f", 1}, {0, 0, US(300), US(330), "f", 1}, {0, 0, US(600), US(640), "f", 1},
	};
	int64_t shift[3] = {0};

	snprintf(path, sizeof(path), "%s/compile_programs.xplane.pb", SYNTH_DIR);
	if (!(t = test_load(path, NULL)))
		return;
	CHECK(t->nplanes == 3 && !strcmp(t->planes[0].name, "/host:CPU") &&
	      !strcmp(t->planes[0].lines[0].name, "main"));
	/*
	 * each step walks the call's events: f #1 its launch in steps 1 and 2 (2),
	 * f #3 its two launches in steps 1 and 2 (4); f #6 then finds none left
	 */
	CHECK_INT(an_call_programs(t, shift, spans, 3, 6, out, &err), 0);
	CHECK_INT(out[0].state, AN_CALL_PROG_KNOWN);
	CHECK_INT(out[0].program, 7);
	CHECK_INT(out[1].state, AN_CALL_PROG_KNOWN);
	CHECK_INT(out[1].program, 7);
	CHECK_INT(out[2].state, AN_CALL_PROG_UNSEARCHED);
	CHECK_INT(an_call_programs(t, shift, spans, 3, 10, out, &err), 0);
	CHECK_INT(out[2].state, AN_CALL_PROG_AMBIGUOUS);
	CHECK_INT(an_call_programs(t, shift, spans, 3, 9, out, &err), 0);
	CHECK_INT(out[2].state, AN_CALL_PROG_UNSEARCHED);
	xp_trace_free(t);
}

/* The module names JAX gives a function's programs. */
static void module_names(void)
{
	CHECK(an_module_names_fn("jit_f", 5, "f", 1));
	CHECK(an_module_names_fn("pmap_f", 6, "f", 1));
	CHECK(an_module_names_fn("f", 1, "f", 1));
	CHECK(an_module_names_fn("jit__lambda_", 12, "<lambda>", 8));
	CHECK(an_module_names_fn("jit_a.b-c", 9, "a.b-c", 5));
	CHECK(!an_module_names_fn("jit_g", 5, "f", 1));
	CHECK(!an_module_names_fn("jit_ff", 6, "f", 1));
	CHECK(!an_module_names_fn("jit__", 5, "a", 1));
	CHECK(!an_module_names_fn("xla_f", 5, "f", 1));
}

static int is_call(const char *name, const char **fn, size_t *len)
{
	return (*fn = an_comp_call_fn(name, len)) != NULL;
}

/* The innermost call-named event on e's line enclosing it (not e), or -1. */
static long enclosing_call(const struct xp_plane *p, const struct xp_line *ln, size_t e)
{
	const struct xp_event *x = &p->events[e];
	long best = -1;
	size_t i, len;
	const char *fn;

	for (i = ln->first_event; i < ln->first_event + ln->nevents; i++) {
		const struct xp_event *y = &p->events[i];

		if (i == e || !is_call(xp_event_name(p, y), &fn, &len))
			continue;
		if (y->start_ps > x->start_ps || y->start_ps + y->dur_ps < x->start_ps + x->dur_ps)
			continue;
		if (best < 0 || y->dur_ps < p->events[best].dur_ps)
			best = (long)i;
	}
	return best;
}

static int cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/*
 * The line of t's host planes after the cursor (*pi, *li), both 0 to start,
 * and its plane in *p; NULL after the last.
 */
static const struct xp_line *next_host_line(const struct xp_trace *t, size_t *pi, size_t *li,
					    const struct xp_plane **p)
{
	for (; *pi < t->nplanes; (*pi)++, *li = 0) {
		*p = &t->planes[*pi];
		if (!strncmp((*p)->name, "/host:", 6) && *li < (*p)->nlines)
			return &(*p)->lines[(*li)++];
	}
	return NULL;
}

static void real(const char *file)
{
	char path[4096];
	struct xp_trace *ref, *t;
	struct an_comp_result r;
	struct xp_err err = {0};
	const struct xp_plane *p;
	const struct xp_line *ln;
	size_t i, pi, li, e, checked = 0, cevs = 0;
	int64_t union_ps = 0;

	snprintf(path, sizeof(path), "%s/real/%s", TESTDATA_DIR, file);
	ref = test_load(path, &xp_reader_protobuf_c);
	t = test_load(path, NULL);
	if (!ref || !t)
		goto out;
	an_comp_init(&r, NULL);
	CHECK_INT(an_comp_add(&r, t, file, &err), 0);
	/*
	 * A function's rows (one per program it ran) pooled: their calls, the
	 * earliest first call, their events; the later median where it has one row.
	 */
	for (i = 0; i < r.nfns; i++) {
		const struct an_comp_fn *f = &r.fns[i];
		int64_t *durs = malloc(4096 * sizeof(*durs)), first_start = INT64_MAX, first_dur = 0;
		int64_t row_first = f->first_ps, row_first_start = f->first_start_ps;
		size_t n = 0, events = 0, rows = 0, calls = 0, nevents = 0, k;

		if (!durs)
			break;
		for (k = 0; k < r.nfns; k++) {
			if (strcmp(r.fns[k].name, f->name))
				continue;
			if (k < i) {
				rows = 0;	/* checked with its first row */
				break;
			}
			rows++;
			calls += r.fns[k].calls;
			nevents += r.fns[k].nevents;
			if (r.fns[k].first_start_ps < row_first_start) {
				row_first_start = r.fns[k].first_start_ps;
				row_first = r.fns[k].first_ps;
			}
		}
		if (!rows) {
			free(durs);
			continue;
		}
		for (pi = li = 0; (ln = next_host_line(ref, &pi, &li, &p));) {
			for (e = ln->first_event; e < ln->first_event + ln->nevents; e++) {
				const char *fn, *name = xp_event_name(p, &p->events[e]), *efn;
				size_t len, elen;
				long enc = enclosing_call(p, ln, e);

				if (is_call(name, &fn, &len)) {
					if (len != strlen(f->name) || memcmp(fn, f->name, len))
						continue;
					if (enc >= 0 &&
					    is_call(xp_event_name(p, &p->events[enc]), &efn, &elen) &&
					    elen == len && !memcmp(efn, fn, len))
						continue;	/* JAX's duplicate span */
					if (n < 4096)
						durs[n++] = p->events[e].dur_ps;
					if (p->events[e].start_ps < first_start) {
						first_start = p->events[e].start_ps;
						first_dur = p->events[e].dur_ps;
					}
				} else if (an_comp_phase_of(name) >= 0 && enc >= 0 &&
					   is_call(xp_event_name(p, &p->events[enc]), &efn, &elen) &&
					   elen == strlen(f->name) && !memcmp(efn, f->name, elen)) {
					events++;
				}
			}
		}
		CHECK_INT(calls, n);
		CHECK_INT(row_first, first_dur);
		CHECK_INT(nevents, events);
		if (n > 1 && rows == 1) {
			size_t m;
			double med;

			/* the later calls: drop the first by start */
			for (k = 0; k < n && durs[k] != first_dur; k++)
				;
			durs[k] = durs[--n];
			qsort(durs, n, sizeof(*durs), cmp64);
			m = n;
			med = m % 2 ? (double)durs[m / 2] : ((double)durs[m / 2 - 1] + (double)durs[m / 2]) / 2;
			CHECK(f->later_median_ps == med);
		}
		checked++;
		free(durs);
	}
	/* compiler events and their union per line, by sorting each line's */
	for (pi = li = 0; (ln = next_host_line(ref, &pi, &li, &p));) {
		int64_t (*iv)[2] = malloc((ln->nevents + 1) * sizeof(*iv)), cov = INT64_MIN;
		size_t n = 0, k;

		if (!iv)
			continue;
		for (e = ln->first_event; e < ln->first_event + ln->nevents; e++)
			if (an_comp_phase_of(xp_event_name(p, &p->events[e])) >= 0) {
				iv[n][0] = p->events[e].start_ps;
				iv[n++][1] = p->events[e].start_ps + p->events[e].dur_ps;
			}
		cevs += n;
		qsort(iv, n, sizeof(*iv), cmp64);	/* by start: the first member */
		for (k = 0; k < n; k++) {
			if (iv[k][1] > cov)
				union_ps += iv[k][1] - (iv[k][0] > cov ? iv[k][0] : cov);
			if (iv[k][1] > cov)
				cov = iv[k][1];
		}
		free(iv);
	}
	CHECK_INT(r.compiler_events, cevs);
	CHECK_INT(r.total_ps, union_ps);
	CHECK(checked > 0);
	an_comp_release(&r);
out:
	xp_trace_free(ref);
	xp_trace_free(t);
}

int main(void)
{
	synth();
	synth_programs();
	synth_programs_tpu();
	budget();
	module_names();
	real("tpu_v6e_inference.xplane.pb");
	real("mi300x_jax_elementwise.xplane.pb");
	real("mi300x_jax_gemm.xplane.pb");
	real("mi300x_jax_conv.xplane.pb");
	real("nvidia_h200_jax_model.xplane.pb");
	real("nvidia_h200_jax_memory.xplane.pb");
	return test_done("compile");
}
