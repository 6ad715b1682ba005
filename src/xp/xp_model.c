/* SPDX-License-Identifier: Apache-2.0 */
#include "xp_model.h"

#include <assert.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xp_sort.h"

static const char *const key_names[XP_KEY_COUNT] = {
	[XP_K_HLO_MODULE] = "hlo_module",
	[XP_K_PROGRAM_ID] = "program_id",
	[XP_K_RUN_ID] = "run_id",
	[XP_K_SCOPE_RANGE_ID] = "scope_range_id",
	[XP_K_CORRELATION_ID] = "correlation_id",
	[XP_K_MODULE_NAME] = "module_name",
	[XP_K_HLO_OP] = "hlo_op",
	[XP_K_KERNEL_DETAILS] = "kernel_details",
	[XP_K_MEMCPY_DETAILS] = "memcpy_details",
	[XP_K_MEMSET_DETAILS] = "memset_details",
	[XP_K_HLO_CATEGORY] = "hlo_category",
	[XP_K_FLOPS] = "flops",
	[XP_K_MODEL_FLOPS] = "model_flops",
	[XP_K_BYTES_ACCESSED] = "bytes_accessed",
	[XP_K_STEP_NUM] = "step_num",
	[XP_K_ALLOCATOR_NAME] = "allocator_name",
	[XP_K_INDEX_ON_HOST] = "index_on_host",
	[XP_K_BYTES_ALLOCATED] = "bytes_allocated",
	[XP_K_BYTES_RESERVED] = "bytes_reserved",
	[XP_K_BYTES_AVAILABLE] = "bytes_available",
	[XP_K_PEAK_BYTES_IN_USE] = "peak_bytes_in_use",
	[XP_K_FRAGMENTATION] = "fragmentation",
	[XP_K_REQUESTED_BYTES] = "requested_bytes",
	[XP_K_ALLOCATION_BYTES] = "allocation_bytes",
	[XP_K_ADDR] = "addr",
	[XP_K_DATA_TYPE] = "data_type",
	[XP_K_TF_OP] = "tf_op",
	[XP_K_SHAPE] = "shape",
	[XP_K_REGION_TYPE] = "region_type",
	[XP_K_DEVICE_ORDINAL] = "device_ordinal",
	[XP_K_ANNOTATION] = "annotation",
};
_Static_assert(XP_KEY_COUNT <= 32, "key sets are uint32_t masks");

int xp_plane_read_done(struct xp_plane *p, const struct xp_read_opts *o, struct xp_err *err)
{
	int ret;

	if (!o || !o->plane_read || p->plane_read_done_)
		return 0;
	p->plane_read_done_ = 1;
	ret = o->plane_read(p, o->plane_read_ctx, err);
	if (!ret && o->release_events) {
		p->events = NULL;	/* the reader frees them, or the arena with the trace */
		p->events_released = 1;
	}
	return ret;
}

int xp_trace_load_plane(struct xp_trace *t, size_t i, struct xp_err *err)
{
	if (t->planes[i].loaded) {
		if (t->deferred_counts_) {	/* decoded before it was asked for: counted now */
			xp_read_counts_add(&t->counts, &t->deferred_counts_[i]);
			memset(&t->deferred_counts_[i], 0, sizeof(t->deferred_counts_[i]));
		}
		return 0;
	}
	if (!t->reader_->load_plane)
		return xp_err_set(err, XP_ERR_USAGE, "plane %zu was not read", i);
	return t->reader_->load_plane(t, i, err);
}

int xp_trace_load_plane_lines(struct xp_trace *t, size_t i,
			      void (*want_lines)(const char *plane, const char *const *names, size_t n,
						 unsigned char *want, void *ctx),
			      void *ctx, struct xp_err *err)
{
	int ret;

	t->load_want_lines_ = want_lines;
	t->load_want_ctx_ = ctx;
	ret = xp_trace_load_plane(t, i, err);
	t->load_want_lines_ = NULL;
	t->load_want_ctx_ = NULL;
	return ret;
}

/* A plane as xp_trace_view_plane decoded it, and with what. */
struct xp_view {
	struct xp_plane plane;
	int (*want_host_event)(const char *name);
	uint32_t host_keys;
};

int xp_trace_view_plane(struct xp_trace *t, size_t i, int (*want_host_event)(const char *name), uint32_t host_keys,
			struct xp_plane *out, struct xp_err *err)
{
	struct xp_plane deferred = t->planes[i];
	struct xp_read_counts counts = t->counts;
	struct xp_view *v;
	int ret;

	if (deferred.loaded) {
		*out = deferred;
		return 0;
	}
	if (t->views_ && (v = t->views_[i]) && v->want_host_event == want_host_event && v->host_keys == host_keys) {
		*out = v->plane;	/* made before with this filter: the same */
		return 0;
	}
	if (!t->views_ && !(t->views_ = xp_arena_alloc(&t->arena, (t->nplanes + 1) * sizeof(*t->views_))))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if (!(v = xp_arena_alloc(&t->arena, sizeof(*v))))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	t->load_want_host_event_ = want_host_event;
	t->load_host_keys_ = host_keys;
	ret = xp_trace_load_plane(t, i, err);
	t->load_want_host_event_ = NULL;
	t->load_host_keys_ = 0;
	if (!ret) {
		*out = v->plane = t->planes[i];
		v->want_host_event = want_host_event;
		v->host_keys = host_keys;
		t->views_[i] = v;
	}
	t->planes[i] = deferred;
	t->counts = counts;
	return ret;
}

size_t xp_trace_plane_bytes(const struct xp_trace *t, size_t i)
{
	return t->reader_->plane_bytes ? t->reader_->plane_bytes(t, i) : 0;
}

void xp_trace_adopt_buf(struct xp_trace *t, void (*buf_free)(void *owner),
			int (*buf_changed)(const void *owner), void *owner)
{
	t->buf_free_ = buf_free;
	t->buf_changed_ = buf_changed;
	t->buf_owner_ = owner;
}

int xp_trace_input_changed(const struct xp_trace *t)
{
	return t && t->buf_changed_ && t->buf_changed_(t->buf_owner_);
}

void xp_trace_free(struct xp_trace *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; t->plane_user_free_ && i < t->nplanes; i++)
		if (t->planes[i].user)
			t->plane_user_free_(t->planes[i].user);
	xp_arena_release(&t->arena);
	if (t->buf_free_)
		t->buf_free_(t->buf_owner_);
	free(t);
}

/* An element's id and original position: sorted stably by id, "the last duplicate wins" holds. */
struct id_pos {
	int64_t id;
	size_t pos;
};

/*
 * Sorts n elements of size sz (each starting with an int64 id) by id and keeps
 * the last of equal ids, as a protobuf map does. Returns the new count.
 */
static size_t sort_unique_by_id(void *base, size_t n, size_t sz, size_t *dups, int *nomem)
{
	struct id_pos *ix;
	char *tmp;
	size_t i, out = 0;

	if (n < 2)
		return n;
	ix = malloc(n * sizeof(*ix));
	tmp = malloc(n * sz);
	for (i = 0; ix && i < n; i++) {
		memcpy(&ix[i].id, (char *)base + i * sz, sizeof(int64_t));
		ix[i].pos = i;
	}
	if (!ix || !tmp || xp_sort_by_i64(ix, n, sizeof(*ix), offsetof(struct id_pos, id))) {
		free(ix);
		free(tmp);
		*nomem = 1;
		return n;
	}
	for (i = 0; i < n; i++) {
		if (i + 1 < n && ix[i + 1].id == ix[i].id) {
			(*dups)++;
			continue;
		}
		memcpy(tmp + out * sz, (char *)base + ix[i].pos * sz, sz);
		out++;
	}
	memcpy(base, tmp, out * sz);
	free(ix);
	free(tmp);
	return out;
}

/*
 * A table for ids (sorted, in elements of `stride` bytes) that are dense:
 * spanning at most 4n + 1024 values. Otherwise ix->tab stays NULL (search).
 */
static int build_id_index(struct xp_id_index *ix, struct xp_arena *a, const void *base, size_t n,
			  size_t stride)
{
	int64_t lo, hi;
	uint64_t i;

	memset(ix, 0, sizeof(*ix));
	if (!n)
		return 0;
	memcpy(&lo, base, sizeof(lo));
	memcpy(&hi, (const char *)base + (n - 1) * stride, sizeof(hi));
	if ((uint64_t)hi - (uint64_t)lo > 4 * (uint64_t)n + 1024)
		return 0;
	ix->min = lo;
	ix->span = (uint64_t)hi - (uint64_t)lo + 1;
	ix->tab = xp_arena_alloc(a, ix->span * sizeof(*ix->tab));
	if (!ix->tab)
		return XP_ERR_NOMEM;
	memset(ix->tab, 0xff, ix->span * sizeof(*ix->tab));
	for (i = 0; i < n; i++) {
		int64_t id;

		memcpy(&id, (const char *)base + i * stride, sizeof(id));
		ix->tab[(uint64_t)id - (uint64_t)lo] = (uint32_t)i;
	}
	return 0;
}

int xp_plane_index_metadata(struct xp_plane *p, struct xp_arena *a, struct xp_read_counts *c,
			    struct xp_err *err)
{
	int nomem = 0;
	size_t i;
	int k;

	/* evmetas has room for the sentinel at [nevmetas], zeroed by the reader. */
	p->nevmetas = sort_unique_by_id(p->evmetas, p->nevmetas, sizeof(*p->evmetas),
					&c->duplicate_metadata, &nomem);
	p->nstatmetas = sort_unique_by_id(p->statmetas, p->nstatmetas, sizeof(*p->statmetas),
					  &c->duplicate_metadata, &nomem);
	if (nomem ||
	    build_id_index(&p->evmeta_ix, a, p->evmetas, p->nevmetas, sizeof(*p->evmetas)) ||
	    build_id_index(&p->statmeta_ix, a, p->statmetas, p->nstatmetas, sizeof(*p->statmetas)))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	memset(&p->evmetas[p->nevmetas], 0, sizeof(p->evmetas[0]));
	p->evmetas[p->nevmetas].name = "";
	p->evmetas[p->nevmetas].display_name = "";
	memset(p->has_key, 0, sizeof(p->has_key));
	p->kept_keys = UINT32_MAX;	/* a reader keeping fewer says so after */
	for (i = 0; i < p->nstatmetas; i++) {
		for (k = 0; k < XP_KEY_COUNT; k++) {
			if (!p->has_key[k] && !strcmp(p->statmetas[i].name, key_names[k])) {
				p->key_id[k] = p->statmetas[i].id;
				p->has_key[k] = 1;
			}
		}
	}
	return 0;
}

static const struct xp_statmeta *find_statmeta(const struct xp_plane *p, int64_t id)
{
	uint32_t i = xp_id_find(&p->statmeta_ix, p->statmetas, p->nstatmetas, sizeof(*p->statmetas), id);

	return i == UINT32_MAX ? NULL : &p->statmetas[i];
}

/*
 * XLA's "/host:__ScopeRangeCallStack__" (NVIDIA JAX dumps of 2026) is a
 * tree, not stats: each plane stat's metadata_id is a scope range id (as
 * device events carry in scope_range_id) and its value the parent's id,
 * so its ids are never stat metadata.
 */
#define SCOPE_RANGE_TREE "/host:__ScopeRangeCallStack__"

static void count_unknown_stats(const struct xp_plane *p, struct xp_read_counts *c)
{
	size_t i;

	if (!strcmp(p->name, SCOPE_RANGE_TREE))
		return;
	for (i = 0; i < p->nstats; i++) {
		const struct xp_stat *s = &p->stats[i];

		if (!find_statmeta(p, s->meta_id) ||
		    (s->type == XP_STAT_REF && !find_statmeta(p, (int64_t)s->v.u)))
			c->stats_missing_metadata++;
	}
}

int xp_plane_finish(struct xp_plane *p, struct xp_read_counts *c, struct xp_err *err)
{
	int have_base = 0;
	size_t i, j;

	p->base_ns = 0;
	for (i = 0; i < p->nlines; i++) {
		if (p->lines[i].nevents && (!have_base || p->lines[i].timestamp_ns < p->base_ns)) {
			p->base_ns = p->lines[i].timestamp_ns;
			have_base = 1;
		}
	}
	for (i = 0; i < p->nlines; i++) {
		const struct xp_line *l = &p->lines[i];
		int64_t delta_ns, delta_ps, reach;

		if (!l->nevents)
			continue;
		if (__builtin_sub_overflow(l->timestamp_ns, p->base_ns, &delta_ns) ||
		    __builtin_mul_overflow(delta_ns, (int64_t)1000, &delta_ps))
			return xp_err_set(err, XP_ERR_LIMIT,
					  "plane '%s': line '%s' starts too far from the plane's first line "
					  "(%" PRId64 " ns vs %" PRId64 " ns) for int64 picoseconds",
					  p->name, l->name, l->timestamp_ns, p->base_ns);
		/* read in pieces (xp_read_opts.line_events): the same checks from the line's extremes */
		if (p->events_released &&
		    (l->pieces_bad || __builtin_add_overflow(l->pieces_min_start, delta_ps, &reach) ||
		     __builtin_add_overflow(l->pieces_max_end, delta_ps, &reach)))
			return xp_err_set(err, XP_ERR_AGAIN,
					  "plane '%s': line '%s': an event with a negative duration or past the int64 "
					  "picosecond range (read whole, it is named)",
					  p->name, l->name);
		for (j = l->first_event; !p->events_released && j < l->first_event + l->nevents; j++) {
			struct xp_event *e = &p->events[j];
			int64_t end;

			if (e->dur_ps < 0)
				return xp_err_set(err, XP_ERR_FORMAT,
						  "plane '%s': line '%s': event '%s' has a negative duration (%" PRId64 " ps)",
						  p->name, l->name, xp_event_name(p, e), e->dur_ps);
			if (__builtin_add_overflow(e->start_ps, delta_ps, &e->start_ps) ||
			    __builtin_add_overflow(e->start_ps, e->dur_ps, &end))
				return xp_err_set(err, XP_ERR_LIMIT,
						  "plane '%s': line '%s': event '%s' ends past the int64 picosecond range",
						  p->name, l->name, xp_event_name(p, e));
		}
	}
	for (i = 0; i < p->naggs; i++) {
		struct xp_agg *a = &p->aggs[i];
		const char *ln = a->line < p->nlines ? p->lines[a->line].name : "";

		if (a->occurrences < 0 || a->dur_ps < 0)
			return xp_err_set(err, XP_ERR_FORMAT,
					  "plane '%s': line '%s': aggregated event '%s' has a negative %s "
					  "(%" PRId64 ")", p->name, ln, p->evmetas[a->meta].name,
					  a->occurrences < 0 ? "count of occurrences" : "duration",
					  a->occurrences < 0 ? a->occurrences : a->dur_ps);
		/* XP_AGG_UNREADABLE, or more than the total: not a duration of these */
		if (a->self_ps < -1 || a->self_ps > a->dur_ps || a->min_ps < -1 || a->min_ps > a->dur_ps) {
			a->odd = 1;
			if (a->self_ps < -1 || a->self_ps > a->dur_ps)
				a->self_ps = -1;
			if (a->min_ps < -1 || a->min_ps > a->dur_ps)
				a->min_ps = -1;
		}
	}
	c->aggregated_events += p->naggs;
	count_unknown_stats(p, c);
	return 0;
}

void xp_agg_stat_ids(const struct xp_plane *p, struct xp_agg_ids *ids)
{
	size_t i;

	memset(ids, 0, sizeof(*ids));
	for (i = 0; i < p->nstatmetas; i++) {
		const char *n = p->statmetas[i].name;

		if (!ids->has_self && n && !strcmp(n, "self_duration_ps")) {
			ids->self_id = p->statmetas[i].id;
			ids->has_self = 1;
		} else if (!ids->has_min && n && !strcmp(n, "min_duration_ps")) {
			ids->min_id = p->statmetas[i].id;
			ids->has_min = 1;
		}
	}
}

/* A stat's value as picoseconds, or XP_AGG_UNREADABLE. */
#define XP_AGG_UNREADABLE (-2)
static int64_t agg_ps(const struct xp_stat *s)
{
	uint64_t v;

	if (s->type == XP_STAT_INT64)
		return s->v.i >= 0 ? s->v.i : XP_AGG_UNREADABLE;
	if (xp_stat_u64(s, &v) || v > (uint64_t)INT64_MAX)
		return XP_AGG_UNREADABLE;
	return (int64_t)v;
}

void xp_agg_stat(struct xp_agg *a, const struct xp_agg_ids *ids, const struct xp_stat *s)
{
	if (ids->has_self && s->meta_id == ids->self_id)
		a->self_ps = agg_ps(s);
	else if (ids->has_min && s->meta_id == ids->min_id)
		a->min_ps = agg_ps(s);
}

static const struct xp_stat *find_in(const struct xp_plane *p, uint32_t first, uint32_t n, int64_t id)
{
	uint32_t i;

	for (i = 0; i < n; i++)
		if (p->stats[first + i].meta_id == id)
			return &p->stats[first + i];
	return NULL;
}

const struct xp_stat *xp_event_stat(const struct xp_plane *p, const struct xp_event *e,
				    enum xp_key k)
{
	const struct xp_stat *s;
	const struct xp_evmeta *m;

	assert(p->kept_keys >> k & 1);
	/* Not kept: the event's own would be missing, and its metadata's taken instead. */
	if (!p->has_key[k] || !(p->kept_keys >> k & 1))
		return NULL;
	s = find_in(p, e->stats_first, e->nstats, p->key_id[k]);
	if (s)
		return s;
	m = &p->evmetas[e->meta];
	return find_in(p, m->stats_first, m->nstats, p->key_id[k]);
}

const char *xp_stat_name(const struct xp_plane *p, const struct xp_stat *s)
{
	const struct xp_statmeta *m = find_statmeta(p, s->meta_id);

	return m ? m->name : "";
}

const struct xp_stat *xp_plane_stat(const struct xp_plane *p, const char *name)
{
	uint32_t i;

	for (i = 0; i < p->npstats; i++) {
		const struct xp_stat *s = &p->stats[p->pstats_first + i];

		if (!strcmp(xp_stat_name(p, s), name))
			return s;
	}
	return NULL;
}

const char *xp_stat_str(const struct xp_plane *p, const struct xp_stat *s, size_t *len)
{
	const struct xp_statmeta *m;

	switch (s->type) {
	case XP_STAT_STR:
	case XP_STAT_BYTES:
		*len = s->v.s.len;
		return s->v.s.p;
	case XP_STAT_REF:
		m = find_statmeta(p, (int64_t)s->v.u);
		if (!m)
			return NULL;
		*len = strlen(m->name);
		return m->name;
	default:
		return NULL;
	}
}

int xp_stat_u64(const struct xp_stat *s, uint64_t *out)
{
	switch (s->type) {
	case XP_STAT_UINT64:
		*out = s->v.u;
		return 0;
	case XP_STAT_INT64:
		*out = (uint64_t)s->v.i;
		return 0;
	case XP_STAT_DOUBLE:
		if (s->v.d >= 0 && s->v.d < 18446744073709551616.0 && s->v.d == floor(s->v.d)) {
			*out = (uint64_t)s->v.d;
			return 0;
		}
		return -1;
	default:
		return -1;
	}
}

/* Shortest %g form that reads back as the same double. */
static void format_double(double d, char *buf, size_t n)
{
	int prec;

	for (prec = 1; prec <= 17; prec++) {
		snprintf(buf, n, "%.*g", prec, d);
		if (strtod(buf, NULL) == d)
			return;
	}
}

void xp_stat_format(const struct xp_plane *p, const struct xp_stat *s, char *buf, size_t n)
{
	const char *str;
	size_t len;

	switch (s->type) {
	case XP_STAT_DOUBLE:
		format_double(s->v.d, buf, n);
		return;
	case XP_STAT_UINT64:
		snprintf(buf, n, "%" PRIu64, s->v.u);
		return;
	case XP_STAT_INT64:
		snprintf(buf, n, "%" PRId64, s->v.i);
		return;
	default:
		str = xp_stat_str(p, s, &len);
		if (!str) {
			snprintf(buf, n, "%s", "");
			return;
		}
		snprintf(buf, n, "%.*s", (int)(len > (size_t)INT32_MAX ? INT32_MAX : len), str);
	}
}

int xp_plane_shift(const struct xp_plane *p, int64_t base_ns, int64_t *shift_ps)
{
	int64_t d, e;
	size_t i;

	if (__builtin_sub_overflow(p->base_ns, base_ns, &d) || __builtin_mul_overflow(d, 1000, shift_ps))
		return -1;
	for (i = 0; i < p->nevents; i++)
		if (__builtin_add_overflow(p->events[i].start_ps, *shift_ps, &e) ||
		    __builtin_add_overflow(e, p->events[i].dur_ps, &e))
			return -1;
	return 0;
}
