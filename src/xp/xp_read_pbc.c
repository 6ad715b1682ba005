/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The reference reader: protobuf-c unpacks the whole XSpace, then the model is
 * copied out of it. Simple and obviously right; the speed comes from another
 * reader behind the same interface.
 */
#include <stdint.h>
#include <string.h>

#include "xp_model.h"
#include "xplane.pb-c.h"

typedef Tensorflow__Profiler__XSpace PbSpace;
typedef Tensorflow__Profiler__XPlane PbPlane;
typedef Tensorflow__Profiler__XStat PbStat;

static const char *dup_str(struct xp_trace *t, const char *s)
{
	return xp_arena_strndup(&t->arena, s ? s : "", s ? strlen(s) : 0);
}

static int copy_stat(struct xp_trace *t, const PbStat *in, struct xp_stat *out)
{
	out->meta_id = in->metadata_id;
	switch (in->value_case) {
	case TENSORFLOW__PROFILER__XSTAT__VALUE_DOUBLE_VALUE:
		out->type = XP_STAT_DOUBLE;
		out->v.d = in->double_value;
		break;
	case TENSORFLOW__PROFILER__XSTAT__VALUE_UINT64_VALUE:
		out->type = XP_STAT_UINT64;
		out->v.u = in->uint64_value;
		break;
	case TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE:
		out->type = XP_STAT_INT64;
		out->v.i = in->int64_value;
		break;
	case TENSORFLOW__PROFILER__XSTAT__VALUE_REF_VALUE:
		out->type = XP_STAT_REF;
		out->v.u = in->ref_value;
		break;
	case TENSORFLOW__PROFILER__XSTAT__VALUE_STR_VALUE:
	case TENSORFLOW__PROFILER__XSTAT__VALUE_BYTES_VALUE: {
		int is_str = in->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_STR_VALUE;
		const char *src = is_str ? in->str_value : (const char *)in->bytes_value.data;
		size_t len = is_str ? (in->str_value ? strlen(in->str_value) : 0) : in->bytes_value.len;

		if (len > UINT32_MAX)
			return XP_ERR_LIMIT;
		out->type = is_str ? XP_STAT_STR : XP_STAT_BYTES;
		out->v.s.p = xp_arena_strndup(&t->arena, src ? src : "", len);
		out->v.s.len = (uint32_t)len;
		if (!out->v.s.p)
			return XP_ERR_NOMEM;
		break;
	}
	default:
		out->type = XP_STAT_NONE;
	}
	return 0;
}

static int copy_stats(struct xp_trace *t, struct xp_plane *p, PbStat **in, size_t n,
		      uint32_t *first, uint32_t *count)
{
	size_t i;
	int ret;

	*first = (uint32_t)p->nstats;
	*count = (uint32_t)n;
	for (i = 0; i < n; i++) {
		ret = copy_stat(t, in[i], &p->stats[p->nstats++]);
		if (ret)
			return ret;
	}
	return 0;
}

static int count_plane(const PbPlane *in, size_t *nstats, size_t *nevents)
{
	size_t i, j, s = in->n_stats, e = 0;

	for (i = 0; i < in->n_event_metadata; i++)
		if (in->event_metadata[i]->value)
			s += in->event_metadata[i]->value->n_stats;
	for (i = 0; i < in->n_lines; i++) {
		e += in->lines[i]->n_events;
		for (j = 0; j < in->lines[i]->n_events; j++)
			s += in->lines[i]->events[j]->n_stats;
	}
	*nstats = s;
	*nevents = e;
	return s > UINT32_MAX || e > UINT32_MAX ? XP_ERR_LIMIT : 0;
}

static int copy_metadata(struct xp_trace *t, const PbPlane *in, struct xp_plane *p)
{
	size_t i;
	int ret;

	for (i = 0; i < in->n_stat_metadata; i++) {
		const Tensorflow__Profiler__XStatMetadata *m = in->stat_metadata[i]->value;

		p->statmetas[i].id = in->stat_metadata[i]->key;
		p->statmetas[i].name = dup_str(t, m ? m->name : NULL);
		if (!p->statmetas[i].name)
			return XP_ERR_NOMEM;
	}
	p->nstatmetas = in->n_stat_metadata;
	for (i = 0; i < in->n_event_metadata; i++) {
		const Tensorflow__Profiler__XEventMetadata *m = in->event_metadata[i]->value;
		struct xp_evmeta *em = &p->evmetas[i];

		em->id = in->event_metadata[i]->key;
		em->name = dup_str(t, m ? m->name : NULL);
		em->display_name = dup_str(t, m ? m->display_name : NULL);
		if (!em->name || !em->display_name)
			return XP_ERR_NOMEM;
		ret = copy_stats(t, p, m ? m->stats : NULL, m ? m->n_stats : 0,
				 &em->stats_first, &em->nstats);
		if (ret)
			return ret;
	}
	p->nevmetas = in->n_event_metadata;
	return 0;
}

/* An aggregated event into p's aggs (sized for all), its self and min durations from its stats. */
static void copy_agg(struct xp_trace *t, const Tensorflow__Profiler__XEvent *e, struct xp_plane *p,
		     size_t line, const struct xp_agg_ids *ids)
{
	struct xp_agg *a = &p->aggs[p->naggs++];
	size_t k;

	memset(a, 0, sizeof(*a));
	a->meta = xp_plane_meta_index(p, e->metadata_id);
	if (a->meta == p->nevmetas)
		t->counts.events_missing_metadata++;
	a->line = (uint32_t)line;
	a->occurrences = e->num_occurrences;
	a->dur_ps = e->duration_ps;
	a->self_ps = a->min_ps = -1;
	for (k = 0; k < e->n_stats; k++) {
		const PbStat *in = e->stats[k];
		struct xp_stat st = {.meta_id = in->metadata_id, .type = XP_STAT_STR};

		if (in->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_DOUBLE_VALUE) {
			st.type = XP_STAT_DOUBLE;
			st.v.d = in->double_value;
		} else if (in->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_UINT64_VALUE) {
			st.type = XP_STAT_UINT64;
			st.v.u = in->uint64_value;
		} else if (in->value_case == TENSORFLOW__PROFILER__XSTAT__VALUE_INT64_VALUE) {
			st.type = XP_STAT_INT64;
			st.v.i = in->int64_value;
		}
		xp_agg_stat(a, ids, &st);
	}
}

static int copy_lines(struct xp_trace *t, const PbPlane *in, struct xp_plane *p)
{
	struct xp_agg_ids ids[1];
	size_t i, j, naggs = 0;
	int ret;

	for (i = 0; i < in->n_lines; i++)
		for (j = 0; j < in->lines[i]->n_events; j++)
			naggs += in->lines[i]->events[j]->data_case ==
				 TENSORFLOW__PROFILER__XEVENT__DATA_NUM_OCCURRENCES;
	if (naggs && !(p->aggs = xp_arena_alloc(&t->arena, (naggs + 1) * sizeof(*p->aggs))))
		return XP_ERR_NOMEM;
	xp_agg_stat_ids(p, ids);

	for (i = 0; i < in->n_lines; i++) {
		const Tensorflow__Profiler__XLine *l = in->lines[i];
		struct xp_line *ol = &p->lines[i];

		ol->id = l->id;
		ol->name = dup_str(t, l->name);
		ol->display_name = dup_str(t, l->display_name);
		if (!ol->name || !ol->display_name)
			return XP_ERR_NOMEM;
		ol->timestamp_ns = l->timestamp_ns;
		ol->duration_ps = l->duration_ps;
		ol->first_event = p->nevents;
		for (j = 0; j < l->n_events; j++) {
			const Tensorflow__Profiler__XEvent *e = l->events[j];
			struct xp_event *oe;

			if (e->data_case == TENSORFLOW__PROFILER__XEVENT__DATA_NUM_OCCURRENCES) {
				copy_agg(t, e, p, i, ids);
				ol->naggs++;
				continue;
			}
			oe = &p->events[p->nevents++];
			oe->start_ps = e->offset_ps;
			oe->dur_ps = e->duration_ps;
			oe->line = (uint32_t)i;
			oe->meta = xp_plane_meta_index(p, e->metadata_id);
			if (oe->meta == p->nevmetas)
				t->counts.events_missing_metadata++;
			ret = copy_stats(t, p, e->stats, e->n_stats, &oe->stats_first, &oe->nstats);
			if (ret)
				return ret;
		}
		ol->nevents = p->nevents - ol->first_event;
	}
	p->nlines = in->n_lines;
	return 0;
}

static int copy_plane(struct xp_trace *t, const PbPlane *in, struct xp_plane *p, struct xp_err *err)
{
	size_t nstats, nevents;
	int ret;

	p->id = in->id;
	p->name = dup_str(t, in->name);
	ret = count_plane(in, &nstats, &nevents);
	if (ret)
		return xp_err_set(err, ret, "plane '%s' has more than 2^32 events or stats",
				  in->name ? in->name : "");
	p->stats = xp_arena_alloc(&t->arena, (nstats + 1) * sizeof(*p->stats));
	p->events = xp_arena_alloc(&t->arena, (nevents + 1) * sizeof(*p->events));
	p->lines = xp_arena_alloc(&t->arena, (in->n_lines + 1) * sizeof(*p->lines));
	p->evmetas = xp_arena_alloc(&t->arena, (in->n_event_metadata + 1) * sizeof(*p->evmetas));
	p->statmetas = xp_arena_alloc(&t->arena, (in->n_stat_metadata + 1) * sizeof(*p->statmetas));
	if (!p->name || !p->stats || !p->events || !p->lines || !p->evmetas || !p->statmetas)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	ret = copy_metadata(t, in, p);
	if (!ret)
		ret = copy_stats(t, p, in->stats, in->n_stats, &p->pstats_first, &p->npstats);
	if (!ret)
		ret = xp_plane_index_metadata(p, &t->arena, &t->counts, err);
	if (!ret)
		ret = copy_lines(t, in, p);
	if (ret)
		return xp_err_set(err, ret, ret == XP_ERR_NOMEM ? "out of memory"
				  : "plane '%s': a string is over 4 GiB", p->name);
	ret = xp_plane_finish(p, &t->counts, err);
	p->loaded = !ret;
	return ret;
}

static int copy_strings(struct xp_trace *t, char **in, size_t n, const char ***out, size_t *nout)
{
	size_t i;

	*out = xp_arena_alloc(&t->arena, (n + 1) * sizeof(**out));
	if (!*out)
		return XP_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		(*out)[i] = dup_str(t, in[i]);
		if (!(*out)[i])
			return XP_ERR_NOMEM;
	}
	*nout = n;
	return 0;
}

/* A varint at *p before end; 0 past end or 10 bytes. */
static int top_varint(const uint8_t **p, const uint8_t *end, uint64_t *v)
{
	unsigned k;

	*v = 0;
	for (k = 0; k < 10 && *p < end; k++) {
		uint8_t b = *(*p)++;

		*v |= (uint64_t)(b & 0x7f) << (7 * k);
		if (!(b & 0x80))
			return 1;
	}
	return 0;
}

/*
 * Each plane's bytes (XSpace field 1, in order), from a walk of the top
 * level of bytes protobuf-c has unpacked (so valid); NULL when out of memory.
 */
static size_t *plane_sizes(struct xp_trace *t, const uint8_t *p, size_t len, size_t nplanes)
{
	const uint8_t *end = p + len;
	size_t *v = xp_arena_alloc(&t->arena, (nplanes + 1) * sizeof(*v)), k = 0;
	uint64_t tag, n;

	if (!v)
		return NULL;
	memset(v, 0, (nplanes + 1) * sizeof(*v));
	while (p < end && top_varint(&p, end, &tag)) {
		switch (tag & 7) {
		case 0:
			if (!top_varint(&p, end, &n))
				return v;
			break;
		case 1:
			p += 8;
			break;
		case 5:
			p += 4;
			break;
		case 2:
			if (!top_varint(&p, end, &n) || n > (uint64_t)(end - p))
				return v;
			if (tag >> 3 == 1 && k < nplanes)
				v[k++] = (size_t)n;
			p += n;
			break;
		default:
			return v;	/* groups: not in an XSpace */
		}
	}
	return v;
}

static size_t pbc_plane_bytes(const struct xp_trace *t, size_t i)
{
	const size_t *v = t->lazy_;

	return v ? v[i] : 0;
}

/* Reads every plane whatever o->want_plane says: unpacking is all or nothing. */
static int pbc_read(const void *buf, size_t len, const struct xp_read_opts *o, struct xp_trace *t,
		    struct xp_err *err)
{
	PbSpace *space = tensorflow__profiler__xspace__unpack(NULL, len, buf);
	size_t i;
	int ret = 0;

	if (!space)
		return xp_err_set(err, XP_ERR_FORMAT, "not a valid XSpace protobuf");
	t->planes = xp_arena_alloc(&t->arena, (space->n_planes + 1) * sizeof(*t->planes));
	if (!t->planes) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (o->want_plane &&
	    !(t->deferred_counts_ = xp_arena_alloc(&t->arena, (space->n_planes + 1) * sizeof(*t->deferred_counts_)))) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < space->n_planes; i++) {
		struct xp_read_counts before = t->counts;

		ret = copy_plane(t, space->planes[i], &t->planes[i], err);
		if (ret)
			goto out;
		t->nplanes++;
		/* decoded, though deferred: its counts wait for the plane to be asked for */
		if (o->want_plane && !o->want_plane(t->planes[i].name, o->want_ctx)) {
			struct xp_read_counts *d = &t->deferred_counts_[i];

			d->aggregated_events = t->counts.aggregated_events - before.aggregated_events;
			d->events_missing_metadata = t->counts.events_missing_metadata - before.events_missing_metadata;
			d->stats_missing_metadata = t->counts.stats_missing_metadata - before.stats_missing_metadata;
			d->duplicate_metadata = t->counts.duplicate_metadata - before.duplicate_metadata;
			t->counts = before;
		}
	}
	/* the plane sizes the wire reader keeps, for readers of either (xp_trace_plane_bytes) */
	if (!(t->lazy_ = plane_sizes(t, buf, len, t->nplanes))) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (copy_strings(t, space->hostnames, space->n_hostnames, &t->hostnames, &t->nhostnames) ||
	    copy_strings(t, space->errors, space->n_errors, &t->errors, &t->nerrors) ||
	    copy_strings(t, space->warnings, space->n_warnings, &t->warnings, &t->nwarnings))
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
out:
	tensorflow__profiler__xspace__free_unpacked(space, NULL);
	return ret;
}

const struct xp_reader xp_reader_protobuf_c = {
	.name = "protobuf-c",
	.read = pbc_read,
	.plane_bytes = pbc_plane_bytes,
};
