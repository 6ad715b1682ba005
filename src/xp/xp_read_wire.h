/* SPDX-License-Identifier: Apache-2.0 */
/* The wire reader's own header: its state while it reads, and what its files share. */
#ifndef XP_READ_WIRE_H
#define XP_READ_WIRE_H

/* What the reader is and does: the top of xp_read_wire.c. */
#include <stdint.h>
#include <string.h>

#include "xp_model.h"
#include "xp_wire.h"

/* The reader's state on one thread. */
struct rd {
	struct xp_wire w;	/* the input, and where its faults are said */
	struct xp_arena *arena;	/* the trace's, or a thread's own until merged */
	struct xp_read_counts *counts;
	char *str;		/* free space for strings */
	size_t str_left;
	/* The plane being filled: its capacities. */
	size_t cap_stats, cap_events, cap_aggs;
	/* Its stat metadata ids an aggregated event's durations are read by. */
	struct xp_agg_ids agg_ids;
	const struct xp_read_opts *o;
	const unsigned char *want;	/* lines whose events are read; NULL: all */
	/* Of the plane being filled, per stat metadata index: keep its events' stats. */
	unsigned char *keep;
	enum xp_event_stats mode;
	/* Of a host plane being filtered (want_host_event), per event metadata index. */
	unsigned char *keep_meta;
	/* A mapped input's bytes before this were read for good (xp_read_opts.input_mapped). */
	const uint8_t *dropped;
	/* The plane's first byte: XP_EVSTATS_INPUT's events count their bytes from there. */
	const uint8_t *plane_start;
	/* A group of a split plane: the index of its first line in the plane. */
	size_t line_base;
	/* The events go to a slot of the plane's array sized beforehand: never grown. */
	int fixed_events;
	/*
	 * A plane's events block that xp_read_opts.release_events gave back,
	 * for the next plane this thread reads: its pages are not zeroed again.
	 */
	void *spare;
	/*
	 * The plane is read in pieces (xp_read_opts.line_events): its events
	 * go to piece (this thread's, reused) and on to line_events, a line's
	 * line_done so far.
	 */
	int pieces;
	struct xp_event *piece;
	size_t line_done;
	/* Threads this read's splits have started and not joined (xp_wire_fill_split; atomic). */
	unsigned *split_busy;
};

/* Whether events' own stats go to the plane's pool (else they are dropped, or left in the input). */
static inline int own_in_pool(enum xp_event_stats mode)
{
	return mode == XP_EVSTATS_ALL || mode == XP_EVSTATS_KEYS;
}

/* What the counting pass finds in one plane; lines' events are counted as they are filled. */
struct plane_counts {
	size_t lines, evmetas, statmetas;
	size_t aggregated;	/* num_occurrences events, of lines not read */
	size_t stats;		/* of metadata and the plane */
	size_t line_bytes;	/* of the lines whose events are read: sizes the arrays */
};

static inline int nomem(struct rd *r)
{
	return xp_err_set(r->w.err, XP_ERR_NOMEM, "out of memory");
}

/*
 * Decodes a stat; a str or bytes value is left in the input: *sv is where it
 * starts and *slen its length (the copy checks it against 2^32).
 */
static inline __attribute__((always_inline)) int decode_stat(struct xp_wire *w, const uint8_t *p,
							     const uint8_t *end, struct xp_stat *out,
							     const uint8_t **sv, uint64_t *slen)
{
	const uint8_t *s = NULL, *at;
	int64_t meta_id = 0;
	uint32_t f, type = XP_STAT_NONE;
	unsigned wt;
	uint64_t v = 0, bits = 0;

	/* Writers put metadata_id first: take it without the general dispatch. */
	if (likely(p < end && *p == (1 << 3 | WT_VARINT))) {
		p = wire_varint(w, p + 1, end, &v);
		if (!p)
			return XP_ERR_FORMAT;
		meta_id = (int64_t)v;
	}
	while (p < end) {
		at = p;
		p = wire_tag(w, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		switch (f) {
		case 1:
			p = wire_varint_field(w, p, end, at, f, wt, &v);
			meta_id = (int64_t)v;
			break;
		case 2:
			if (wt != WT_I64) {
				p = wire_bad_type(w, at, f);
			} else if (end - p < 8) {
				p = wire_bad(w, p, "truncated fixed64");
			} else {
				bits = wire_le64(p);
				p += 8;
				type = XP_STAT_DOUBLE;
			}
			break;
		case 3:
		case 4:
		case 7:
			p = wire_varint_field(w, p, end, at, f, wt, &bits);
			type = f == 3 ? XP_STAT_UINT64 : f == 4 ? XP_STAT_INT64 : XP_STAT_REF;
			break;
		case 5:
		case 6:
			/* s is where the value starts, bits its length */
			p = wire_len_field(w, p, end, at, f, wt, &s);
			bits = p ? (uint64_t)(p - s) : 0;
			type = f == 5 ? XP_STAT_STR : XP_STAT_BYTES;
			break;
		default:
			p = wire_skip(w, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	out->meta_id = meta_id;
	out->type = type;
	if (type == XP_STAT_DOUBLE) {
		memcpy(&out->v.d, &bits, sizeof(out->v.d));
	} else if (type != XP_STAT_STR && type != XP_STAT_BYTES) {
		out->v.u = bits;
	} else {
		*sv = s;
		*slen = bits;
	}
	return 0;
}

/* xp_read_wire_count.c */
int xp_wire_count_plane(struct rd *r, const uint8_t *p, const uint8_t *end, struct plane_counts *c);

/* xp_read_wire_fill.c */
const char *xp_wire_name_copy(struct rd *r, const uint8_t *s, const uint8_t *e);
void xp_wire_drop_pages(const uint8_t *p, const uint8_t *end);
int xp_wire_grow(struct rd *r, struct xp_plane *pl, void **arr, size_t *cap, size_t need,
		 size_t elem);
int xp_wire_first_room(struct rd *r, struct xp_plane *pl, const struct plane_counts *c);
int xp_wire_pieces_begin(struct rd *r, struct xp_plane *pl);
void xp_wire_pieces_end(struct rd *r, struct xp_plane *pl);
int xp_wire_pieces_close(struct rd *r, struct xp_plane *pl);
int xp_wire_fill_line(struct rd *r, const uint8_t *p, const uint8_t *end, struct xp_plane *pl);
int xp_wire_plane_walk(struct rd *r, const uint8_t *p, const uint8_t *end, struct xp_plane *pl,
		       int walk, const uint8_t **name, const uint8_t **name_end);

/* xp_read_wire_split.c */
int xp_wire_fill_split(struct rd *r, const uint8_t *start, const uint8_t *end, struct xp_plane *pl,
		       size_t nlines, size_t ngroups);

/* xp_read_wire_plane.c */
int xp_wire_read_plane(struct rd *r, const uint8_t *start, const uint8_t *end, struct xp_plane *pl);
int xp_wire_plane_header(struct rd *r, const uint8_t *p, const uint8_t *end, struct xp_plane *pl);

/* Room for need stats or events in the plane's growing blocks (xp_wire_grow). */
static inline int room_stats(struct rd *r, struct xp_plane *pl, size_t need)
{
	void *a = pl->stats;
	int ret;

	if (likely(need <= r->cap_stats))
		return 0;
	ret = xp_wire_grow(r, pl, &a, &r->cap_stats, need, sizeof(*pl->stats));
	pl->stats = a;
	return ret;
}

static inline int room_events(struct rd *r, struct xp_plane *pl, size_t need)
{
	void *a = pl->events;
	int ret;

	if (likely(need <= r->cap_events))
		return 0;
	if (r->fixed_events)	/* counted before: more cannot come */
		return xp_err_set(r->w.err, XP_ERR_FORMAT, "plane '%s': event count changed between passes",
				  pl->name ? pl->name : "");
	ret = xp_wire_grow(r, pl, &a, &r->cap_events, need, sizeof(*pl->events));
	pl->events = a;
	return ret;
}

static inline void *alloc_array(struct xp_arena *a, size_t n, size_t size)
{
	if (n >= SIZE_MAX / size)
		return NULL;
	return xp_arena_alloc(a, (n + 1) * size);
}

static inline void add_counts(struct xp_read_counts *to, const struct xp_read_counts *c)
{
	xp_read_counts_add(to, c);
}

#endif
