/* SPDX-License-Identifier: Apache-2.0 */
/* The wire reader's plane: what it keeps of it, the passes over it, whole or in pieces. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xp_read_wire.h"

/* xp_read_opts.split_bytes 0: lines of more bytes than this are split among the jobs. */
#define SPLIT_BYTES_DEFAULT ((size_t)32 << 20)

/* The name of the line in p..end: a NUL-terminated copy, malloc'd; NULL when out of memory. */
static char *line_name(struct rd *r, const uint8_t *p, const uint8_t *end, int *ret)
{
	const uint8_t *at, *name = NULL, *name_end = NULL, *nul;
	uint32_t f;
	unsigned wt;
	char *out;

	*ret = 0;
	while (p < end) {
		at = p;
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (p && f == 2)
			p = name_end = wire_len_field(&r->w, p, end, at, f, wt, &name);
		else if (p)
			p = wire_skip(&r->w, p, end, wt);
		if (!p) {
			*ret = XP_ERR_FORMAT;
			return NULL;
		}
	}
	if (!name)
		name = name_end = p;
	nul = memchr(name, '\0', (size_t)(name_end - name));
	out = strndup((const char *)name, (size_t)((nul ? nul : name_end) - name));
	if (!out)
		*ret = nomem(r);
	return out;
}

/*
 * Asks want_lines which lines of the plane to read (r->want, malloc'd);
 * the plane's name is read here for it.
 */
static int pick_lines(struct rd *r, const uint8_t *start, const uint8_t *end, unsigned char **want)
{
	const uint8_t *p = start, *s, *name = NULL, *name_end = NULL, *at;
	char **names = NULL, *pname = NULL;
	size_t n = 0, cap = 0;
	uint32_t f;
	unsigned wt;
	int ret = 0;

	*want = NULL;
	while (p < end && !ret) {
		at = p;
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (p && (f == 2 || f == 3)) {
			p = wire_len_field(&r->w, p, end, at, f, wt, &s);
			if (p && f == 2) {
				name = s;
				name_end = p;
			} else if (p) {
				if (n == cap) {
					char **nn = realloc(names, (cap = cap ? 2 * cap : 16) * sizeof(*nn));

					if (!nn) {
						ret = nomem(r);
						break;
					}
					names = nn;
				}
				names[n] = line_name(r, s, p, &ret);
				n += names[n] != NULL;
			}
		} else if (p) {
			p = wire_skip(&r->w, p, end, wt);
		}
		if (!p)
			ret = XP_ERR_FORMAT;
	}
	if (!ret) {
		const uint8_t *nul = name ? memchr(name, '\0', (size_t)(name_end - name)) : NULL;

		pname = name ? strndup((const char *)name, (size_t)((nul ? nul : name_end) - name))
			     : strdup("");
		*want = malloc(n + 1);
		if (!pname || !*want) {
			ret = nomem(r);
		} else {
			memset(*want, 1, n + 1);
			r->o->want_lines(pname, (const char *const *)names, n, *want, r->o->want_ctx);
		}
	}
	xp_strv_free(names, n);
	free(pname);
	if (ret) {
		free(*want);
		*want = NULL;
	}
	return ret;
}

/*
 * r->keep_meta for a host plane that want_host_event filters: the event
 * metadata that carry a key stat or whose name it accepts (the sentinel for
 * a missing id: neither).
 */
static int keep_host_metas(struct rd *r, struct xp_plane *pl)
{
	size_t i, j;

	r->keep_meta = calloc(pl->nevmetas + 1, 1);
	if (!r->keep_meta)
		return nomem(r);
	for (i = 0; i < pl->nevmetas; i++) {
		const struct xp_evmeta *m = &pl->evmetas[i];
		uint32_t ix;

		r->keep_meta[i] = r->o->want_host_event(m->name) != 0;
		for (j = 0; j < m->nstats && !r->keep_meta[i]; j++) {
			ix = xp_id_find(&pl->statmeta_ix, pl->statmetas, pl->nstatmetas,
					sizeof(*pl->statmetas), pl->stats[m->stats_first + j].meta_id);
			r->keep_meta[i] = ix != UINT32_MAX && r->keep[ix];
		}
	}
	return 0;
}

/* r->keep for XP_EVSTATS_KEYS: the stat metadata that the keys in mask (1 << enum xp_key) name. */
static int keep_keys(struct rd *r, struct xp_plane *pl, uint32_t mask)
{
	size_t i;
	int k;

	r->keep = calloc(pl->nstatmetas + 1, 1);
	if (!r->keep)
		return nomem(r);
	for (i = 0; i < pl->nstatmetas; i++)
		for (k = 0; k < XP_KEY_COUNT; k++)
			if ((mask >> k & 1) && pl->has_key[k] && pl->key_id[k] == pl->statmetas[i].id)
				r->keep[i] = 1;
	return 0;
}

/*
 * Whether plane pl, as counted in c, is read in pieces: lines long enough
 * that their state is small beside them; no event stat kept.
 */
static int by_pieces(const struct rd *r, const struct plane_counts *c)
{
	size_t min = r->o && r->o->pieces_line_bytes ? r->o->pieces_line_bytes : XP_PIECES_LINE_BYTES;

	return r->o && r->o->line_events && r->o->plane_read && r->o->line_user_size &&
	       r->mode == XP_EVSTATS_NONE && c->lines &&
	       c->line_bytes / c->lines >= min;
}

/* Lines' state for xp_read_opts.line_events, zeroed, each in its line's user. */
static int line_users(struct rd *r, struct xp_plane *pl, size_t nlines)
{
	size_t size = (r->o->line_user_size + 15) & ~(size_t)15, i;
	char *u = size ? alloc_array(r->arena, nlines, size) : NULL;

	if (size && !u)
		return nomem(r);
	for (i = 0; i < nlines; i++)
		pl->lines[i].user = u ? u + i * size : NULL;
	return 0;
}

/*
 * Fills pl from one XPlane in the order the protobuf-c reader does, whatever
 * the order of the fields on the wire: metadata (their stats first in the
 * pool), the plane's stats, the metadata index, then lines and events.
 */
static int read_plane_as(struct rd *r, const uint8_t *start, const uint8_t *end, struct xp_plane *pl,
			 int pieces)
{
	const uint8_t *name = NULL, *name_end = NULL;
	unsigned char *want = NULL;
	struct plane_counts c;
	size_t groups, split;
	int ret, host;
	enum xp_event_stats mode = r->mode;

	/* Events count their bytes from the plane's start in 32 bits: a bigger plane keeps its stats. */
	if (r->mode == XP_EVSTATS_INPUT && (size_t)(end - start) > UINT32_MAX)
		r->mode = XP_EVSTATS_ALL;
	r->plane_start = start;

	if (r->o && r->o->want_lines) {
		ret = pick_lines(r, start, end, &want);
		if (ret)
			goto out;
		r->want = want;
	}
	ret = xp_wire_count_plane(r, start, end, &c);
	if (ret)
		goto out;
	r->cap_stats = r->cap_events = r->cap_aggs = 0;
	pl->stats = NULL;
	pl->aggs = NULL;
	pl->naggs = 0;
	r->pieces = pieces && by_pieces(r, &c);
	if (r->pieces) {
		ret = room_stats(r, pl, c.stats + 1);
		if (!ret)
			ret = xp_wire_pieces_begin(r, pl);
	} else {
		pl->events = r->spare;	/* grown from there (xp_arena_block_grow), or NULL */
		r->spare = NULL;
		ret = xp_wire_first_room(r, pl, &c);
	}
	if (ret)
		goto out;
	pl->lines = alloc_array(r->arena, c.lines, sizeof(*pl->lines));
	pl->evmetas = alloc_array(r->arena, c.evmetas, sizeof(*pl->evmetas));
	pl->statmetas = alloc_array(r->arena, c.statmetas, sizeof(*pl->statmetas));
	if (!pl->lines || !pl->evmetas || !pl->statmetas) {
		ret = nomem(r);
		goto out;
	}
	if (r->pieces && (ret = line_users(r, pl, c.lines)))
		goto out;
	ret = xp_wire_plane_walk(r, start, end, pl, 0, &name, &name_end);
	if (ret)
		goto out;
	pl->name = xp_wire_name_copy(r, name, name_end);
	if (!pl->name) {
		ret = nomem(r);
		goto out;
	}
	if (c.stats > UINT32_MAX) {
		ret = xp_err_set(r->w.err, XP_ERR_LIMIT, "plane '%s' has more than 2^32 events or stats",
				 pl->name);
		goto out;
	}
	pl->pstats_first = (uint32_t)pl->nstats;
	ret = xp_wire_plane_walk(r, start, end, pl, 1, &name, &name_end);
	if (ret)
		goto out;
	pl->npstats = (uint32_t)(pl->nstats - pl->pstats_first);
	ret = xp_plane_index_metadata(pl, r->arena, r->counts, r->w.err);
	xp_agg_stat_ids(pl, &r->agg_ids);
	host = r->mode == XP_EVSTATS_KEYS && r->o && r->o->want_host_event &&
	       !strncmp(pl->name, "/host:", 6);
	if (r->mode == XP_EVSTATS_NONE || r->mode == XP_EVSTATS_INPUT)
		pl->kept_keys = 0;	/* INPUT: xp_event_own_stats only */
	else if (r->mode == XP_EVSTATS_KEYS)
		pl->kept_keys = host ? (r->o->host_keys ? r->o->host_keys : UINT32_MAX)
			      : r->o && r->o->keys ? r->o->keys : UINT32_MAX;
	if (!ret && r->mode == XP_EVSTATS_KEYS)
		ret = keep_keys(r, pl, pl->kept_keys);
	if (!ret && host)
		ret = keep_host_metas(r, pl);
	/* The last pass over the plane's bytes: what it has read is not read again. */
	r->dropped = r->o && r->o->input_mapped && r->mode != XP_EVSTATS_INPUT ? start : NULL;
	groups = r->o && r->o->jobs > 1 ? r->o->jobs : 1;
	split = r->o && r->o->split_bytes ? r->o->split_bytes : SPLIT_BYTES_DEFAULT;
	if (groups > c.lines)
		groups = c.lines;
	if (groups > c.line_bytes / split)
		groups = c.line_bytes / split;
	if (!ret && groups > 1)
		ret = xp_wire_fill_split(r, start, end, pl, c.lines, groups);
	else if (!ret)
		ret = xp_wire_plane_walk(r, start, end, pl, 2, &name, &name_end);
	r->dropped = NULL;
	if (!ret && r->pieces)
		ret = xp_wire_pieces_close(r, pl);
	if (!ret)
		ret = xp_plane_finish(pl, r->counts, r->w.err);
	if (!ret && r->mode == XP_EVSTATS_INPUT) {
		size_t k;

		pl->stats_at = start;
		pl->stats_end = end;
		for (k = 0; k < pl->nevents; k++)
			if (pl->events[k].nstats > pl->max_own_stats)
				pl->max_own_stats = pl->events[k].nstats;
	}
	pl->loaded = !ret;
	if (!ret) {
		struct xp_event *ev = pl->events;

		/* the plane's analysis, on this thread; then its events may go */
		ret = xp_plane_read_done(pl, r->o, r->w.err);
		if (pl->events_released && ev)
			r->spare = ev;
	}
out:
	if (r->pieces)
		xp_wire_pieces_end(r, pl);
	/* The arena frees them with the trace, whether the plane was read or not. */
	if (pl->stats)
		xp_arena_block_adopt(r->arena, pl->stats, (pl->nstats + 1) * sizeof(*pl->stats));
	if (pl->events)
		xp_arena_block_adopt(r->arena, pl->events, (pl->nevents + 1) * sizeof(*pl->events));
	if (pl->aggs)
		xp_arena_block_adopt(r->arena, pl->aggs, (pl->naggs + 1) * sizeof(*pl->aggs));
	r->mode = mode;
	r->want = NULL;
	free(want);
	free(r->keep);
	free(r->keep_meta);
	r->keep = NULL;
	r->keep_meta = NULL;
	return ret;
}

/*
 * Reads plane pl, in pieces where xp_read_opts.line_events asks; a plane
 * that fails so, or whose plane_read asks (XP_ERR_AGAIN), is read again
 * whole: what was counted and said of it goes, and the whole read's
 * errors and counts are the only ones.
 */
int xp_wire_read_plane(struct rd *r, const uint8_t *start, const uint8_t *end, struct xp_plane *pl)
{
	struct xp_plane as_was = *pl;
	struct xp_read_counts counts = *r->counts;
	int ret = read_plane_as(r, start, end, pl, 1);

	if (ret && r->pieces) {
		*pl = as_was;
		*r->counts = counts;
		memset(r->w.err, 0, sizeof(*r->w.err));
		r->pieces = 0;
		ret = read_plane_as(r, start, end, pl, 0);
	}
	r->pieces = 0;
	return ret;
}

/* A plane's id and name only: all a deferred plane holds. */
int xp_wire_plane_header(struct rd *r, const uint8_t *p, const uint8_t *end, struct xp_plane *pl)
{
	const uint8_t *name = NULL, *name_end = NULL, *at;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;

	while (p < end) {
		at = p;
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (p && f == 1) {
			p = wire_varint_field(&r->w, p, end, at, f, wt, &v);
			pl->id = (int64_t)v;
		} else if (p && f == 2) {
			p = name_end = wire_len_field(&r->w, p, end, at, f, wt, &name);
		} else if (p) {
			p = wire_skip(&r->w, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	pl->name = xp_wire_name_copy(r, name, name_end);
	return pl->name ? 0 : nomem(r);
}
