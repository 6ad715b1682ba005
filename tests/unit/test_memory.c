/* SPDX-License-Identifier: Apache-2.0 */
/*
 * memory: the hand-computed answers of tests/synth/EXPECTED.md section 21,
 * and on every real trace a second computation: the protobuf-c reader's
 * model, stats found by name, events ordered by insertion, and the live set
 * at the peak by a quadratic scan instead of the analysis's address table.
 */
#include <stdlib.h>
#include <string.h>

#include "an_memory.h"
#include "test.h"
#include "test_trace.h"
#include "xp_model.h"

#define US(x) ((int64_t)(x) * 1000000)

static void synth(void)
{
	char path[4096];
	struct xp_trace *t;
	struct an_mem_opts o = {.peak = 1, .timeline = 1};
	struct an_mem_result r;
	struct xp_err err = {0};
	const struct an_mem_row *w;

	snprintf(path, sizeof(path), "%s/memory.xplane.pb", SYNTH_DIR);
	if (!(t = test_load(path, NULL)))
		return;
	an_mem_init(&r, &o);
	CHECK_INT(an_mem_add(&r, t, "in", &err), 0);
	CHECK_INT(r.nrows, 3);
	CHECK_INT(r.events, 13);
	CHECK_INT(r.no_memory_id, 1);
	if (r.nrows == 3) {
		w = &r.rows[0];
		CHECK_STR(w->memory_id, "GPU_0_bfc");
		CHECK_INT(w->by_index, 0);
		CHECK_INT(w->capacity, 1000);
		CHECK_INT(w->capacity_varies, 0);
		CHECK_INT(w->peak_in_use, 800);
		CHECK_INT(w->peak_allocated, 750);
		CHECK_INT(w->peak_reserved, 50);
		CHECK_INT(w->peak_time_ps, US(5));	/* the first of two events at 800 */
		CHECK(w->peak_fragmentation == 0.25);
		CHECK_INT(w->lifetime_peak, 900);
		CHECK_INT(w->allocs, 6);
		CHECK_INT(w->deallocs, 4);
		CHECK_INT(w->last_in_use, 650);
		CHECK_INT(w->largest_alloc, 300);
		CHECK_INT(w->live_count, 3);
		CHECK_INT(w->live_bytes, 700);
		CHECK_INT(w->unexplained_bytes, 50);
		CHECK_INT(w->freed_unseen, 1);
		CHECK_INT(w->addr_reused, 0);
		CHECK_INT(w->npoints, 10);
		if (w->live && w->live_count == 3) {
			CHECK_INT(w->live[0].bytes, 300);
			CHECK_STR(w->live[0].op, "op_b");
			CHECK_STR(an_mem_dtype_name(w->live[0].data_type), "bfloat16");
			CHECK_INT(w->live[1].bytes, 250);
			CHECK_INT(w->live[1].requested, 240);
			CHECK(w->live[1].shape == NULL);
			CHECK_INT(w->live[2].bytes, 150);
			CHECK_INT(w->live[2].time_ps, US(5));
			CHECK_STR(w->live[2].region, "temp");
		}
		if (w->npoints == 10) {
			/* the tie at 4 us: thread t1's free (earlier in the file) first */
			CHECK_INT(w->points[3].time_ps, US(4));
			CHECK_INT(w->points[3].dealloc, 1);
			CHECK_INT(w->points[4].in_use, 650);
		}
		w = &r.rows[1];
		CHECK_STR(w->memory_id, "index_on_host:1");
		CHECK_INT(w->by_index, 1);
		CHECK_INT(w->capacity, 1024);
		CHECK_INT(w->peak_in_use, 64);
		CHECK_INT(w->no_state, 1);
		CHECK_INT(w->deallocs, 1);
		CHECK_INT(w->live_count, 1);
		w = &r.rows[2];
		CHECK_STR(w->memory_id, "odd \"bfc\",x");
		CHECK_INT(w->peak_in_use, 10);
	}
	an_mem_release(&r);
	xp_trace_free(t);
}

/* The second path: one memory event as found by stat names. */
struct ev {
	int64_t t;
	int dealloc;
	char id[128];
	int has_alloc, has_res, has_avail, has_peak, has_addr, has_bytes;
	uint64_t alloc, res, avail, peak, addr, bytes;
};

static int stat_by_name(const struct xp_plane *p, const struct xp_event *e, const char *name, uint64_t *v,
			const char **s, size_t *len)
{
	size_t i;

	for (i = 0; i < e->nstats; i++) {
		const struct xp_stat *st = &p->stats[e->stats_first + i];

		if (strcmp(xp_stat_name(p, st), name))
			continue;
		if (s)
			return (*s = xp_stat_str(p, st, len)) ? 0 : -1;
		return xp_stat_u64(st, v);
	}
	return -1;
}

static size_t collect(const struct xp_trace *t, struct ev **out)
{
	int64_t base = INT64_MAX;
	size_t n = 0, cap = 0, pi, i;
	struct ev *v = NULL;

	for (pi = 0; pi < t->nplanes; pi++)
		if (!strncmp(t->planes[pi].name, "/host:", 6) && t->planes[pi].nevents && t->planes[pi].base_ns < base)
			base = t->planes[pi].base_ns;
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *p = &t->planes[pi];

		if (strncmp(p->name, "/host:", 6))
			continue;
		for (i = 0; i < p->nevents; i++) {
			const struct xp_event *e = &p->events[i];
			const char *name = xp_event_name(p, e), *s;
			struct ev x;
			size_t len;
			uint64_t ix;

			if (strcmp(name, "MemoryAllocation") && strcmp(name, "MemoryDeallocation"))
				continue;
			memset(&x, 0, sizeof(x));
			x.dealloc = name[6] == 'D';
			x.t = (p->base_ns - base) * 1000 + e->start_ps;
			if (!stat_by_name(p, e, "allocator_name", NULL, &s, &len))
				snprintf(x.id, sizeof(x.id), "%.*s", (int)len, s);
			else if (!stat_by_name(p, e, "index_on_host", &ix, NULL, NULL))
				snprintf(x.id, sizeof(x.id), "index_on_host:%llu", (unsigned long long)ix);
			else
				continue;
			x.has_alloc = !stat_by_name(p, e, "bytes_allocated", &x.alloc, NULL, NULL);
			x.has_res = !stat_by_name(p, e, "bytes_reserved", &x.res, NULL, NULL);
			x.has_avail = !stat_by_name(p, e, "bytes_available", &x.avail, NULL, NULL);
			x.has_peak = !stat_by_name(p, e, "peak_bytes_in_use", &x.peak, NULL, NULL);
			x.has_addr = !stat_by_name(p, e, "addr", &x.addr, NULL, NULL);
			x.has_bytes = !stat_by_name(p, e, "allocation_bytes", &x.bytes, NULL, NULL);
			if (n == cap) {
				cap = cap ? 2 * cap : 256;
				v = realloc(v, cap * sizeof(*v));
				if (!v)
					return 0;
			}
			/* insertion by time: equal times keep file order */
			{
				size_t k = n++;

				while (k > 0 && v[k - 1].t > x.t) {
					v[k] = v[k - 1];
					k--;
				}
				v[k] = x;
			}
		}
	}
	*out = v;
	return n;
}

static void real(const char *file)
{
	char path[4096];
	struct xp_trace *ref, *t;
	struct an_mem_opts o = {0};
	struct an_mem_result r;
	struct xp_err err = {0};
	struct ev *v = NULL;
	size_t n, i, j, k, rows = 0;

	snprintf(path, sizeof(path), "%s/real/%s", TESTDATA_DIR, file);
	ref = test_load(path, &xp_reader_protobuf_c);
	t = test_load(path, NULL);
	if (!ref || !t)
		goto out;
	an_mem_init(&r, &o);
	CHECK_INT(an_mem_add(&r, t, file, &err), 0);
	n = collect(ref, &v);
	CHECK(n > 0);
	CHECK_INT(r.events, n);
	for (i = 0; i < r.nrows; i++) {
		const struct an_mem_row *w = &r.rows[i];
		uint64_t peak = 0, cap = 0, life = 0, live_bytes = 0, in_use;
		size_t at = SIZE_MAX, allocs = 0, frees = 0, live = 0;
		int64_t peak_t = 0;

		for (j = 0; j < n; j++) {
			if (strcmp(v[j].id, w->memory_id))
				continue;
			v[j].dealloc ? frees++ : allocs++;
			if (v[j].has_peak && v[j].peak > life)
				life = v[j].peak;
			if (!v[j].has_alloc)
				continue;
			in_use = v[j].alloc + (v[j].has_res ? v[j].res : 0);
			if (v[j].has_avail && in_use + v[j].avail > cap)
				cap = in_use + v[j].avail;
			if (at == SIZE_MAX || in_use > peak) {
				peak = in_use;
				peak_t = v[j].t;
				at = j;
			}
		}
		/* live at the peak: allocations up to it with no later event at their address up to it */
		for (j = 0; at != SIZE_MAX && j <= at; j++) {
			int gone = 0;

			if (strcmp(v[j].id, w->memory_id) || v[j].dealloc || !v[j].has_addr)
				continue;
			for (k = j + 1; k <= at && !gone; k++)
				gone = !strcmp(v[k].id, w->memory_id) && v[k].has_addr && v[k].addr == v[j].addr;
			if (!gone) {
				live++;
				live_bytes += v[j].bytes;
			}
		}
		rows++;
		CHECK_INT(w->allocs, allocs);
		CHECK_INT(w->deallocs, frees);
		CHECK_INT(w->peak_in_use, peak);
		CHECK_INT(w->peak_time_ps, peak_t);
		CHECK_INT(w->capacity, cap);
		CHECK_INT(w->lifetime_peak, life);
		CHECK_INT(w->live_count, live);
		CHECK_INT(w->live_bytes, live_bytes);
	}
	CHECK(rows > 0);
	an_mem_release(&r);
out:
	free(v);
	xp_trace_free(ref);
	xp_trace_free(t);
}

int main(void)
{
	synth();
	real("mi300x_jax_conv.xplane.pb");
	real("mi300x_jax_elementwise.xplane.pb");
	real("mi300x_jax_gemm.xplane.pb");
	real("tpu_v6e_inference.xplane.pb");
	real("v100_tf_bert.xplane.pb");
	return test_done("memory");
}
