/* SPDX-License-Identifier: Apache-2.0 */
#include "an_memory.h"

#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_exec.h"
#include "xp_hmap.h"
#include "xp_sat.h"
#include "xp_sort.h"

/* The stats a memory event carries, looked up by name once per plane. */
enum mstat {
	M_ALLOCATOR,
	M_INDEX,
	M_ALLOCATED,
	M_RESERVED,
	M_AVAILABLE,
	M_PEAK,
	M_FRAG,
	M_REQUESTED,
	M_ABYTES,
	M_ADDR,
	M_DTYPE,
	M_TFOP,
	M_SHAPE,
	M_REGION,
	M_N
};

/* enum mstat runs as the memory keys of enum xp_key do (AN_MEM_KEYS). */
_Static_assert(XP_K_ALLOCATOR_NAME + M_REGION == XP_K_REGION_TYPE, "memory stats follow the keys' order");

/* Integer stats: M_INDEX .. M_DTYPE but M_FRAG; strings: M_TFOP .. M_REGION (and M_ALLOCATOR). */
#define NUM_FIRST M_INDEX
#define STR_FIRST M_TFOP
#define NSTR (M_N - STR_FIRST)

/* One memory event while an input is added; strings point into the trace. */
struct rec {
	int64_t t;
	uint32_t mem;
	uint32_t has;		/* 1 << enum mstat */
	int dealloc;
	uint64_t v[STR_FIRST];	/* integer values by enum mstat (M_ALLOCATOR, M_FRAG unused) */
	double frag;
	const char *name;	/* allocator_name */
	uint32_t name_len;
	const char *s[NSTR];	/* tf_op, shape, region_type */
	uint32_t slen[NSTR];
};

int an_mem_wants_host_event(const char *name)
{
	return !strcmp(name, "MemoryAllocation") || !strcmp(name, "MemoryDeallocation");
}

void an_mem_init(struct an_mem_result *r, const struct an_mem_opts *o)
{
	memset(r, 0, sizeof(*r));
	if (o)
		r->opts = *o;
	xp_arena_init(&r->arena);
}

void an_mem_release(struct an_mem_result *r)
{
	size_t i;

	for (i = 0; i < r->nrows; i++) {
		free(r->rows[i].live);
		free(r->rows[i].points);
	}
	free(r->rows);
	xp_arena_release(&r->arena);
	memset(r, 0, sizeof(*r));
}

int an_mem_merge(struct an_mem_result *dst, struct an_mem_result *src, struct xp_err *err)
{
	if (xp_reserve(&dst->rows, &dst->cap, dst->nrows, src->nrows, sizeof(*dst->rows)))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if (src->nrows)
		memcpy(dst->rows + dst->nrows, src->rows, src->nrows * sizeof(*src->rows));
	dst->nrows += src->nrows;
	src->nrows = 0;
	xp_arena_adopt(&dst->arena, &src->arena);
	dst->inputs += src->inputs;
	dst->events += src->events;
	dst->no_memory_id += src->no_memory_id;
	dst->inputs_without += src->inputs_without;
	dst->unselected += src->unselected;
	src->inputs = src->events = src->no_memory_id = src->inputs_without = src->unselected = 0;
	return 0;
}

const char *an_mem_dtype_name(int64_t v)
{
	/* tensorflow/core/framework/types.proto, DataType */
	static const char *const names[] = {
		NULL, "float", "double", "int32", "uint8", "int16", "int8", "string", "complex64", "int64",
		"bool", "qint8", "quint8", "qint32", "bfloat16", "qint16", "quint16", "uint16",
		"complex128", "half", "resource", "variant", "uint32", "uint64",
	};

	return v > 0 && v < (int64_t)(sizeof(names) / sizeof(names[0])) ? names[v] : NULL;
}

/* A byte count or address: an unsigned integer; a negative int64 is not one. */
static int stat_count(const struct xp_stat *s, uint64_t *out)
{
	if (s->type == XP_STAT_INT64 && s->v.i < 0)
		return -1;
	return xp_stat_u64(s, out);
}

static int stat_double(const struct xp_stat *s, double *out)
{
	switch (s->type) {
	case XP_STAT_DOUBLE:
		*out = s->v.d;
		return 0;
	case XP_STAT_INT64:
		*out = (double)s->v.i;
		return 0;
	case XP_STAT_UINT64:
		*out = (double)s->v.u;
		return 0;
	default:
		return -1;
	}
}

static uint32_t clamp_len(size_t len)
{
	return len > UINT32_MAX ? UINT32_MAX : (uint32_t)len;
}

/* Reads one stat into rc when it is one of ours (ix: enum mstat, M_N if not) and not read yet. */
static void rec_stat(const struct xp_plane *p, const struct xp_stat *s, int ix, struct rec *rc)
{
	const char *str;
	size_t len;
	int ok = 0;

	if (ix >= M_N || (rc->has >> ix & 1))
		return;		/* not ours, or the event's own came first */
	if (ix == M_FRAG) {
		ok = !stat_double(s, &rc->frag) && isfinite(rc->frag);	/* NaN, inf: absent */
	} else if (ix == M_ALLOCATOR || ix >= STR_FIRST) {
		str = xp_stat_str(p, s, &len);
		ok = str != NULL;
		if (ok && ix == M_ALLOCATOR) {
			rc->name = str;
			rc->name_len = clamp_len(len);
		} else if (ok) {
			rc->s[ix - STR_FIRST] = str;
			rc->slen[ix - STR_FIRST] = clamp_len(len);
		}
	} else if (ix == M_DTYPE && s->type == XP_STAT_INT64) {
		rc->v[ix] = (uint64_t)s->v.i;
		ok = 1;
	} else {
		ok = !stat_count(s, &rc->v[ix]);
	}
	if (ok)
		rc->has |= 1u << ix;
}

/* Per input: the memories by id and the events gathered. */
struct gather {
	struct rec *recs;
	size_t n, cap;
	struct xp_hmap ids;	/* memory id -> index into mems */
	struct mem_id {
		char *name;	/* the kind ('a' allocator, 'i' index), then the id shown */
		size_t len;
		int by_index;	/* named by index_on_host */
		uint64_t index;
	} *mems;
	size_t nmem, capmem;
	size_t no_id;
};

static void gather_release(struct gather *g)
{
	size_t i;

	for (i = 0; i < g->nmem; i++)
		free(g->mems[i].name);
	free(g->mems);
	free(g->recs);
	xp_hmap_release(&g->ids);
}

/* The memory index of rc (allocator name, else index on host); -1 none, -2 out of memory. */
static long memory_of(struct gather *g, const struct rec *rc)
{
	char buf[48], *key;
	size_t val = g->nmem, i;
	int got, by_name = rc->has >> M_ALLOCATOR & 1;

	/* a host has a few memories: seen ones are found without a copy of the key */
	for (i = 0; i < g->nmem && i < 64; i++) {
		const struct mem_id *m = &g->mems[i];

		if (by_name ? !m->by_index && m->len == rc->name_len && !memcmp(m->name + 1, rc->name, m->len)
			    : m->by_index && (rc->has >> M_INDEX & 1) && m->index == rc->v[M_INDEX])
			return (long)i;
	}
	/* keys say their kind first: an allocator named "index_on_host:0" is not device 0 */
	if (by_name) {
		key = malloc((size_t)rc->name_len + 2);
		if (!key)
			return -2;
		key[0] = 'a';
		memcpy(key + 1, rc->name, rc->name_len);
		key[rc->name_len + 1] = '\0';
	} else if (rc->has >> M_INDEX & 1) {
		snprintf(buf, sizeof(buf), "iindex_on_host:%" PRIu64, rc->v[M_INDEX]);
		if (!(key = strdup(buf)))
			return -2;
	} else {
		return -1;
	}
	got = xp_hmap_get_or_put(&g->ids, key, &val);
	if (got < 0 || (got == 0 && g->nmem == g->capmem &&
			xp_grow(&g->mems, &g->capmem, g->nmem, sizeof(*g->mems), 8))) {
		free(key);
		return -2;
	}
	if (got == 1) {
		free(key);
		return (long)val;
	}
	g->mems[g->nmem].name = key;
	g->mems[g->nmem].len = strlen(key) - 1;
	g->mems[g->nmem].by_index = !by_name;
	g->mems[g->nmem].index = rc->v[M_INDEX];
	return (long)g->nmem++;
}

/* Gathers the memory events of one loaded host plane; base: the input's time origin in ns. */
static int gather_plane(struct gather *g, const struct xp_plane *p, int64_t base, struct xp_err *err)
{
	int64_t shift, d;
	signed char *kind = NULL;	/* per event metadata: 0 none, 1 allocation, 2 deallocation */
	unsigned char *which = NULL;	/* per stat metadata: enum mstat or M_N */
	size_t i, j;
	int ret = 0, k;

	kind = calloc(p->nevmetas + 1, 1);
	which = malloc(p->nstatmetas + 1);
	if (!kind || !which)
		goto nomem;
	for (i = 0; i < p->nevmetas; i++) {
		const char *name = p->evmetas[i].name;

		kind[i] = !strcmp(name, "MemoryAllocation") ? 1 : !strcmp(name, "MemoryDeallocation") ? 2 : 0;
	}
	/*
	 * The stat of each name is the metadata entry the model resolved for its
	 * key (the first of that name): a second entry of the same name is
	 * another stat, which the fast reader does not keep.
	 */
	memset(which, M_N, p->nstatmetas + 1);
	for (k = 0; k < M_N; k++) {
		uint32_t ix;

		if (!p->has_key[XP_K_ALLOCATOR_NAME + k])
			continue;
		ix = xp_id_find(&p->statmeta_ix, p->statmetas, p->nstatmetas, sizeof(*p->statmetas),
				p->key_id[XP_K_ALLOCATOR_NAME + k]);
		if (ix != UINT32_MAX)
			which[ix] = (unsigned char)k;
	}
	/* room for all of the plane's at once: records are big, growth would copy them */
	for (i = 0, j = 0; i < p->nevents; i++)
		j += kind[p->events[i].meta] != 0;
	if (!j)
		goto out;
	if (__builtin_sub_overflow(p->base_ns, base, &d) || __builtin_mul_overflow(d, 1000, &shift))
		goto far;
	if (g->n + j > g->cap) {
		struct rec *nr = realloc(g->recs, (g->n + j) * sizeof(*nr));

		if (!nr)
			goto nomem;
		g->recs = nr;
		g->cap = g->n + j;
	}
	for (i = 0; i < p->nevents; i++) {
		const struct xp_event *e = &p->events[i];
		const struct xp_evmeta *m = &p->evmetas[e->meta];
		struct rec rc;
		long mem;
		uint32_t ix;

		if (!kind[e->meta])
			continue;
		memset(&rc, 0, sizeof(rc));
		rc.dealloc = kind[e->meta] == 2;
		if (__builtin_add_overflow(shift, e->start_ps, &rc.t))
			goto far;
		for (j = 0; j < e->nstats; j++) {
			const struct xp_stat *s = &p->stats[e->stats_first + j];

			ix = xp_id_find(&p->statmeta_ix, p->statmetas, p->nstatmetas, sizeof(*p->statmetas),
					s->meta_id);
			rec_stat(p, s, which[ix == UINT32_MAX ? p->nstatmetas : ix], &rc);
		}
		for (j = 0; j < m->nstats; j++) {
			const struct xp_stat *s = &p->stats[m->stats_first + j];

			ix = xp_id_find(&p->statmeta_ix, p->statmetas, p->nstatmetas, sizeof(*p->statmetas),
					s->meta_id);
			rec_stat(p, s, which[ix == UINT32_MAX ? p->nstatmetas : ix], &rc);
		}
		mem = memory_of(g, &rc);
		if (mem == -2)
			goto nomem;
		if (mem < 0) {
			g->no_id++;
			continue;
		}
		if (g->n >= UINT32_MAX) {
			ret = xp_err_set(err, XP_ERR_LIMIT, "more than 2^32 memory events in one input");
			goto out;
		}
		rc.mem = (uint32_t)mem;
		g->recs[g->n++] = rc;	/* room reserved above */
	}
	goto out;
far:
	{
		char name[256];

		xp_escape(name, sizeof(name), p->name);
		ret = xp_err_set(err, XP_ERR_LIMIT, "host plane '%s' starts too far from the input's first "
				 "host line for one picosecond timeline", name);
	}
	goto out;
nomem:
	ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
out:
	free(kind);
	free(which);
	return ret;
}

/* A record's place: by memory, then time, then file order (stable sorts on seq order). */
struct rec_key {
	int64_t mem, t;
	uint32_t seq;
};

/* Live allocations by address: open addressing over record indexes. */
#define SLOT_EMPTY UINT32_MAX
#define SLOT_GONE (UINT32_MAX - 1)

struct live_set {
	uint32_t *slot;
	size_t mask;
};

static size_t addr_hash(uint64_t a)
{
	a ^= a >> 33;
	a *= 0xff51afd7ed558ccdULL;
	a ^= a >> 33;
	return (size_t)a;
}

/* The slot holding addr, or where it would go (first free one seen). */
static size_t live_find(const struct live_set *ls, const struct rec *recs, uint64_t addr, int *found)
{
	size_t i = addr_hash(addr) & ls->mask, free_at = SIZE_MAX;

	for (;; i = (i + 1) & ls->mask) {
		uint32_t v = ls->slot[i];

		if (v == SLOT_EMPTY) {
			*found = 0;
			return free_at != SIZE_MAX ? free_at : i;
		}
		if (v == SLOT_GONE) {
			if (free_at == SIZE_MAX)
				free_at = i;
		} else if (recs[v].v[M_ADDR] == addr) {
			*found = 1;
			return i;
		}
	}
}

static char *dup_str(struct xp_arena *a, const char *s, uint32_t len)
{
	return s ? xp_arena_strndup(a, s, len) : NULL;
}

static int cmp_alloc(const void *a, const void *b)
{
	const struct an_mem_alloc *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	if (x->time_ps != y->time_ps)
		return x->time_ps < y->time_ps ? -1 : 1;
	return x->addr < y->addr ? -1 : x->addr > y->addr;	/* live ones differ */
}

/* Takes the live set at the peak: counts, and with opts.peak the list. */
static int snapshot(struct an_mem_result *r, struct an_mem_row *w, const struct live_set *ls,
		    const struct rec *recs)
{
	size_t i, k = 0;

	for (i = 0; i <= ls->mask; i++)
		if (ls->slot[i] < SLOT_GONE) {
			w->live_count++;
			w->live_bytes = xp_sat_add_u64(w->live_bytes, recs[ls->slot[i]].v[M_ABYTES]);
		}
	if (!r->opts.peak || !w->live_count)
		return 0;
	w->live = calloc(w->live_count, sizeof(*w->live));
	if (!w->live)
		return -1;
	for (i = 0; i <= ls->mask; i++) {
		const struct rec *rc;
		struct an_mem_alloc *al;

		if (ls->slot[i] >= SLOT_GONE)
			continue;
		rc = &recs[ls->slot[i]];
		al = &w->live[k++];
		al->bytes = rc->v[M_ABYTES];
		al->has_bytes = rc->has >> M_ABYTES & 1;
		al->requested = rc->v[M_REQUESTED];
		al->has_requested = rc->has >> M_REQUESTED & 1;
		al->addr = rc->v[M_ADDR];
		al->time_ps = rc->t;
		al->data_type = rc->has >> M_DTYPE & 1 ? (int64_t)rc->v[M_DTYPE] : 0;
		al->op = dup_str(&r->arena, rc->s[M_TFOP - STR_FIRST], rc->slen[M_TFOP - STR_FIRST]);
		al->shape = dup_str(&r->arena, rc->s[M_SHAPE - STR_FIRST], rc->slen[M_SHAPE - STR_FIRST]);
		al->region = dup_str(&r->arena, rc->s[M_REGION - STR_FIRST], rc->slen[M_REGION - STR_FIRST]);
		if ((rc->s[M_TFOP - STR_FIRST] && !al->op) || (rc->s[M_SHAPE - STR_FIRST] && !al->shape) ||
		    (rc->s[M_REGION - STR_FIRST] && !al->region))
			return -1;
	}
	qsort(w->live, w->live_count, sizeof(*w->live), cmp_alloc);
	return 0;
}

/* The row of one memory from its events recs[ord[0..n)], in time order. */
static int memory_row(struct an_mem_result *r, struct an_mem_row *w, const struct rec *recs, const uint32_t *ord,
		      size_t n)
{
	struct live_set ls = {0};
	size_t i, peak_at = SIZE_MAX, size = 16, k;
	uint64_t cap_min = UINT64_MAX;
	int found, ret = -1;

	w->first_ps = recs[ord[0]].t;
	w->last_ps = recs[ord[n - 1]].t;
	for (i = 0; i < n; i++) {
		const struct rec *rc = &recs[ord[i]];
		uint64_t in_use;

		if (rc->dealloc)
			w->deallocs++;
		else
			w->allocs++;
		if (!rc->dealloc && (rc->has >> M_ABYTES & 1) && rc->v[M_ABYTES] > w->largest_alloc)
			w->largest_alloc = rc->v[M_ABYTES];
		if (rc->has >> M_PEAK & 1 && (!w->has_lifetime_peak || rc->v[M_PEAK] > w->lifetime_peak)) {
			w->lifetime_peak = rc->v[M_PEAK];
			w->has_lifetime_peak = 1;
		}
		if (!(rc->has >> M_ALLOCATED & 1)) {
			w->no_state++;
			continue;
		}
		in_use = xp_sat_add_u64(rc->v[M_ALLOCATED], rc->has >> M_RESERVED & 1 ? rc->v[M_RESERVED] : 0);
		w->last_in_use = in_use;
		if (rc->has >> M_AVAILABLE & 1) {
			uint64_t cap = xp_sat_add_u64(in_use, rc->v[M_AVAILABLE]);

			if (cap > w->capacity)
				w->capacity = cap;
			if (cap < cap_min)
				cap_min = cap;
		}
		if (!w->has_peak || in_use > w->peak_in_use) {
			w->has_peak = 1;
			w->peak_in_use = in_use;
			w->peak_allocated = rc->v[M_ALLOCATED];
			w->peak_reserved = rc->has >> M_RESERVED & 1 ? rc->v[M_RESERVED] : 0;
			w->peak_time_ps = rc->t;
			w->has_fragmentation = rc->has >> M_FRAG & 1;
			w->peak_fragmentation = w->has_fragmentation ? rc->frag : 0;
			peak_at = i;
		}
	}
	w->capacity_varies = w->capacity && cap_min != w->capacity;
	if (r->opts.timeline && n - w->no_state) {
		w->points = calloc(n - w->no_state, sizeof(*w->points));
		if (!w->points)
			goto out;
		for (i = 0, k = 0; i < n; i++) {
			const struct rec *rc = &recs[ord[i]];
			struct an_mem_point *pt;

			if (!(rc->has >> M_ALLOCATED & 1))
				continue;
			pt = &w->points[k++];
			pt->time_ps = rc->t;
			pt->allocated = rc->v[M_ALLOCATED];
			pt->reserved = rc->has >> M_RESERVED & 1 ? rc->v[M_RESERVED] : 0;
			pt->in_use = xp_sat_add_u64(pt->allocated, pt->reserved);
			pt->bytes = rc->has >> M_ABYTES & 1 ? rc->v[M_ABYTES] : 0;
			pt->dealloc = rc->dealloc;
		}
		w->npoints = k;
	}
	/* Replays allocations by address, taking the live set at the peak. */
	while (size < 2 * (w->allocs + 1))
		size *= 2;
	ls.slot = malloc(size * sizeof(*ls.slot));
	if (!ls.slot)
		goto out;
	memset(ls.slot, 0xff, size * sizeof(*ls.slot));
	ls.mask = size - 1;
	for (i = 0; i < n; i++) {
		const struct rec *rc = &recs[ord[i]];

		if (rc->has >> M_ADDR & 1) {
			size_t at = live_find(&ls, recs, rc->v[M_ADDR], &found);

			if (rc->dealloc && found)
				ls.slot[at] = SLOT_GONE;
			else if (rc->dealloc)
				w->freed_unseen++;
			else {
				w->addr_reused += found;
				ls.slot[at] = ord[i];
			}
		}
		if (i == peak_at && snapshot(r, w, &ls, recs))
			goto out;
	}
	if (w->has_peak && w->peak_allocated > w->live_bytes)
		w->unexplained_bytes = w->peak_allocated - w->live_bytes;
	ret = 0;
out:
	free(ls.slot);
	return ret;
}

static int cmp_row(const void *a, const void *b)
{
	const struct an_mem_row *x = a, *y = b;

	if (x->peak_in_use != y->peak_in_use)
		return x->peak_in_use > y->peak_in_use ? -1 : 1;
	if (strcmp(x->memory_id, y->memory_id))
		return strcmp(x->memory_id, y->memory_id);
	return x->by_index - y->by_index;
}

int an_mem_add(struct an_mem_result *r, const struct xp_trace *t, const char *input, struct xp_err *err)
{
	struct gather g = {0};
	struct rec_key *keys = NULL;
	uint32_t *ord = NULL;
	int64_t base = INT64_MAX;
	size_t i, first_row = r->nrows, before = r->events;
	const char *in_copy;
	int ret = 0;

	r->inputs++;
	/* The origin: the earliest host line with events, those the reader left out included. */
	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p = &t->planes[i];
		size_t li;

		if (!p->loaded || strncmp(p->name, "/host:", 6))
			continue;
		for (li = 0; li < p->nlines; li++)
			if ((p->lines[li].nevents || p->lines[li].filtered) && p->lines[li].timestamp_ns < base)
				base = p->lines[li].timestamp_ns;
	}
	for (i = 0; i < t->nplanes && !ret; i++) {
		const struct xp_plane *p = &t->planes[i];

		if (p->loaded && p->nevents && !strncmp(p->name, "/host:", 6))
			ret = gather_plane(&g, p, base, err);
	}
	if (ret)
		goto out;
	r->no_memory_id += g.no_id;
	keys = malloc((g.n + 1) * sizeof(*keys));
	ord = malloc((g.n + 1) * sizeof(*ord));
	if (!keys || !ord)
		goto nomem;
	for (i = 0; i < g.n; i++) {
		keys[i].mem = g.recs[i].mem;
		keys[i].t = g.recs[i].t;
		keys[i].seq = (uint32_t)i;
	}
	if (xp_sort_by_i64(keys, g.n, sizeof(*keys), offsetof(struct rec_key, t)) ||
	    xp_sort_by_i64(keys, g.n, sizeof(*keys), offsetof(struct rec_key, mem)))
		goto nomem;
	for (i = 0; i < g.n; i++)
		ord[i] = keys[i].seq;
	in_copy = xp_arena_strndup(&r->arena, input ? input : "", input ? strlen(input) : 0);
	if (!in_copy)
		goto nomem;
	for (i = 0; i < g.n;) {
		size_t j = i;
		struct an_mem_row *w;
		const char *id = g.mems[g.recs[ord[i]].mem].name + 1;	/* after its kind */

		while (j < g.n && g.recs[ord[j]].mem == g.recs[ord[i]].mem)
			j++;
		if (r->opts.memory && !an_device_matches(id, r->opts.memory)) {
			r->unselected++;
			i = j;
			continue;
		}
		if (r->nrows == r->cap && xp_grow(&r->rows, &r->cap, r->nrows, sizeof(*r->rows), 8))
			goto nomem;
		w = &r->rows[r->nrows++];
		memset(w, 0, sizeof(*w));
		w->input = in_copy;
		w->by_index = g.mems[g.recs[ord[i]].mem].by_index;
		if (!(w->memory_id = xp_arena_strndup(&r->arena, id, strlen(id))) ||
		    memory_row(r, w, g.recs, ord + i, j - i))
			goto nomem;
		r->events += j - i;
		i = j;
	}
	if (r->nrows - first_row > 1)
		qsort(r->rows + first_row, r->nrows - first_row, sizeof(*r->rows), cmp_row);
	if (r->events == before)
		r->inputs_without++;
	goto out;
nomem:
	ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
out:
	free(keys);
	free(ord);
	gather_release(&g);
	return ret;
}
