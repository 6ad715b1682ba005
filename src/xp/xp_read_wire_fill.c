/* SPDX-License-Identifier: Apache-2.0 */
/* The wire reader's filling pass: a plane's metadata, stats, lines and events into the model. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "xp_read_wire.h"

/* Strings are packed into chunks of this size taken from the trace's arena. */
#define STR_CHUNK (64 * 1024)

/* Events handed to xp_read_opts.line_events at a time: a buffer that stays in cache. */
#define PIECE_EVENTS 4096

/* As a plane's lines are filled, their pages are dropped this many bytes at a time. */
#define DROP_STEP ((size_t)16 << 20)

/* Copies len bytes and a NUL into the trace; NULL when out of memory. */
static char *str_copy(struct rd *r, const uint8_t *s, size_t len)
{
	char *d;

	if (len >= STR_CHUNK / 4)
		return xp_arena_strndup(r->arena, (const char *)s, len);
	if (r->str_left <= len) {
		r->str = xp_arena_alloc(r->arena, STR_CHUNK);
		r->str_left = r->str ? STR_CHUNK : 0;
		if (!r->str)
			return NULL;
	}
	d = r->str;
	memcpy(d, s, len);
	d[len] = '\0';
	r->str += len + 1;
	r->str_left -= len + 1;
	return d;
}

/* A proto string field as a C string: up to its first NUL, as protobuf-c's are. */
const char *xp_wire_name_copy(struct rd *r, const uint8_t *s, const uint8_t *e)
{
	const uint8_t *nul;

	if (!s)
		return "";
	nul = memchr(s, '\0', (size_t)(e - s));
	return str_copy(r, s, (size_t)((nul ? nul : e) - s));
}

/*
 * Drops the pages wholly inside [p, end) of a file mapping
 * (xp_read_opts.input_mapped); not under DROP_MIN bytes: a small file's
 * pages are few, and threads reading many files contend on the call.
 */
#define DROP_MIN ((size_t)1 << 20)

void xp_wire_drop_pages(const uint8_t *p, const uint8_t *end)
{
	long ps = sysconf(_SC_PAGESIZE);
	uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096;
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1), hi = (uintptr_t)end & ~(page - 1);

	if (hi > lo && hi - lo >= DROP_MIN)
		(void)madvise((void *)lo, hi - lo, MADV_DONTNEED);	/* only spares memory */
}

/*
 * A str or bytes value, copied rather than pointed into the input: a trace
 * owns every string it hands out. Zero-copy values would need the trace to
 * hold on to the input buffer.
 */
static __attribute__((noinline)) int stat_string(struct rd *r, struct xp_stat *out,
						 const uint8_t *s, const uint8_t *e)
{
	size_t len = (size_t)(e - s);

	if (out->type == XP_STAT_STR) {
		const uint8_t *nul = memchr(s, '\0', len);

		if (nul)
			len = (size_t)(nul - s);
	}
	if (len > UINT32_MAX)
		return xp_err_set(r->w.err, XP_ERR_LIMIT, "a stat value is over 4 GiB");
	out->v.s.p = str_copy(r, s, len);
	out->v.s.len = (uint32_t)len;
	return out->v.s.p ? 0 : nomem(r);
}

static inline __attribute__((always_inline)) int fill_stat(struct rd *r, const uint8_t *p,
							   const uint8_t *end, struct xp_stat *out)
{
	const uint8_t *sv = NULL;
	uint64_t slen = 0;
	int ret = decode_stat(&r->w, p, end, out, &sv, &slen);

	if (ret || (out->type != XP_STAT_STR && out->type != XP_STAT_BYTES))
		return ret;
	return stat_string(r, out, sv, sv + slen);
}

/*
 * The plane's events and stats are growing blocks (xp_arena_block_grow),
 * sized from the bytes of its lines and doubled when full: one pass over the
 * events, not a count and a fill. A plane holds at most 2^32 - 1 of each.
 */
__attribute__((noinline)) int xp_wire_grow(struct rd *r, struct xp_plane *pl, void **arr,
					    size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap;
	void *n;

	while (c < need)
		c = c < 1024 ? 1024 : c * 2;
	if (c > UINT32_MAX)
		c = UINT32_MAX;
	if (need > c)
		return xp_err_set(r->w.err, XP_ERR_LIMIT, "plane '%s' has more than 2^32 events or stats",
				  pl->name ? pl->name : "");
	/* one more: room for a sentinel, as the arena's arrays have */
	n = xp_arena_block_grow(*arr, (c + 1) * elem);
	if (!n)
		return nomem(r);
	*arr = n;
	*cap = c;
	return 0;
}

/*
 * An event's stat when the plane keeps only some (r->keep): decoded all the
 * same, counted in *missing when it names unknown metadata (as
 * xp_plane_finish counts the kept ones), and appended to the pool at *ns if
 * kept.
 */
static __attribute__((noinline)) int filter_stat(struct rd *r, const uint8_t *p,
						 const uint8_t *end, struct xp_plane *pl, size_t *ns,
						 size_t *missing)
{
	struct xp_stat st;
	const uint8_t *sv = NULL;
	uint64_t slen = 0;
	uint32_t ix;
	int ret = decode_stat(&r->w, p, end, &st, &sv, &slen);

	if (ret)
		return ret;
	ix = xp_id_find(&pl->statmeta_ix, pl->statmetas, pl->nstatmetas, sizeof(*pl->statmetas),
			st.meta_id);
	if (ix == UINT32_MAX || !r->keep || !r->keep[ix]) {
		if (ix == UINT32_MAX ||
		    (st.type == XP_STAT_REF &&
		     xp_id_find(&pl->statmeta_ix, pl->statmetas, pl->nstatmetas, sizeof(*pl->statmetas),
				(int64_t)st.v.u) == UINT32_MAX))
			(*missing)++;
		return 0;
	}
	if ((ret = room_stats(r, pl, *ns + 1)))
		return ret;
	pl->stats[(*ns)++] = st;
	if (st.type != XP_STAT_STR && st.type != XP_STAT_BYTES)
		return 0;
	return stat_string(r, &pl->stats[*ns - 1], sv, sv + slen);
}

/*
 * First sizes, from the bytes of the lines read: at most one event per 16
 * bytes and one stat per 8 (per 16 with key stats only), so that a plane
 * rarely grows; capped below the 2^32 limit, which only real growth
 * reports. Too many costs address space only, pages never touched, and is
 * given back when the plane is read (xp_arena_block_adopt); where even that
 * is refused, smaller guesses, then growth.
 */
int xp_wire_first_room(struct rd *r, struct xp_plane *pl, const struct plane_counts *c)
{
	size_t ev = c->line_bytes / 16, st = !own_in_pool(r->mode) ? 0
				       : c->line_bytes / (r->mode == XP_EVSTATS_ALL ? 8 : 16);
	int ret, shift;

	if (ev > UINT32_MAX - 1)
		ev = UINT32_MAX - 1;
	if (c->stats >= UINT32_MAX - 1)
		st = 0;		/* the metadata alone is past the limit: growth reports it */
	else if (st > UINT32_MAX - 1 - c->stats)
		st = UINT32_MAX - 1 - c->stats;

	for (shift = 0; shift <= 8; shift += 4) {
		ret = room_stats(r, pl, c->stats + (st >> shift) + 1);
		if (!ret)
			ret = room_events(r, pl, (ev >> shift) + 1);
		if (ret != XP_ERR_NOMEM)
			return ret;
		memset(r->w.err, 0, sizeof(*r->w.err));	/* nomem's message: for the last try only */
	}
	return nomem(r);
}

/* Appends a stat to the plane's pool. */
static int add_stat(struct rd *r, struct xp_plane *pl, const uint8_t *s, const uint8_t *e)
{
	int ret = room_stats(r, pl, pl->nstats + 1);

	return ret ? ret : fill_stat(r, s, e, &pl->stats[pl->nstats++]);
}

/*
 * An aggregated event (the XEvent at [p, end), num_occurrences set) into
 * the plane's aggs, its self and min durations read from its stats (which
 * the pool does not keep).
 */
static __attribute__((noinline)) int fill_agg(struct rd *r, const uint8_t *p, const uint8_t *end,
					      struct xp_plane *pl, uint32_t line, int64_t meta_id,
					      int64_t occurrences, int64_t dur)
{
	struct xp_agg *a;
	const uint8_t *s, *at;
	uint32_t f;
	unsigned wt;

	if (pl->naggs >= r->cap_aggs) {
		size_t c = r->cap_aggs < 64 ? 64 : r->cap_aggs * 2;
		void *n = c < SIZE_MAX / sizeof(*a) - 1 ? xp_arena_block_grow(pl->aggs, (c + 1) * sizeof(*a)) : NULL;

		if (!n)
			return nomem(r);
		pl->aggs = n;
		r->cap_aggs = c;
	}
	a = &pl->aggs[pl->naggs];
	memset(a, 0, sizeof(*a));
	a->meta = xp_plane_meta_index(pl, meta_id);
	if (a->meta == pl->nevmetas)
		r->counts->events_missing_metadata++;
	a->line = line;
	a->occurrences = occurrences;
	a->dur_ps = dur;
	a->self_ps = a->min_ps = -1;
	while (p < end) {	/* the bytes fill_event has checked */
		at = p;
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (p && f == 4 && wt == WT_LEN) {
			struct xp_stat st;
			const uint8_t *sv = NULL;
			uint64_t slen = 0;

			p = wire_len_field(&r->w, p, end, at, f, wt, &s);
			if (p && !decode_stat(&r->w, s, p, &st, &sv, &slen))
				xp_agg_stat(a, &r->agg_ids, &st);
		} else if (p) {
			p = wire_skip(&r->w, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	pl->naggs++;
	pl->lines[pl->nlines].naggs++;
	return 0;
}

/* An XEvent of the line into the plane, its stats first; an aggregate goes to fill_agg, one left out is counted. */
static inline int fill_event(struct rd *r, const uint8_t *p, const uint8_t *end,
			     struct xp_plane *pl, uint32_t line)
{
	struct xp_event *ev;
	const uint8_t *s, *at = p, *ev_at = p;
	size_t stats_first = pl->nstats, ns = stats_first, missing = 0, in_input = 0;
	int64_t meta_id = 0, off = 0, dur = 0;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0, occ = 0;
	uint32_t ix;
	int agg = 0, ret;

	/* Writers put fields 1, 2 and 3 first, in order: take them without the switch. */
	if (likely(p < end && *p == (1 << 3 | WT_VARINT))) {
		p = wire_varint(&r->w, p + 1, end, &v);
		meta_id = (int64_t)v;
	}
	if (likely(p && p < end && *p == (2 << 3 | WT_VARINT))) {
		p = wire_varint(&r->w, p + 1, end, &v);
		off = (int64_t)v;
	}
	if (likely(p && p < end && *p == (3 << 3 | WT_VARINT))) {
		p = wire_varint(&r->w, p + 1, end, &v);
		dur = (int64_t)v;
	}
	if (!p)
		return XP_ERR_FORMAT;
	while (p < end) {
		at = p;
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		switch (f) {
		case 1:
			p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			meta_id = (int64_t)v;
			break;
		case 2:
			p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			off = (int64_t)v;
			agg = 0;
			break;
		case 3:
			p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			dur = (int64_t)v;
			break;
		case 4:
			/* Stats go in before we know whether the event is kept. */
			p = wire_len_field(&r->w, p, end, at, f, wt, &s);
			if (!p)
				return XP_ERR_FORMAT;
			if (likely(r->mode == XP_EVSTATS_ALL)) {
				ret = room_stats(r, pl, ns + 1);
				if (!ret)
					ret = fill_stat(r, s, p, &pl->stats[ns++]);
			} else {
				/* checked and counted; with INPUT left there (r->keep is NULL) */
				ret = filter_stat(r, s, p, pl, &ns, &missing);
				in_input++;
			}
			if (ret)
				return ret;
			break;
		case 5:
			p = wire_varint_field(&r->w, p, end, at, f, wt, &occ);
			agg = 1;
			break;
		default:
			p = wire_skip(&r->w, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	if (agg)
		return fill_agg(r, ev_at, end, pl, line, meta_id, (int64_t)occ, dur);
	if ((ret = room_events(r, pl, pl->nevents + 1)))
		return ret;
	r->counts->stats_missing_metadata += missing;	/* of a kept event, as xp_plane_finish counts */
	ix = xp_plane_meta_index(pl, meta_id);
	if (ix == pl->nevmetas)
		r->counts->events_missing_metadata++;
	if (r->keep_meta && ns == stats_first && !r->keep_meta[ix]) {
		pl->lines[pl->nlines].filtered++;
		return 0;
	}
	pl->nstats = ns;
	ev = &pl->events[pl->nevents++];
	ev->start_ps = off;
	ev->dur_ps = dur;
	ev->line = line;
	ev->meta = ix;
	if (r->mode == XP_EVSTATS_INPUT) {	/* the event's bytes, for xp_event_own_stats */
		ev->stats_first = (uint32_t)(ev_at - r->plane_start);
		ev->nstats = (uint32_t)in_input;
		return 0;
	}
	ev->stats_first = (uint32_t)stats_first;
	ev->nstats = (uint32_t)(ns - stats_first);
	return 0;
}

/* The line's events read so far go to line_events; the buffer is empty again. */
static void hand_piece(struct rd *r, struct xp_plane *pl, struct xp_line *l)
{
	size_t i;

	for (i = 0; i < pl->nevents; i++) {	/* what xp_plane_finish checks of each event */
		const struct xp_event *e = &pl->events[i];
		int64_t end;

		if (e->dur_ps < 0 || __builtin_add_overflow(e->start_ps, e->dur_ps, &end)) {
			l->pieces_bad = 1;
			continue;
		}
		if (e->start_ps < l->pieces_min_start)
			l->pieces_min_start = e->start_ps;
		if (end > l->pieces_max_end)
			l->pieces_max_end = end;
	}
	if (pl->nevents)
		r->o->line_events(pl, l, pl->events, pl->nevents, r->o->plane_read_ctx);
	r->line_done += pl->nevents;
	pl->nevents = 0;
}

/* Plane (or a split plane's part) pl is read in pieces: its events go to this thread's buffer. */
int xp_wire_pieces_begin(struct rd *r, struct xp_plane *pl)
{
	if (!r->piece && !(r->piece = malloc(PIECE_EVENTS * sizeof(*r->piece))))
		return nomem(r);
	pl->events = r->piece;
	pl->nevents = 0;
	r->cap_events = PIECE_EVENTS;
	r->fixed_events = 1;	/* handed on before it fills */
	r->line_done = 0;
	return 0;
}

/* The end of pl's pieces (read or not): the buffer is not pl's. */
void xp_wire_pieces_end(struct rd *r, struct xp_plane *pl)
{
	if (pl->events == r->piece) {
		pl->events = NULL;
		pl->nevents = 0;
	}
	r->cap_events = 0;
	r->fixed_events = 0;
}

/*
 * A plane read in pieces, its lines filled: released, with every line's
 * range as a whole read would give it. More than a plane may hold: read
 * whole, for its error.
 */
int xp_wire_pieces_close(struct rd *r, struct xp_plane *pl)
{
	size_t i, n = 0;

	xp_wire_pieces_end(r, pl);
	for (i = 0; i < pl->nlines; i++) {
		pl->lines[i].first_event = n;
		n += pl->lines[i].nevents;
	}
	pl->nevents = n;
	pl->events_released = 1;
	return n >= UINT32_MAX - 1 ? XP_ERR_AGAIN : 0;
}

int xp_wire_fill_line(struct rd *r, const uint8_t *p, const uint8_t *end, struct xp_plane *pl)
{
	struct xp_line *l = &pl->lines[pl->nlines];
	const uint8_t *s, *at, *name = NULL, *name_end = NULL, *dname = NULL, *dname_end = NULL;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;
	int ret;

	l->first_event = pl->nevents;
	l->skipped = r->want && !r->want[pl->nlines];
	l->pieces_min_start = INT64_MAX;
	l->pieces_max_end = INT64_MIN;
	while (p < end) {
		at = p;
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		switch (f) {
		case 1:
			p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			l->id = (int64_t)v;
			break;
		case 2:
			p = name_end = wire_len_field(&r->w, p, end, at, f, wt, &name);
			break;
		case 3:
			p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			l->timestamp_ns = (int64_t)v;
			break;
		case 4:
			p = wire_len_field(&r->w, p, end, at, f, wt, &s);
			if (!p)
				return XP_ERR_FORMAT;
			if (l->skipped)
				break;
			ret = fill_event(r, s, p, pl, (uint32_t)(r->line_base + pl->nlines));
			if (ret)
				return ret;
			if (unlikely(r->pieces) && pl->nevents == PIECE_EVENTS)
				hand_piece(r, pl, l);
			/* A big plane's file pages go as it is read, not all at its end. */
			if (unlikely(r->dropped && (size_t)(p - r->dropped) > DROP_STEP)) {
				xp_wire_drop_pages(r->dropped, p);
				r->dropped = p;
			}
			break;
		case 9:
			p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			l->duration_ps = (int64_t)v;
			break;
		case 10:
			p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			break;
		case 11:
			p = dname_end = wire_len_field(&r->w, p, end, at, f, wt, &dname);
			break;
		default:
			p = wire_skip(&r->w, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	if (r->pieces) {
		hand_piece(r, pl, l);
		l->nevents = r->line_done;
		r->line_done = 0;
	} else {
		l->nevents = pl->nevents - l->first_event;
	}
	l->name = xp_wire_name_copy(r, name, name_end);
	l->display_name = xp_wire_name_copy(r, dname, dname_end);
	if (!l->name || !l->display_name)
		return nomem(r);
	pl->nlines++;
	return 0;
}

/* Checks a packed run of varints (XEventMetadata.child_id). */
static int check_packed_varints(struct rd *r, const uint8_t *p, const uint8_t *end)
{
	while (p < end) {
		p = wire_skip_varint(&r->w, p, end);
		if (!p)
			return XP_ERR_FORMAT;
	}
	return 0;
}

/* The strings of an XEventMetadata: the last copy of each wins. */
struct evmeta_strs {
	const uint8_t *name, *name_end, *dname, *dname_end;
};

/* One copy of a map entry's XEventMetadata value; its stats add up across copies. */
static int fill_evmeta_value(struct rd *r, const uint8_t *p, const uint8_t *end,
			     struct xp_plane *pl, struct evmeta_strs *str)
{
	const uint8_t *s, *at;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;
	int ret;

	while (p < end) {
		at = p;
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		switch (f) {
		case 1:
			p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			break;
		case 2:
			p = str->name_end = wire_len_field(&r->w, p, end, at, f, wt, &str->name);
			break;
		case 3:
			p = wire_len_field(&r->w, p, end, at, f, wt, &s);
			break;
		case 4:
			p = str->dname_end = wire_len_field(&r->w, p, end, at, f, wt, &str->dname);
			break;
		case 5:
			p = wire_len_field(&r->w, p, end, at, f, wt, &s);
			if (!p)
				return XP_ERR_FORMAT;
			ret = add_stat(r, pl, s, p);
			if (ret)
				return ret;
			break;
		case 6:
			/* child_id: packed or not, as repeated scalars may be. */
			if (wt == WT_LEN) {
				p = wire_len(&r->w, p, end, &s);
				if (p && check_packed_varints(r, s, p))
					return XP_ERR_FORMAT;
			} else {
				p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			}
			break;
		default:
			p = wire_skip(&r->w, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	return 0;
}

static int fill_evmeta_entry(struct rd *r, const uint8_t *p, const uint8_t *end,
			     struct xp_plane *pl)
{
	struct xp_evmeta *em = &pl->evmetas[pl->nevmetas];
	struct evmeta_strs str = {NULL, NULL, NULL, NULL};
	const uint8_t *s, *at;
	size_t stats_first = pl->nstats;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;
	int ret;

	while (p < end) {
		at = p;
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (f == 1) {
			p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			em->id = (int64_t)v;
		} else if (f == 2) {
			p = wire_len_field(&r->w, p, end, at, f, wt, &s);
			if (!p)
				return XP_ERR_FORMAT;
			ret = fill_evmeta_value(r, s, p, pl, &str);
			if (ret)
				return ret;
		} else {
			p = wire_skip(&r->w, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	em->name = xp_wire_name_copy(r, str.name, str.name_end);
	em->display_name = xp_wire_name_copy(r, str.dname, str.dname_end);
	if (!em->name || !em->display_name)
		return nomem(r);
	em->stats_first = (uint32_t)stats_first;
	em->nstats = (uint32_t)(pl->nstats - stats_first);
	pl->nevmetas++;
	return 0;
}

static int fill_statmeta_entry(struct rd *r, const uint8_t *p, const uint8_t *end,
			       struct xp_plane *pl)
{
	struct xp_statmeta *sm = &pl->statmetas[pl->nstatmetas];
	const uint8_t *s, *e, *at, *d, *name = NULL, *name_end = NULL;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;

	while (p < end) {
		at = p;
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (f == 1) {
			p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			sm->id = (int64_t)v;
		} else if (f == 2) {
			/* The XStatMetadata value: id 1, name 2, description 3. */
			e = p = wire_len_field(&r->w, p, end, at, f, wt, &s);
			while (p && s < e) {
				at = s;
				s = wire_tag(&r->w, s, e, &f, &wt);
				if (!s)
					return XP_ERR_FORMAT;
				if (f == 1)
					s = wire_varint_field(&r->w, s, e, at, f, wt, &v);
				else if (f == 2)
					s = name_end = wire_len_field(&r->w, s, e, at, f, wt, &name);
				else if (f == 3)
					s = wire_len_field(&r->w, s, e, at, f, wt, &d);
				else
					s = wire_skip(&r->w, s, e, wt);
				if (!s)
					return XP_ERR_FORMAT;
			}
		} else {
			p = wire_skip(&r->w, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	sm->name = xp_wire_name_copy(r, name, name_end);
	if (!sm->name)
		return nomem(r);
	pl->nstatmetas++;
	return 0;
}

/* Walk 0 of a plane: id, name, metadata; walk 1: the plane's stats; walk 2: lines. */
int xp_wire_plane_walk(struct rd *r, const uint8_t *p, const uint8_t *end, struct xp_plane *pl,
		       int walk, const uint8_t **name, const uint8_t **name_end)
{
	const uint8_t *s, *at;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;
	int ret = 0;

	while (p < end) {
		at = p;
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (f == 1) {
			p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			pl->id = (int64_t)v;
		} else if (f == 2) {
			p = *name_end = wire_len_field(&r->w, p, end, at, f, wt, name);
		} else if (f >= 3 && f <= 6) {
			p = wire_len_field(&r->w, p, end, at, f, wt, &s);
			if (!p)
				return XP_ERR_FORMAT;
			if (walk == 0 && f == 4)
				ret = fill_evmeta_entry(r, s, p, pl);
			else if (walk == 0 && f == 5)
				ret = fill_statmeta_entry(r, s, p, pl);
			else if (walk == 1 && f == 6)
				ret = add_stat(r, pl, s, p);
			else if (walk == 2 && f == 3)
				ret = xp_wire_fill_line(r, s, p, pl);
			if (ret)
				return ret;
		} else {
			p = wire_skip(&r->w, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	return 0;
}
