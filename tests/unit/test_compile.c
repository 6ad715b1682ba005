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
	for (i = 0; i < r.nfns; i++) {
		const struct an_comp_fn *f = &r.fns[i];
		int64_t *durs = malloc(4096 * sizeof(*durs)), first_start = INT64_MAX, first_dur = 0;
		size_t n = 0, events = 0;

		if (!durs)
			break;
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
		CHECK_INT(f->calls, n);
		CHECK_INT(f->first_ps, first_dur);
		CHECK_INT(f->nevents, events);
		if (n > 1) {
			size_t k, m;
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
	real("tpu_v6e_inference.xplane.pb");
	real("mi300x_jax_elementwise.xplane.pb");
	real("mi300x_jax_gemm.xplane.pb");
	real("mi300x_jax_conv.xplane.pb");
	return test_done("compile");
}
