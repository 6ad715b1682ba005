/* SPDX-License-Identifier: Apache-2.0 */
#include "cap_xspace.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xp_arena.h"
#include "xp_hmap.h"
#include "xp_sort.h"
#include "xplane_pb.h"

#define MAX_ANNOTATIONS 16

double cap_occupancy_pct(const struct cap_device *d, const struct cap_kernel *k)
{
	uint64_t threads = (uint64_t)(k->block[0] > 0 ? k->block[0] : 0) *
			   (uint64_t)(k->block[1] > 0 ? k->block[1] : 0) *
			   (uint64_t)(k->block[2] > 0 ? k->block[2] : 0);
	uint64_t wpb, blocks, b;
	double pct;

	if (!d || !threads || !d->warp_size || !d->max_warps_per_sm)
		return 0;
	wpb = (threads + d->warp_size - 1) / d->warp_size;
	blocks = d->max_warps_per_sm / wpb;
	if (d->max_blocks_per_sm && d->max_blocks_per_sm < blocks)
		blocks = d->max_blocks_per_sm;
	if (k->regs && d->regs_per_sm) {
		/* registers are given to a warp in units of 256 */
		uint64_t per_warp = ((uint64_t)k->regs * d->warp_size + 255) / 256 * 256;

		b = d->regs_per_sm / per_warp / wpb;
		if (b < blocks)
			blocks = b;
	}
	if ((k->static_shmem || k->dynamic_shmem) && d->shmem_per_sm) {
		b = d->shmem_per_sm / ((uint64_t)k->static_shmem + k->dynamic_shmem);
		if (b < blocks)
			blocks = b;
	}
	pct = (double)blocks * (double)threads * 100.0 / ((double)d->max_warps_per_sm * d->warp_size);
	return pct > 100 ? 100 : pct;
}

/* --- a plane under construction: protobuf-c structs in an arena ----------------------- */

struct pbuild {
	struct xp_arena a;
	XPlane *p;
	struct xp_hmap evm, stm;	/* name -> metadata id */
	EventMetadataEntry **ev;
	size_t nev, evcap;
	StatMetadataEntry **st;
	size_t nst, stcap;
	int nomem;
};

static void *pb_alloc(struct pbuild *b, size_t size)
{
	void *p = xp_arena_alloc(&b->a, size ? size : 1);

	if (!p)
		b->nomem = 1;
	return p;
}

static char *pb_strn(struct pbuild *b, const char *s, size_t len)
{
	char *d = xp_arena_strndup(&b->a, s ? s : "", s ? len : 0);

	if (!d)
		b->nomem = 1;
	return d;
}

static char *pb_str(struct pbuild *b, const char *s)
{
	return pb_strn(b, s, s ? strlen(s) : 0);
}

/* Grows an arena array of pointers (the old copy stays in the arena). */
static int pb_grow(struct pbuild *b, void ***arr, size_t n, size_t *cap)
{
	void **na;

	if (n < *cap)
		return 0;
	na = pb_alloc(b, (*cap ? *cap * 2 : 16) * sizeof(*na));
	if (!na)
		return -1;
	if (n)
		memcpy(na, *arr, n * sizeof(*na));
	*arr = na;
	*cap = *cap ? *cap * 2 : 16;
	return 0;
}

static int pb_begin(struct pbuild *b, int64_t id, const char *name)
{
	memset(b, 0, sizeof(*b));
	xp_arena_init(&b->a);
	b->p = pb_alloc(b, sizeof(*b->p));
	if (!b->p)
		return XP_ERR_NOMEM;
	tensorflow__profiler__xplane__init(b->p);
	b->p->id = id;
	b->p->name = pb_str(b, name);
	return b->nomem ? XP_ERR_NOMEM : 0;
}

static void pb_release(struct pbuild *b)
{
	xp_hmap_release(&b->evm);
	xp_hmap_release(&b->stm);
	xp_arena_release(&b->a);
	memset(b, 0, sizeof(*b));
}

/* The id of the stat metadata called name (ids count from 1); 0 when out of memory. */
static int64_t pb_stat_id(struct pbuild *b, const char *name)
{
	size_t id = b->nst + 1;
	int r = xp_hmap_get_or_put(&b->stm, name, &id);
	StatMetadataEntry *e;
	XStatMetadata *m;

	if (r < 0) {
		b->nomem = 1;
		return 0;
	}
	if (r)
		return (int64_t)id;
	e = pb_alloc(b, sizeof(*e));
	m = pb_alloc(b, sizeof(*m));
	if (!e || !m || pb_grow(b, (void ***)&b->st, b->nst, &b->stcap))
		return 0;
	tensorflow__profiler__xstat_metadata__init(m);
	tensorflow__profiler__xplane__stat_metadata_entry__init(e);
	m->id = (int64_t)id;
	m->name = pb_str(b, name);
	e->key = m->id;
	e->value = m;
	b->st[b->nst++] = e;
	return (int64_t)id;
}

static int64_t pb_event_id(struct pbuild *b, const char *name)
{
	size_t id = b->nev + 1;
	int r = xp_hmap_get_or_put(&b->evm, name, &id);
	EventMetadataEntry *e;
	XEventMetadata *m;

	if (r < 0) {
		b->nomem = 1;
		return 0;
	}
	if (r)
		return (int64_t)id;
	e = pb_alloc(b, sizeof(*e));
	m = pb_alloc(b, sizeof(*m));
	if (!e || !m || pb_grow(b, (void ***)&b->ev, b->nev, &b->evcap))
		return 0;
	tensorflow__profiler__xevent_metadata__init(m);
	tensorflow__profiler__xplane__event_metadata_entry__init(e);
	m->id = (int64_t)id;
	m->name = pb_str(b, name);
	e->key = m->id;
	e->value = m;
	b->ev[b->nev++] = e;
	return (int64_t)id;
}

/* Stats are filled in place into an array the caller sized. */
struct statv {
	XStat **ptrs;
	XStat *s;
	size_t n, cap;
};

static int statv_init(struct pbuild *b, struct statv *v, size_t cap)
{
	size_t i;

	v->n = 0;
	v->cap = cap;
	v->s = pb_alloc(b, cap * sizeof(*v->s));
	v->ptrs = pb_alloc(b, cap * sizeof(*v->ptrs));
	if (!v->s || !v->ptrs)
		return -1;
	for (i = 0; i < cap; i++)
		v->ptrs[i] = &v->s[i];
	return 0;
}

static XStat *statv_add(struct pbuild *b, struct statv *v, const char *name)
{
	XStat *s;

	if (v->n == v->cap)
		return NULL;
	s = &v->s[v->n];
	tensorflow__profiler__xstat__init(s);
	s->metadata_id = pb_stat_id(b, name);
	v->n++;
	return s;
}

static void statv_u64(struct pbuild *b, struct statv *v, const char *name, uint64_t x)
{
	XStat *s = statv_add(b, v, name);

	if (s) {
		s->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_UINT64_VALUE;
		s->uint64_value = x;
	}
}

static void statv_i64(struct pbuild *b, struct statv *v, const char *name, int64_t x)
{
	XStat *s = statv_add(b, v, name);

	if (s) {
		s->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE;
		s->int64_value = x;
	}
}

static void statv_strn(struct pbuild *b, struct statv *v, const char *name, const char *x, size_t len)
{
	XStat *s = statv_add(b, v, name);

	if (s) {
		s->value_case = TENSORFLOW__PROFILER__XSTAT__VALUE_STR_VALUE;
		s->str_value = pb_strn(b, x, len);
	}
}

static void statv_str(struct pbuild *b, struct statv *v, const char *name, const char *x)
{
	statv_strn(b, v, name, x, strlen(x));
}

/* Finishes the plane and appends it, as an XSpace of one plane, to the output. */
static int pb_pack(struct pbuild *b, unsigned char **out, size_t *len, size_t *cap)
{
	XSpace sp = TENSORFLOW__PROFILER__XSPACE__INIT;
	size_t need;

	if (b->nomem)
		return XP_ERR_NOMEM;
	b->p->event_metadata = b->ev;
	b->p->n_event_metadata = b->nev;
	b->p->stat_metadata = b->st;
	b->p->n_stat_metadata = b->nst;
	sp.planes = &b->p;
	sp.n_planes = 1;
	need = tensorflow__profiler__xspace__get_packed_size(&sp);
	if (*len + need > *cap) {
		size_t nc = *cap ? *cap : 1 << 16;
		unsigned char *nb;

		while (nc < *len + need)
			nc *= 2;
		nb = realloc(*out, nc);
		if (!nb)
			return XP_ERR_NOMEM;
		*out = nb;
		*cap = nc;
	}
	*len += tensorflow__profiler__xspace__pack(&sp, *out + *len);
	return 0;
}

/* --- one process ---------------------------------------------------------------------- */

struct nvrange {
	uint32_t thread;
	uint64_t start, end;
	uint64_t max_end;	/* the largest end among this and earlier ranges of the thread */
	const char *name, *domain;
	int instant;
};

/* A device activity by (device, stream, start). */
struct devref {
	uint32_t device, stream;
	uint64_t start, end;
	uint8_t type;		/* enum act_type */
	uint32_t idx;
};

enum act_type { ACT_KERNEL, ACT_MEMCPY, ACT_MEMSET };

/* Line type bits, in the order their names are listed. */
static const char *const type_names[] = {
	"Compute", "MemcpyH2D", "MemcpyD2H", "MemcpyD2D", "MemcpyP2P", "MemcpyOther", "Memset",
};

static const char *const mem_kind_names[CAP_MEM_KINDS] = {
	"unknown", "pageable", "pinned", "device", "array", "managed", "device_static", "managed_static",
};

struct proc {
	const struct cap_file *f;
	uint64_t base;		/* CUPTI ns at offset 0 */
	int64_t wall_ns;	/* every line's timestamp_ns */
	uint64_t corr_tag;
	char suffix[32];
	uint32_t *api_by_corr;	/* api indexes by correlation id, the one the join uses first */
	uint8_t *api_first;	/* [api index]: the join's record of its correlation id */
	struct nvrange *ranges;	/* by (thread, start) */
	size_t nranges, unterminated;
	struct devref *refs;
	size_t nrefs;
	size_t annotated;
	size_t untimed[3];	/* device activities without timestamps, by enum act_type */
	size_t untimed_apis, untimed_markers;
	size_t kept[3];		/* device activities kept, by enum act_type */
	size_t unlaunched[3];	/* of those, without an API record of their correlation id */
	size_t outside_range;	/* NVTX ranges outside every cudaProfilerStart/Stop range */
};

static const struct cap_file *sort_file;

/* Of the API records of one correlation id, the one the join uses: timed, a driver call, an internal launch, a runtime call. */
static int api_rank(const struct cap_api *a)
{
	static const int rank[CAP_API_KINDS] = {[CAP_API_DRIVER] = 0, [CAP_API_INTERNAL] = 1, [CAP_API_RUNTIME] = 2};

	return (a->start ? 0 : 4) + (a->kind < CAP_API_KINDS ? rank[a->kind] : 3);
}

static int cmp_api_corr(const void *a, const void *b)
{
	const struct cap_api *x = &sort_file->apis[*(const uint32_t *)a];
	const struct cap_api *y = &sort_file->apis[*(const uint32_t *)b];
	int c;

	if ((c = xp_cmp_u64(x->correlation, y->correlation)) || (c = xp_cmp_i64(api_rank(x), api_rank(y))))
		return c;
	return xp_cmp_u64(*(const uint32_t *)a, *(const uint32_t *)b);
}

static int cmp_range(const void *a, const void *b)
{
	const struct nvrange *x = a, *y = b;
	int c;

	if ((c = xp_cmp_u64(x->thread, y->thread)) || (c = xp_cmp_u64(x->start, y->start)))
		return c;
	/* an outer range (ending later) before an inner one starting at the same time */
	return xp_cmp_u64(y->end, x->end);
}

static int cmp_devref(const void *a, const void *b)
{
	const struct devref *x = a, *y = b;
	int c;

	if ((c = xp_cmp_u64(x->device, y->device)) || (c = xp_cmp_u64(x->stream, y->stream)) ||
	    (c = xp_cmp_u64(x->start, y->start)) || (c = xp_cmp_u64(x->end, y->end)) ||
	    (c = xp_cmp_u64(x->type, y->type)))
		return c;
	return xp_cmp_u64(x->idx, y->idx);
}

/* A range end's marker id, as wide as the radix sort's key, and its position. */
struct marker_ref {
	uint64_t id;
	uint32_t idx;
};

struct span {
	uint64_t on, off;
};

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	return x->on < y->on ? -1 : x->on > y->on;
}

/*
 * The times recording was on with --capture-range (from each
 * cudaProfilerStart to the next stop, or to the file's last record),
 * sorted and merged; *n = 0 without --capture-range. NULL: out of memory.
 */
static struct span *recording_spans(const struct cap_file *f, size_t *n)
{
	struct span *sp = malloc((f->nranges + 1) * sizeof(*sp));
	size_t i, k = 0, m = 0;

	*n = 0;
	if (!sp || !(f->header.flags & CAP_F_RANGE))
		return sp;
	for (i = 0; i < f->nranges; i++) {
		if (!f->ranges[i].start)
			continue;
		sp[k].on = f->ranges[i].ts;
		sp[k].off = f->last_ts;
		for (; i + 1 < f->nranges && f->ranges[i + 1].start; i++)
			;	/* a start while on changes nothing */
		if (i + 1 < f->nranges)
			sp[k].off = f->ranges[++i].ts;
		k++;
	}
	qsort(sp, k, sizeof(*sp), cmp_span);
	for (i = 0; i < k; i++) {
		if (m && sp[i].on <= sp[m - 1].off) {
			if (sp[i].off > sp[m - 1].off)
				sp[m - 1].off = sp[i].off;
		} else {
			sp[m++] = sp[i];
		}
	}
	*n = m;
	return sp;
}

/* Whether [start, end] meets a recording span (always, without --capture-range). */
static int in_recording(const struct cap_file *f, const struct span *sp, size_t n, uint64_t start, uint64_t end)
{
	size_t lo = 0, hi = n;

	if (!(f->header.flags & CAP_F_RANGE))
		return 1;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (sp[mid].on <= end)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo > 0 && sp[lo - 1].off >= start;
}

/*
 * Pairs range starts with their ends (by marker id) into ranges; instants
 * are ranges of length 0. With --capture-range, ranges outside every
 * recording range are left out.
 */
static int build_ranges(struct proc *pr)
{
	const struct cap_file *f = pr->f;
	struct marker_ref *ends = malloc((f->nmarkers + 1) * sizeof(*ends));
	size_t i, nends = 0, nspans;
	struct span *spans = recording_spans(f, &nspans);

	pr->ranges = malloc((f->nmarkers + 1) * sizeof(*pr->ranges));
	if (!ends || !pr->ranges || !spans) {
		free(ends);
		free(spans);
		return XP_ERR_NOMEM;
	}
	for (i = 0; i < f->nmarkers; i++) {
		if (f->markers[i].flags & CAP_MARK_END) {
			ends[nends].id = f->markers[i].id;
			ends[nends].idx = (uint32_t)i;
			nends++;
		}
	}
	/* stably by id: ends of one id in the order they were recorded */
	if (xp_sort_by_u64(ends, nends, sizeof(*ends), offsetof(struct marker_ref, id))) {
		free(ends);
		free(spans);
		return XP_ERR_NOMEM;
	}
	for (i = 0; i < f->nmarkers; i++) {
		const struct cap_marker *m = &f->markers[i];
		struct nvrange *r;
		int unterminated = 0;

		if (!(m->flags & (CAP_MARK_START | CAP_MARK_INSTANT)))
			continue;
		if (!m->ts) {
			pr->untimed_markers++;
			continue;
		}
		r = &pr->ranges[pr->nranges++];
		r->thread = m->thread;
		r->start = m->ts;
		r->name = m->name ? m->name : "";
		r->domain = m->domain;
		r->instant = !(m->flags & CAP_MARK_START);
		r->end = m->ts;
		if (!r->instant) {
			size_t lo = 0, hi = nends;

			while (lo < hi) {
				size_t mid = lo + (hi - lo) / 2;

				if (ends[mid].id < m->id)
					lo = mid + 1;
				else
					hi = mid;
			}
			/* the first end with this id that is not before the start */
			while (lo < nends && ends[lo].id == m->id && f->markers[ends[lo].idx].ts < m->ts)
				lo++;
			if (lo < nends && ends[lo].id == m->id) {
				r->end = f->markers[ends[lo].idx].ts;
			} else {
				r->end = f->last_ts > m->ts ? f->last_ts : m->ts;
				unterminated = 1;
			}
		}
		if (!in_recording(f, spans, nspans, r->start, r->end)) {
			/* NVTX is recorded from the start, so that names registered early are known */
			pr->nranges--;
			pr->outside_range++;
			continue;
		}
		pr->unterminated += unterminated;
	}
	free(ends);
	free(spans);
	qsort(pr->ranges, pr->nranges, sizeof(*pr->ranges), cmp_range);
	for (i = 0; i < pr->nranges; i++) {
		struct nvrange *r = &pr->ranges[i];

		r->max_end = r->end;
		if (i && r[-1].thread == r->thread && r[-1].max_end > r->max_end)
			r->max_end = r[-1].max_end;
	}
	return 0;
}

/* The API call with this correlation id, or NULL. */
static const struct cap_api *find_api(const struct proc *pr, uint32_t corr)
{
	const struct cap_file *f = pr->f;
	size_t lo = 0, hi = f->napis;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->apis[pr->api_by_corr[mid]].correlation < corr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < f->napis && f->apis[pr->api_by_corr[lo]].correlation == corr)
		return &f->apis[pr->api_by_corr[lo]];
	return NULL;
}

struct kv {
	const char *k, *v;
	size_t kl, vl;
};

/* Adds the "#k=v,k=v#" pairs of name whose keys are not yet in kv; returns the new count. */
static size_t parse_annotation(const char *name, struct kv *kv, size_t n)
{
	const char *a = strchr(name, '#'), *z, *p;

	if (!a || !(z = strrchr(name, '#')) || z == a)
		return n;
	for (p = a + 1; p < z && n < MAX_ANNOTATIONS;) {
		const char *comma = memchr(p, ',', (size_t)(z - p)), *end = comma ? comma : z;
		const char *eq = memchr(p, '=', (size_t)(end - p));
		size_t i;

		if (eq && eq > p) {
			for (i = 0; i < n; i++)
				if (kv[i].kl == (size_t)(eq - p) && !memcmp(kv[i].k, p, kv[i].kl))
					break;
			if (i == n) {
				kv[n].k = p;
				kv[n].kl = (size_t)(eq - p);
				kv[n].v = eq + 1;
				kv[n].vl = (size_t)(end - eq - 1);
				n++;
			}
		}
		p = end + 1;
	}
	return n;
}

/* The annotations of the ranges open on thread at t, innermost first. */
static size_t join(const struct proc *pr, uint32_t thread, uint64_t t, struct kv *kv)
{
	size_t lo = 0, hi = pr->nranges, i, n = 0;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct nvrange *r = &pr->ranges[mid];

		if (r->thread < thread || (r->thread == thread && r->start <= t))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (i = lo; i-- > 0;) {
		const struct nvrange *r = &pr->ranges[i];

		if (r->thread != thread || r->max_end < t)
			break;
		if (!r->instant && r->start <= t && t <= r->end)
			n = parse_annotation(r->name, kv, n);
	}
	return n;
}

static int all_digits(const char *s, size_t n)
{
	size_t i = (n && s[0] == '-') ? 1 : 0;

	if (i == n || n - i > 18)
		return 0;
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static void add_kv_stats(struct pbuild *b, struct statv *v, const struct kv *kv, size_t n)
{
	char key[128];
	size_t i;

	for (i = 0; i < n; i++) {
		size_t kl = kv[i].kl < sizeof(key) - 1 ? kv[i].kl : sizeof(key) - 1;

		memcpy(key, kv[i].k, kl);
		key[kl] = 0;
		if (all_digits(kv[i].v, kv[i].vl)) {
			char num[24];

			memcpy(num, kv[i].v, kv[i].vl);
			num[kv[i].vl] = 0;
			statv_i64(b, v, key, strtoll(num, NULL, 10));
		} else {
			statv_strn(b, v, key, kv[i].v, kv[i].vl);
		}
	}
}

static int64_t ps_of(const struct proc *pr, uint64_t ts)
{
	return (int64_t)(ts - pr->base) * 1000;
}

static const struct cap_device *find_device(const struct cap_file *f, uint32_t id)
{
	size_t i;

	for (i = 0; i < f->ndevices; i++)
		if (f->devices[i].id == id)
			return &f->devices[i];
	return NULL;
}

static unsigned type_bit(const struct proc *pr, const struct devref *r)
{
	if (r->type == ACT_KERNEL)
		return 1u << 0;
	if (r->type == ACT_MEMSET)
		return 1u << 6;
	switch (pr->f->memcpys[r->idx].kind) {
	case CAP_COPY_H2D: return 1u << 1;
	case CAP_COPY_D2H: return 1u << 2;
	case CAP_COPY_D2D: return 1u << 3;
	case CAP_COPY_P2P: return 1u << 4;
	default: return 1u << 5;
	}
}

/* One device event: name, time and stats. */
static int device_event(struct pbuild *b, struct proc *pr, const struct cap_device *dev,
			const struct devref *r, XEvent *e)
{
	const struct cap_file *f = pr->f;
	struct kv kv[MAX_ANNOTATIONS];
	const struct cap_api *api;
	struct statv v;
	char details[256];
	const char *name;
	uint32_t corr, ctx, graph;
	uint64_t node;
	size_t nkv = 0, i;

	if (r->type == ACT_KERNEL) {
		const struct cap_kernel *k = &f->kernels[r->idx];

		name = k->demangled && *k->demangled ? k->demangled : k->name && *k->name ? k->name : "Kernel";
		corr = k->correlation, ctx = k->context, graph = k->graph_id, node = k->graph_node_id;
		snprintf(details, sizeof(details),
			 "regs:%u static_shared:%u dynamic_shared:%u grid:%d,%d,%d block:%d,%d,%d occ_pct:%g",
			 k->regs, k->static_shmem, k->dynamic_shmem, k->grid[0], k->grid[1], k->grid[2],
			 k->block[0], k->block[1], k->block[2], cap_occupancy_pct(dev, k));
	} else if (r->type == ACT_MEMCPY) {
		const struct cap_memcpy *m = &f->memcpys[r->idx];
		static const char *const names[CAP_COPY_KINDS] = {
			"MemcpyOther", "MemcpyH2D", "MemcpyD2H", "MemcpyD2D", "MemcpyP2P",
		};

		name = names[m->kind];
		corr = m->correlation, ctx = m->context, graph = m->graph_id, node = m->graph_node_id;
		snprintf(details, sizeof(details), "kind_src:%s kind_dst:%s size:%" PRIu64 " dest:%u async:%u",
			 mem_kind_names[m->src_kind], mem_kind_names[m->dst_kind], m->bytes, m->dst_device,
			 m->async);
	} else {
		const struct cap_memset *m = &f->memsets[r->idx];

		name = "Memset";
		corr = m->correlation, ctx = m->context, graph = m->graph_id, node = m->graph_node_id;
		snprintf(details, sizeof(details), "kind:%s num_bytes:%" PRIu64 " async:%u",
			 mem_kind_names[m->mem_kind], m->bytes, m->async);
	}
	api = find_api(pr, corr);
	if (api)
		nkv = join(pr, api->thread, api->start, kv);
	else
		pr->unlaunched[r->type]++;
	for (i = 0; i < nkv; i++)
		if (kv[i].kl == 10 && !memcmp(kv[i].k, "hlo_module", 10))
			pr->annotated++;
	e->metadata_id = pb_event_id(b, name);
	e->data_case = TENSORFLOW__PROFILER__XEVENT__DATA_OFFSET_PS;
	e->offset_ps = ps_of(pr, r->start);
	e->duration_ps = (int64_t)(r->end - r->start) * 1000;
	if (statv_init(b, &v, 5 + nkv))
		return XP_ERR_NOMEM;
	statv_u64(b, &v, "correlation_id", pr->corr_tag | corr);
	statv_u64(b, &v, "context_id", ctx);
	statv_str(b, &v, r->type == ACT_KERNEL ? "kernel_details"
			 : r->type == ACT_MEMCPY ? "memcpy_details" : "memset_details", details);
	if (graph)
		statv_u64(b, &v, "cuda_graph_id", graph);
	if (node)
		statv_u64(b, &v, "cuda_graph_node_id", node);
	add_kv_stats(b, &v, kv, nkv);
	e->stats = v.ptrs;
	e->n_stats = v.n;
	return b->nomem ? XP_ERR_NOMEM : 0;
}

static void device_plane_stats(struct pbuild *b, const struct cap_device *d)
{
	struct statv v;

	if (statv_init(b, &v, 8))
		return;
	statv_str(b, &v, "device_vendor", "Nvidia");
	if (d) {
		if (d->name)
			statv_str(b, &v, "gpu_device_name", d->name);
		if (d->clock_khz)
			statv_i64(b, &v, "clock_rate", d->clock_khz);
		if (d->sm_count)
			statv_i64(b, &v, "core_count", d->sm_count);
		if (d->mem_bandwidth)
			statv_u64(b, &v, "memory_bandwidth", d->mem_bandwidth);
		if (d->mem_size)
			statv_u64(b, &v, "memory_size", d->mem_size);
		if (d->cc_major) {
			statv_i64(b, &v, "compute_cap_major", d->cc_major);
			statv_i64(b, &v, "compute_cap_minor", d->cc_minor);
		}
	}
	b->p->stats = v.ptrs;
	b->p->n_stats = v.n;
}

struct outbuf {
	unsigned char *p;
	size_t len, cap;
	int64_t next_plane_id;
};

/* The device planes of one process: a plane per device, a line per stream. */
static int device_planes(struct proc *pr, struct outbuf *o, struct cap_summary *sum)
{
	const struct cap_file *f = pr->f;
	size_t i = 0, di = 0;
	int ret = 0;

	/* devices known only from device records get a plane too, after those with work */
	while (i < pr->nrefs || di < f->ndevices) {
		uint32_t dev;
		const struct cap_device *d;
		struct pbuild b;
		char name[96];
		size_t j, nlines = 0, li;

		if (i < pr->nrefs) {
			dev = pr->refs[i].device;
		} else {
			dev = f->devices[di++].id;
			for (j = 0; j < pr->nrefs && pr->refs[j].device != dev; j++)
				;
			if (j < pr->nrefs || find_device(f, dev) != &f->devices[di - 1])
				continue;	/* had work, or a repeated record */
		}
		d = find_device(f, dev);
		snprintf(name, sizeof(name), "/device:GPU:%u%s", dev, pr->suffix);
		ret = pb_begin(&b, o->next_plane_id++, name);
		if (ret)
			goto fail;
		device_plane_stats(&b, d);
		for (j = i; j < pr->nrefs && pr->refs[j].device == dev; j++)
			if (j == i || pr->refs[j].stream != pr->refs[j - 1].stream)
				nlines++;
		b.p->lines = pb_alloc(&b, nlines * sizeof(*b.p->lines));
		if (!b.p->lines)
			goto nomem;
		for (li = 0; li < nlines; li++) {
			uint32_t stream = pr->refs[i].stream;
			size_t first = i, n, k;
			unsigned types = 0, t;
			char lname[160];
			int w;
			XLine *ln = pb_alloc(&b, sizeof(*ln));
			XEvent *evs;
			uint64_t max_end = pr->base;

			while (i < pr->nrefs && pr->refs[i].device == dev && pr->refs[i].stream == stream)
				types |= type_bit(pr, &pr->refs[i++]);
			n = i - first;
			evs = pb_alloc(&b, n * sizeof(*evs));
			if (!ln || !evs)
				goto nomem;
			tensorflow__profiler__xline__init(ln);
			ln->id = stream;
			ln->display_id = stream;
			w = snprintf(lname, sizeof(lname), "Stream #%u(", stream);
			for (t = 0; t < sizeof(type_names) / sizeof(type_names[0]); t++)
				if (types & (1u << t))
					w += snprintf(lname + w, sizeof(lname) - (size_t)w, "%s%s",
						      lname[w - 1] == '(' ? "" : ",", type_names[t]);
			snprintf(lname + w, sizeof(lname) - (size_t)w, ")");
			ln->name = pb_str(&b, lname);
			ln->timestamp_ns = pr->wall_ns;
			ln->events = pb_alloc(&b, n * sizeof(*ln->events));
			if (!ln->events)
				goto nomem;
			for (k = 0; k < n; k++) {
				const struct devref *r = &pr->refs[first + k];

				tensorflow__profiler__xevent__init(&evs[k]);
				ret = device_event(&b, pr, d, r, &evs[k]);
				if (ret)
					goto fail;
				ln->events[k] = &evs[k];
				if (r->end > max_end)
					max_end = r->end;
			}
			ln->n_events = n;
			ln->duration_ps = ps_of(pr, max_end);
			b.p->lines[li] = ln;
		}
		b.p->n_lines = nlines;
		ret = pb_pack(&b, &o->p, &o->len, &o->cap);
		pb_release(&b);
		if (ret)
			return ret;
		sum->device_planes++;
		continue;
nomem:
		ret = XP_ERR_NOMEM;
fail:
		pb_release(&b);
		return ret;
	}
	return 0;
}

static int cmp_api_thread(const void *a, const void *b)
{
	const struct cap_api *x = &sort_file->apis[*(const uint32_t *)a];
	const struct cap_api *y = &sort_file->apis[*(const uint32_t *)b];
	int c;

	if ((c = xp_cmp_u64(x->thread, y->thread)) || (c = xp_cmp_u64(x->start, y->start)))
		return c;
	return xp_cmp_u64(*(const uint32_t *)a, *(const uint32_t *)b);
}

/* "/host:CUPTI": the API calls (driver, runtime, internal launches), a line per thread. */
static int api_plane(struct proc *pr, struct outbuf *o)
{
	const struct cap_file *f = pr->f;
	uint32_t *ix = malloc((f->napis + 1) * sizeof(*ix));
	struct pbuild b;
	char name[64];
	size_t i, nlines = 0, li, n = 0;
	int ret;

	if (!ix)
		return XP_ERR_NOMEM;
	/* calls without timestamps were counted in proc_notes and are left out */
	for (i = 0; i < f->napis; i++)
		if (f->apis[i].start)
			ix[n++] = (uint32_t)i;
	sort_file = f;
	qsort(ix, n, sizeof(*ix), cmp_api_thread);
	snprintf(name, sizeof(name), "/host:CUPTI%s", pr->suffix);
	ret = pb_begin(&b, o->next_plane_id++, name);
	if (ret)
		goto out;
	for (i = 0; i < n; i++)
		if (!i || f->apis[ix[i]].thread != f->apis[ix[i - 1]].thread)
			nlines++;
	b.p->lines = pb_alloc(&b, nlines * sizeof(*b.p->lines));
	for (i = 0, li = 0; li < nlines && !b.nomem; li++) {
		uint32_t thread = f->apis[ix[i]].thread;
		size_t first = i, k;
		XLine *ln = pb_alloc(&b, sizeof(*ln));
		XEvent *evs;
		char lname[48];

		while (i < n && f->apis[ix[i]].thread == thread)
			i++;
		evs = pb_alloc(&b, (i - first) * sizeof(*evs));
		if (!ln || !evs)
			break;
		tensorflow__profiler__xline__init(ln);
		ln->id = thread;
		ln->display_id = thread;
		snprintf(lname, sizeof(lname), "Host Threads/%u", thread);
		ln->name = pb_str(&b, lname);
		ln->timestamp_ns = pr->wall_ns;
		ln->events = pb_alloc(&b, (i - first) * sizeof(*ln->events));
		if (!ln->events)
			break;
		for (k = first; k < i; k++) {
			const struct cap_api *a = &f->apis[ix[k]];
			XEvent *e = &evs[k - first];
			struct statv v;
			char cb[32];

			tensorflow__profiler__xevent__init(e);
			if (!a->name)
				snprintf(cb, sizeof(cb), "cbid %u", a->cbid);
			e->metadata_id = pb_event_id(&b, a->name ? a->name : cb);
			e->data_case = TENSORFLOW__PROFILER__XEVENT__DATA_OFFSET_PS;
			e->offset_ps = ps_of(pr, a->start);
			e->duration_ps = a->end > a->start ? (int64_t)(a->end - a->start) * 1000 : 0;
			if (statv_init(&b, &v, 1))
				break;
			/*
			 * A runtime call and the driver call inside it may share an id:
			 * only the join's record carries it, so that each device
			 * event has one launch for the host linkage.
			 */
			if (pr->api_first[ix[k]])
				statv_u64(&b, &v, "correlation_id", pr->corr_tag | a->correlation);
			e->stats = v.ptrs;
			e->n_stats = v.n;
			ln->events[k - first] = e;
		}
		ln->n_events = i - first;
		b.p->lines[li] = ln;
		b.p->n_lines = li + 1;
	}
	ret = b.nomem ? XP_ERR_NOMEM : pb_pack(&b, &o->p, &o->len, &o->cap);
out:
	pb_release(&b);
	free(ix);
	return ret;
}

/* "/host:NVTX": the NVTX ranges and marks, a line per thread. */
static int nvtx_plane(struct proc *pr, struct outbuf *o)
{
	struct pbuild b;
	char name[64];
	size_t i, nlines = 0, li;
	int ret;

	snprintf(name, sizeof(name), "/host:NVTX%s", pr->suffix);
	ret = pb_begin(&b, o->next_plane_id++, name);
	if (ret)
		goto out;
	for (i = 0; i < pr->nranges; i++)
		if (!i || pr->ranges[i].thread != pr->ranges[i - 1].thread)
			nlines++;
	b.p->lines = pb_alloc(&b, nlines * sizeof(*b.p->lines));
	for (i = 0, li = 0; li < nlines && !b.nomem; li++) {
		uint32_t thread = pr->ranges[i].thread;
		size_t first = i, k;
		XLine *ln = pb_alloc(&b, sizeof(*ln));
		XEvent *evs;
		char lname[48];

		while (i < pr->nranges && pr->ranges[i].thread == thread)
			i++;
		evs = pb_alloc(&b, (i - first) * sizeof(*evs));
		if (!ln || !evs)
			break;
		tensorflow__profiler__xline__init(ln);
		ln->id = thread;
		ln->display_id = thread;
		snprintf(lname, sizeof(lname), "Host Threads/%u/NVTX", thread);
		ln->name = pb_str(&b, lname);
		ln->timestamp_ns = pr->wall_ns;
		ln->events = pb_alloc(&b, (i - first) * sizeof(*ln->events));
		if (!ln->events)
			break;
		for (k = first; k < i; k++) {
			const struct nvrange *r = &pr->ranges[k];
			XEvent *e = &evs[k - first];
			struct kv kv[MAX_ANNOTATIONS];
			size_t nkv = parse_annotation(r->name, kv, 0), j;
			struct statv v;

			tensorflow__profiler__xevent__init(e);
			e->metadata_id = pb_event_id(&b, r->name);
			e->data_case = TENSORFLOW__PROFILER__XEVENT__DATA_OFFSET_PS;
			e->offset_ps = ps_of(pr, r->start);
			e->duration_ps = (int64_t)(r->end - r->start) * 1000;
			if (statv_init(&b, &v, nkv + 2))
				break;
			if (r->domain)
				statv_str(&b, &v, "nvtx_domain", r->domain);
			for (j = 0; j < nkv; j++)
				if (kv[j].kl == 10 && !memcmp(kv[j].k, "hlo_module", 10))
					statv_strn(&b, &v, "module_name", kv[j].v, kv[j].vl);
			add_kv_stats(&b, &v, kv, nkv);
			e->stats = v.ptrs;
			e->n_stats = v.n;
			ln->events[k - first] = e;
		}
		ln->n_events = i - first;
		b.p->lines[li] = ln;
		b.p->n_lines = li + 1;
	}
	ret = b.nomem ? XP_ERR_NOMEM : pb_pack(&b, &o->p, &o->len, &o->cap);
out:
	pb_release(&b);
	return ret;
}

static void proc_release(struct proc *pr)
{
	free(pr->api_by_corr);
	free(pr->api_first);
	free(pr->ranges);
	free(pr->refs);
}

/* Time base, the device activities in line order, the join's indexes. */
static int proc_prepare(struct proc *pr)
{
	const struct cap_file *f = pr->f;
	const struct cap_header *h = &f->header;
	size_t n = f->nkernels + f->nmemcpys + f->nmemsets, i;
	uint64_t base = h->start_ts ? h->start_ts : UINT64_MAX;
	int ret;

	pr->refs = malloc((n + 1) * sizeof(*pr->refs));
	pr->api_by_corr = malloc((f->napis + 1) * sizeof(*pr->api_by_corr));
	if (!pr->refs || !pr->api_by_corr)
		return XP_ERR_NOMEM;
#define ADD_REFS(arr, cnt, t)                                                        \
	for (i = 0; i < (cnt); i++) {                                                \
		struct devref *r = &pr->refs[pr->nrefs];                              \
		if (!(arr)[i].start || (arr)[i].end < (arr)[i].start) {              \
			pr->untimed[t]++;                                             \
			continue;                                                     \
		}                                                                     \
		pr->kept[t]++;                                                        \
		r->device = (arr)[i].device;                                          \
		r->stream = (arr)[i].stream;                                          \
		r->start = (arr)[i].start;                                            \
		r->end = (arr)[i].end;                                                \
		r->type = (t);                                                        \
		r->idx = (uint32_t)i;                                                 \
		pr->nrefs++;                                                          \
		if (r->start < base)                                                  \
			base = r->start;                                              \
	}
	ADD_REFS(f->kernels, f->nkernels, ACT_KERNEL)
	ADD_REFS(f->memcpys, f->nmemcpys, ACT_MEMCPY)
	ADD_REFS(f->memsets, f->nmemsets, ACT_MEMSET)
#undef ADD_REFS
	qsort(pr->refs, pr->nrefs, sizeof(*pr->refs), cmp_devref);
	for (i = 0; i < f->napis; i++) {
		pr->api_by_corr[i] = (uint32_t)i;
		if (!f->apis[i].start)
			pr->untimed_apis++;
		else if (f->apis[i].start < base)
			base = f->apis[i].start;
	}
	sort_file = f;
	qsort(pr->api_by_corr, f->napis, sizeof(*pr->api_by_corr), cmp_api_corr);
	pr->api_first = calloc(f->napis + 1, 1);
	if (!pr->api_first)
		return XP_ERR_NOMEM;
	for (i = 0; i < f->napis; i++)
		pr->api_first[pr->api_by_corr[i]] =
			!i || f->apis[pr->api_by_corr[i]].correlation != f->apis[pr->api_by_corr[i - 1]].correlation;
	ret = build_ranges(pr);
	if (ret)
		return ret;
	for (i = 0; i < pr->nranges; i++)
		if (pr->ranges[i].start < base)
			base = pr->ranges[i].start;
	if (base == UINT64_MAX)
		base = 0;
	pr->base = base;
	/* the wall clock at the base: the header pairs the two clocks at capture start */
	pr->wall_ns = (int64_t)h->start_wall_ns - (h->start_ts ? (int64_t)(h->start_ts - base) : 0);
	return 0;
}

static int has_records(const struct cap_file *f)
{
	return f->nkernels || f->nmemcpys || f->nmemsets || f->napis || f->nmarkers;
}

static int cmp_files(const void *a, const void *b)
{
	const struct cap_file *x = *(const struct cap_file *const *)a;
	const struct cap_file *y = *(const struct cap_file *const *)b;
	int c = xp_cmp_u64(x->header.pid, y->header.pid);

	return c ? c : xp_cmp_u64(x->header.start_ts, y->header.start_ts);
}

/* Device activities without a launch record (counted by device_planes). */
static int unlaunched_note(const struct proc *pr, struct xp_notes *notes)
{
	uint32_t pid = pr->f->header.pid;
	int r = 0;

	if (pr->unlaunched[ACT_KERNEL] + pr->unlaunched[ACT_MEMCPY] + pr->unlaunched[ACT_MEMSET])
		r |= xp_notes_add(notes, "process %u: %zu kernel%s, %zu cop%s and %zu memset%s have no launch record "
				  "(CUPTI recorded no API call of their correlation id): they carry no thread, "
				  "launch time or NVTX names, so no function is named for them", pid,
				  pr->unlaunched[ACT_KERNEL], pr->unlaunched[ACT_KERNEL] == 1 ? "" : "s",
				  pr->unlaunched[ACT_MEMCPY], pr->unlaunched[ACT_MEMCPY] == 1 ? "y" : "ies",
				  pr->unlaunched[ACT_MEMSET], pr->unlaunched[ACT_MEMSET] == 1 ? "" : "s");
	return r;
}

/* What a process's file says that the user should know. */
static int proc_notes(const struct proc *pr, struct xp_notes *notes)
{
	const struct cap_file *f = pr->f;
	unsigned pid = f->header.pid;
	size_t i, starts = 0;
	int r = 0;

	for (i = 0; i < f->nnotes; i++)
		r |= xp_notes_add(notes, "process %u: %s", pid, f->notes[i].text);
	if (!f->complete && f->header.flush_ms)
		r |= xp_notes_add(notes, "process %u: its record file has no trailer (the process was killed "
				  "or did not exit normally): its records up to then are kept; CUPTI's buffers "
				  "were flushed every %u ms, so about the last %u ms of activity before it "
				  "ended, and work still running then, is missing%s", pid, f->header.flush_ms,
				  f->header.flush_ms,
				  f->truncated_bytes ? "; a cut-off record at the end was dropped" : "");
	else if (!f->complete)
		r |= xp_notes_add(notes, "process %u: its record file has no trailer (the process was killed "
				  "or did not exit normally): its records up to then are kept, activity "
				  "CUPTI had not yet handed over is lost%s", pid,
				  f->truncated_bytes ? "; a cut-off record at the end was dropped" : "");
	if (f->dropped)
		r |= xp_notes_add(notes, "process %u: CUPTI dropped %" PRIu64 " activity record%s "
				  "(its buffers were full)", pid, f->dropped, f->dropped == 1 ? "" : "s");
	if (pr->untimed[ACT_KERNEL] + pr->untimed[ACT_MEMCPY] + pr->untimed[ACT_MEMSET])
		r |= xp_notes_add(notes, "process %u: %zu kernel%s, %zu cop%s and %zu memset%s without "
				  "timestamps (still running when the process ended, or CUPTI could not time "
				  "them): left out", pid, pr->untimed[ACT_KERNEL],
				  pr->untimed[ACT_KERNEL] == 1 ? "" : "s", pr->untimed[ACT_MEMCPY],
				  pr->untimed[ACT_MEMCPY] == 1 ? "y" : "ies", pr->untimed[ACT_MEMSET],
				  pr->untimed[ACT_MEMSET] == 1 ? "" : "s");
	if (pr->untimed_apis || pr->untimed_markers)
		r |= xp_notes_add(notes, "process %u: %zu API call%s and %zu NVTX mark%s without timestamps "
				  "(CUPTI could not time them): left out", pid, pr->untimed_apis,
				  pr->untimed_apis == 1 ? "" : "s", pr->untimed_markers,
				  pr->untimed_markers == 1 ? "" : "s");
	if (pr->unterminated)
		r |= xp_notes_add(notes, "process %u: %zu NVTX range%s had not ended when recording "
				  "stopped; they end at the last record", pid, pr->unterminated,
				  pr->unterminated == 1 ? "" : "s");
	if (f->unknown_records || f->short_records || f->bad_string_refs)
		r |= xp_notes_add(notes, "process %u: record file oddities: %zu unknown, %zu short "
				  "records skipped, %zu bad string references", pid, f->unknown_records,
				  f->short_records, f->bad_string_refs);
	for (i = 0; i < f->nranges; i++)
		starts += f->ranges[i].start;
	if ((f->header.flags & CAP_F_RANGE) && !starts && has_records(f))
		r |= xp_notes_add(notes, "process %u: recorded work but never called cudaProfilerStart", pid);
	return r ? XP_ERR_NOMEM : 0;
}

int cap_xspace(const struct cap_file *const *files, size_t n, const struct cap_convert_opts *o,
	       unsigned char **out, size_t *len, struct cap_summary *sum, struct xp_notes *notes,
	       struct xp_err *err)
{
	const struct cap_file **order = malloc((n + 1) * sizeof(*order));
	struct outbuf ob = {.next_plane_id = 1};
	XSpace sp = TENSORFLOW__PROFILER__XSPACE__INIT;
	size_t i, active = 0, k = 0, nw0 = notes->n, need;
	char *host = (char *)(o && o->hostname ? o->hostname : "");
	int ret = 0;

	*out = NULL;
	*len = 0;
	memset(sum, 0, sizeof(*sum));
	if (!order)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	memcpy(order, files, n * sizeof(*order));
	qsort(order, n, sizeof(*order), cmp_files);
	for (i = 0; i < n; i++)
		active += has_records(order[i]);
	for (i = 0; i < n && !ret; i++) {
		const struct cap_file *f = order[i];
		struct proc pr = {.f = f};

		sum->partial_files += !f->complete;
		sum->dropped += f->dropped;
		if (has_records(f)) {
			pr.corr_tag = (uint64_t)k++ << 32;
			if (active > 1)
				snprintf(pr.suffix, sizeof(pr.suffix), " (pid %u)", f->header.pid);
			sum->processes++;
		}
		ret = proc_prepare(&pr);
		if (!ret)
			ret = proc_notes(&pr, notes);
		if (!ret && (pr.nrefs || f->ndevices))
			ret = device_planes(&pr, &ob, sum);
		if (!ret)
			ret = unlaunched_note(&pr, notes);
		if (!ret && f->napis > pr.untimed_apis)
			ret = api_plane(&pr, &ob);
		if (!ret && pr.nranges)
			ret = nvtx_plane(&pr, &ob);
		sum->kernels += pr.kept[ACT_KERNEL];
		sum->memcpys += pr.kept[ACT_MEMCPY];
		sum->memsets += pr.kept[ACT_MEMSET];
		sum->api_calls += f->napis;
		sum->nvtx_ranges += pr.nranges;
		sum->annotated += pr.annotated;
		sum->skipped += pr.untimed[ACT_KERNEL] + pr.untimed[ACT_MEMCPY] + pr.untimed[ACT_MEMSET] +
				pr.untimed_apis + pr.untimed_markers;
		proc_release(&pr);
	}
	if (!ret && active > 1)
		ret = xp_notes_add(notes, "%zu processes recorded GPU work: their planes' names end in "
				   "\" (pid <pid>)\", and the correlation ids of all but the first are "
				   "offset by <index> << 32", active);
	if (ret)
		goto out;
	/* The warnings and the hostname, as one more XSpace appended to the planes. */
	sp.n_warnings = notes->n - nw0;
	sp.warnings = notes->msgs ? notes->msgs + nw0 : NULL;	/* NULL + 0 is undefined */
	if (*host) {
		sp.hostnames = &host;
		sp.n_hostnames = 1;
	}
	need = tensorflow__profiler__xspace__get_packed_size(&sp);
	if (ob.len + need + 1 > ob.cap) {
		unsigned char *nb = realloc(ob.p, ob.len + need + 1);

		if (!nb) {
			ret = XP_ERR_NOMEM;
			goto out;
		}
		ob.p = nb;
		ob.cap = ob.len + need + 1;
	}
	ob.len += tensorflow__profiler__xspace__pack(&sp, ob.p + ob.len);
out:
	free(order);
	if (ret) {
		free(ob.p);
		return xp_err_set(err, ret, "out of memory");
	}
	*out = ob.p;
	*len = ob.len;
	return 0;
}
