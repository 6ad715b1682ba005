/*
 * The fast reader: walks the protobuf wire format of an XSpace directly,
 * with no intermediate message tree. Each plane is read twice: a counting
 * pass sizes every array of the plane exactly, then a filling pass decodes
 * into them, so a plane costs a handful of arena allocations whatever its
 * number of events and stats.
 *
 * It fills the same model as the protobuf-c reader, field for field
 * (tests/unit/test_readers.c holds the two against each other), following
 * proto3: the last of a repeated scalar wins, the last member of a oneof
 * wins, repeated fields accumulate, a map entry's value given twice is
 * merged (its strings: the last wins; its stats: concatenated). Strings
 * stop at their first NUL, as the C strings protobuf-c hands out do; bytes
 * keep every byte.
 *
 * Where the two readers disagree on what is malformed, this one rejects
 * what no protobuf writer emits and protobuf-c lets through:
 *  - field number 0 (protobuf-c rejects it only in a one-byte tag);
 *  - a tag over 32 bits, i.e. a field number past 2^29 - 1 (protobuf-c drops
 *    the high bits and skips the field as unknown).
 * Both reject: varints over 10 bytes, tags or length prefixes over 5 bytes,
 * lengths past the enclosing message, groups and wire types 6 and 7, and a
 * known field with the wrong wire type.
 *
 * A malformed input is rejected when the walk reaches the fault, so when an
 * earlier plane also fails a model check (a negative duration, say), that is
 * the error reported, where protobuf-c reports the malformed bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "xp_model.h"

enum {
	WT_VARINT = 0,
	WT_I64 = 1,
	WT_LEN = 2,
	WT_SGROUP = 3,
	WT_EGROUP = 4,
	WT_I32 = 5,
};

/* Strings are packed into chunks of this size taken from the trace's arena. */
#define STR_CHUNK (64 * 1024)

struct rd {
	const uint8_t *base;	/* the whole input, for byte offsets in messages */
	struct xp_trace *t;
	struct xp_err *err;
	char *str;		/* free space for strings */
	size_t str_left;
	/* Capacities of the plane being filled. */
	size_t cap_stats, cap_events;
};

/* What the counting pass finds in one plane. */
struct plane_counts {
	size_t lines, events, evmetas, statmetas;
	size_t stats;		/* kept in the model: not those of aggregated events */
	size_t agg_stats_max;	/* most stats of one aggregated event */
};

static __attribute__((cold, noinline)) void set_bad(struct rd *r, const uint8_t *at,
						     const char *why, uint32_t field)
{
	char buf[64];

	if (field) {
		snprintf(buf, sizeof(buf), "wrong wire type for field %u", (unsigned)field);
		why = buf;
	}
	xp_err_set(r->err, XP_ERR_FORMAT, "not a valid XSpace protobuf (at byte %zu: %s)",
		   (size_t)(at - r->base), why);
}

/* The constant return value lets the compiler see that outputs are set on success. */
static inline int bad(struct rd *r, const uint8_t *at, const char *why)
{
	set_bad(r, at, why, 0);
	return XP_ERR_FORMAT;
}

static inline int bad_wire_type(struct rd *r, const uint8_t *at, uint32_t field)
{
	set_bad(r, at, NULL, field);
	return XP_ERR_FORMAT;
}

static int nomem(struct rd *r)
{
	return xp_err_set(r->err, XP_ERR_NOMEM, "out of memory");
}

/* ---- wire primitives: each reads at *pp, never past end, and advances *pp ---- */

static int varint_slow(struct rd *r, const uint8_t **pp, const uint8_t *end, uint64_t *v,
		       size_t max, const char *too_long)
{
	const uint8_t *p = *pp;
	size_t i, avail = (size_t)(end - p);
	uint64_t x = 0;

	for (i = 0; i < max; i++) {
		if (i == avail)
			return bad(r, p, "truncated varint");
		x |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			*v = x;
			*pp = p + i + 1;
			return 0;
		}
	}
	return bad(r, p, too_long);
}

static inline int rd_varint(struct rd *r, const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;

	if (__builtin_expect(p < end && *p < 0x80, 1)) {
		*v = *p;
		*pp = p + 1;
		return 0;
	}
	if (end - p >= 2 && p[1] < 0x80) {
		*v = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
		*pp = p + 2;
		return 0;
	}
	return varint_slow(r, pp, end, v, 10, "varint longer than 10 bytes");
}

static int tag_slow(struct rd *r, const uint8_t **pp, const uint8_t *end, uint32_t *field,
		    unsigned *wt)
{
	const uint8_t *at = *pp;
	uint64_t v = 0;
	int ret = varint_slow(r, pp, end, &v, 5, "tag longer than 5 bytes");

	if (ret)
		return ret;
	if (v > UINT32_MAX)
		return bad(r, at, "field number past 2^29 - 1");
	if (v >> 3 == 0)
		return bad(r, at, "field number 0");
	*field = (uint32_t)(v >> 3);
	*wt = (unsigned)(v & 7);
	return 0;
}

/* Reads a tag; the caller has checked *pp < end. */
static inline int rd_tag(struct rd *r, const uint8_t **pp, const uint8_t *end, uint32_t *field,
			 unsigned *wt)
{
	uint8_t b = **pp;

	if (__builtin_expect(b >= 8 && b < 0x80, 1)) {
		*field = b >> 3;
		*wt = b & 7;
		(*pp)++;
		return 0;
	}
	return tag_slow(r, pp, end, field, wt);
}

/* Reads a length prefix and the bounds of the bytes it covers. */
static inline int rd_len(struct rd *r, const uint8_t **pp, const uint8_t *end,
			 const uint8_t **sub, const uint8_t **sub_end)
{
	const uint8_t *at = *pp;
	uint64_t n;
	int ret;

	if (__builtin_expect(at < end && *at < 0x80, 1)) {
		n = *at;
		*pp = at + 1;
	} else {
		/* Five bytes hold any length under 2^35; protobuf-c allows no more. */
		ret = varint_slow(r, pp, end, &n, 5, "length prefix longer than 5 bytes");
		if (ret)
			return ret;
	}
	if (n > (uint64_t)(end - *pp))
		return bad(r, at, "length past the end of the enclosing message");
	*sub = *pp;
	*sub_end = *pp + n;
	*pp = *sub_end;
	return 0;
}

/* Skips the value of a field whose tag has just been read. */
static int skip_value(struct rd *r, const uint8_t **pp, const uint8_t *end, unsigned wt)
{
	const uint8_t *s, *e;
	uint64_t v = 0;

	switch (wt) {
	case WT_VARINT:
		return rd_varint(r, pp, end, &v);
	case WT_I64:
		if (end - *pp < 8)
			return bad(r, *pp, "truncated fixed64");
		*pp += 8;
		return 0;
	case WT_LEN:
		return rd_len(r, pp, end, &s, &e);
	case WT_I32:
		if (end - *pp < 4)
			return bad(r, *pp, "truncated fixed32");
		*pp += 4;
		return 0;
	case WT_SGROUP:
	case WT_EGROUP:
		return bad(r, *pp, "group wire type");
	default:
		return bad(r, *pp, "invalid wire type");
	}
}

/* A field's value as a known field of wire type want: a varint or a length. */
static inline int rd_varint_field(struct rd *r, const uint8_t **pp, const uint8_t *end,
				  const uint8_t *tag_at, uint32_t field, unsigned wt, uint64_t *v)
{
	if (wt != WT_VARINT)
		return bad_wire_type(r, tag_at, field);
	return rd_varint(r, pp, end, v);
}

static inline int rd_len_field(struct rd *r, const uint8_t **pp, const uint8_t *end,
			       const uint8_t *tag_at, uint32_t field, unsigned wt,
			       const uint8_t **sub, const uint8_t **sub_end)
{
	if (wt != WT_LEN)
		return bad_wire_type(r, tag_at, field);
	return rd_len(r, pp, end, sub, sub_end);
}

/* ---- strings ---- */

/* Copies len bytes and a NUL into the trace; NULL when out of memory. */
static char *str_copy(struct rd *r, const uint8_t *s, size_t len)
{
	char *d;

	if (len >= STR_CHUNK / 4)
		return xp_arena_strndup(&r->t->arena, (const char *)s, len);
	if (r->str_left <= len) {
		r->str = xp_arena_alloc(&r->t->arena, STR_CHUNK);
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
static const char *name_copy(struct rd *r, const uint8_t *s, const uint8_t *e)
{
	const uint8_t *nul;

	if (!s)
		return "";
	nul = memchr(s, '\0', (size_t)(e - s));
	return str_copy(r, s, (size_t)((nul ? nul : e) - s));
}

/* ---- the counting pass ---- */

/* Counts an event's stats and whether it is an aggregate (num_occurrences). */
static int count_event(struct rd *r, const uint8_t *p, const uint8_t *end, struct plane_counts *c)
{
	const uint8_t *s, *e;
	size_t nstats = 0;
	uint32_t f;
	unsigned wt;
	int agg = 0, ret;

	while (p < end) {
		ret = rd_tag(r, &p, end, &f, &wt);
		if (ret)
			return ret;
		if (f == 4 && wt == WT_LEN) {
			ret = rd_len(r, &p, end, &s, &e);
			nstats++;
		} else {
			if (wt == WT_VARINT && (f == 2 || f == 5))
				agg = f == 5;
			ret = skip_value(r, &p, end, wt);
		}
		if (ret)
			return ret;
	}
	if (agg) {
		if (nstats > c->agg_stats_max)
			c->agg_stats_max = nstats;
	} else {
		c->events++;
		c->stats += nstats;
	}
	return 0;
}

static int count_line(struct rd *r, const uint8_t *p, const uint8_t *end, struct plane_counts *c)
{
	const uint8_t *s, *e;
	uint32_t f;
	unsigned wt;
	int ret;

	while (p < end) {
		ret = rd_tag(r, &p, end, &f, &wt);
		if (ret)
			return ret;
		if (f == 4 && wt == WT_LEN) {
			ret = rd_len(r, &p, end, &s, &e);
			if (!ret)
				ret = count_event(r, s, e, c);
		} else {
			ret = skip_value(r, &p, end, wt);
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* Stats of an event-metadata map entry: of every copy of its value (they merge). */
static int count_evmeta_entry(struct rd *r, const uint8_t *p, const uint8_t *end,
			      struct plane_counts *c)
{
	const uint8_t *s, *e, *vs, *ve;
	uint32_t f, vf;
	unsigned wt, vwt;
	int ret;

	while (p < end) {
		ret = rd_tag(r, &p, end, &f, &wt);
		if (ret)
			return ret;
		if (f != 2 || wt != WT_LEN) {
			ret = skip_value(r, &p, end, wt);
			if (ret)
				return ret;
			continue;
		}
		ret = rd_len(r, &p, end, &s, &e);
		while (!ret && s < e) {
			ret = rd_tag(r, &s, e, &vf, &vwt);
			if (ret)
				break;
			if (vf == 5 && vwt == WT_LEN) {
				ret = rd_len(r, &s, e, &vs, &ve);
				c->stats++;
			} else {
				ret = skip_value(r, &s, e, vwt);
			}
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int count_plane(struct rd *r, const uint8_t *p, const uint8_t *end, struct plane_counts *c)
{
	const uint8_t *s, *e;
	uint32_t f;
	unsigned wt;
	int ret;

	memset(c, 0, sizeof(*c));
	while (p < end) {
		ret = rd_tag(r, &p, end, &f, &wt);
		if (ret)
			return ret;
		if (wt != WT_LEN || f < 3 || f > 6) {
			ret = skip_value(r, &p, end, wt);
			if (ret)
				return ret;
			continue;
		}
		ret = rd_len(r, &p, end, &s, &e);
		if (ret)
			return ret;
		switch (f) {
		case 3:
			c->lines++;
			ret = count_line(r, s, e, c);
			break;
		case 4:
			c->evmetas++;
			ret = count_evmeta_entry(r, s, e, c);
			break;
		case 5:
			c->statmetas++;
			break;
		case 6:
			c->stats++;
			break;
		}
		if (ret)
			return ret;
	}
	return 0;
}

/* ---- the filling pass ---- */

static int fill_stat(struct rd *r, const uint8_t *p, const uint8_t *end, struct xp_stat *out)
{
	const uint8_t *s = NULL, *e = NULL, *at;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;
	size_t len;
	int ret;

	out->meta_id = 0;
	out->type = XP_STAT_NONE;
	while (p < end) {
		at = p;
		ret = rd_tag(r, &p, end, &f, &wt);
		if (ret)
			return ret;
		switch (f) {
		case 1:
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			out->meta_id = (int64_t)v;
			break;
		case 2:
			if (wt != WT_I64)
				return bad_wire_type(r, at, f);
			if (end - p < 8)
				return bad(r, p, "truncated fixed64");
			memcpy(&out->v.d, p, sizeof(out->v.d));
			p += 8;
			out->type = XP_STAT_DOUBLE;
			break;
		case 3:
		case 4:
		case 7:
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			out->v.u = v;
			out->type = f == 3 ? XP_STAT_UINT64 : f == 4 ? XP_STAT_INT64 : XP_STAT_REF;
			break;
		case 5:
		case 6:
			ret = rd_len_field(r, &p, end, at, f, wt, &s, &e);
			out->type = f == 5 ? XP_STAT_STR : XP_STAT_BYTES;
			break;
		default:
			ret = skip_value(r, &p, end, wt);
		}
		if (ret)
			return ret;
	}
	if (out->type != XP_STAT_STR && out->type != XP_STAT_BYTES)
		return 0;
	/*
	 * Copied, not pointed into the input: a trace owns every string it hands
	 * out. Zero-copy values would need the trace to hold the input buffer.
	 */
	len = (size_t)(e - s);
	if (out->type == XP_STAT_STR) {
		const uint8_t *nul = memchr(s, '\0', len);

		if (nul)
			len = (size_t)(nul - s);
	}
	if (len > UINT32_MAX)
		return xp_err_set(r->err, XP_ERR_LIMIT, "a stat value is over 4 GiB");
	out->v.s.p = str_copy(r, s, len);
	out->v.s.len = (uint32_t)len;
	return out->v.s.p ? 0 : nomem(r);
}

/* Appends a stat to the plane's pool. */
static inline int add_stat(struct rd *r, struct xp_plane *pl, const uint8_t *s, const uint8_t *e)
{
	if (pl->nstats >= r->cap_stats)
		return bad(r, s, "stat count changed between passes");
	return fill_stat(r, s, e, &pl->stats[pl->nstats++]);
}

static int fill_event(struct rd *r, const uint8_t *p, const uint8_t *end, struct xp_plane *pl,
		      uint32_t line)
{
	struct xp_event *ev;
	const uint8_t *s, *e, *at = p;
	size_t stats_first = pl->nstats;
	int64_t meta_id = 0, off = 0, dur = 0;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;
	int agg = 0, ret;

	while (p < end) {
		at = p;
		ret = rd_tag(r, &p, end, &f, &wt);
		if (ret)
			return ret;
		switch (f) {
		case 1:
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			meta_id = (int64_t)v;
			break;
		case 2:
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			off = (int64_t)v;
			agg = 0;
			break;
		case 3:
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			dur = (int64_t)v;
			break;
		case 4:
			/* Stats go in before we know whether the event is kept. */
			ret = rd_len_field(r, &p, end, at, f, wt, &s, &e);
			if (!ret)
				ret = add_stat(r, pl, s, e);
			break;
		case 5:
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			agg = 1;
			break;
		default:
			ret = skip_value(r, &p, end, wt);
		}
		if (ret)
			return ret;
	}
	if (agg) {
		r->t->counts.aggregated_events++;
		pl->nstats = stats_first;
		return 0;
	}
	if (pl->nevents >= r->cap_events)
		return bad(r, at, "event count changed between passes");
	ev = &pl->events[pl->nevents++];
	ev->start_ps = off;
	ev->dur_ps = dur;
	ev->line = line;
	ev->meta = xp_plane_meta_index(pl, meta_id);
	if (ev->meta == pl->nevmetas)
		r->t->counts.events_missing_metadata++;
	ev->stats_first = (uint32_t)stats_first;
	ev->nstats = (uint32_t)(pl->nstats - stats_first);
	return 0;
}

static int fill_line(struct rd *r, const uint8_t *p, const uint8_t *end, struct xp_plane *pl)
{
	struct xp_line *l = &pl->lines[pl->nlines];
	const uint8_t *s, *e, *at, *name = NULL, *name_end = NULL, *dname = NULL, *dname_end = NULL;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;
	int ret;

	l->first_event = pl->nevents;
	while (p < end) {
		at = p;
		ret = rd_tag(r, &p, end, &f, &wt);
		if (ret)
			return ret;
		switch (f) {
		case 1:
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			l->id = (int64_t)v;
			break;
		case 2:
			ret = rd_len_field(r, &p, end, at, f, wt, &name, &name_end);
			break;
		case 3:
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			l->timestamp_ns = (int64_t)v;
			break;
		case 4:
			ret = rd_len_field(r, &p, end, at, f, wt, &s, &e);
			if (!ret)
				ret = fill_event(r, s, e, pl, (uint32_t)pl->nlines);
			break;
		case 9:
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			l->duration_ps = (int64_t)v;
			break;
		case 10:
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			break;
		case 11:
			ret = rd_len_field(r, &p, end, at, f, wt, &dname, &dname_end);
			break;
		default:
			ret = skip_value(r, &p, end, wt);
		}
		if (ret)
			return ret;
	}
	l->nevents = pl->nevents - l->first_event;
	l->name = name_copy(r, name, name_end);
	l->display_name = name_copy(r, dname, dname_end);
	if (!l->name || !l->display_name)
		return nomem(r);
	pl->nlines++;
	return 0;
}

/* Checks a packed run of varints (XEventMetadata.child_id). */
static int check_packed_varints(struct rd *r, const uint8_t *p, const uint8_t *end)
{
	uint64_t v = 0;
	int ret;

	while (p < end) {
		ret = rd_varint(r, &p, end, &v);
		if (ret)
			return ret;
	}
	return 0;
}

/* An XEventMetadata: every copy of the entry's value merges into em. */
static int fill_evmeta_value(struct rd *r, const uint8_t *p, const uint8_t *end,
			     struct xp_plane *pl, const uint8_t **name, const uint8_t **name_end,
			     const uint8_t **dname, const uint8_t **dname_end)
{
	const uint8_t *s, *e, *at;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;
	int ret;

	while (p < end) {
		at = p;
		ret = rd_tag(r, &p, end, &f, &wt);
		if (ret)
			return ret;
		switch (f) {
		case 1:
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			break;
		case 2:
			ret = rd_len_field(r, &p, end, at, f, wt, name, name_end);
			break;
		case 3:
			ret = rd_len_field(r, &p, end, at, f, wt, &s, &e);
			break;
		case 4:
			ret = rd_len_field(r, &p, end, at, f, wt, dname, dname_end);
			break;
		case 5:
			ret = rd_len_field(r, &p, end, at, f, wt, &s, &e);
			if (!ret)
				ret = add_stat(r, pl, s, e);
			break;
		case 6:
			/* child_id: packed or not, as repeated scalars may be. */
			if (wt == WT_LEN) {
				ret = rd_len(r, &p, end, &s, &e);
				if (!ret)
					ret = check_packed_varints(r, s, e);
			} else {
				ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			}
			break;
		default:
			ret = skip_value(r, &p, end, wt);
		}
		if (ret)
			return ret;
	}
	return 0;
}

static int fill_evmeta_entry(struct rd *r, const uint8_t *p, const uint8_t *end,
			     struct xp_plane *pl)
{
	struct xp_evmeta *em = &pl->evmetas[pl->nevmetas];
	const uint8_t *s, *e, *at, *name = NULL, *name_end = NULL, *dname = NULL, *dname_end = NULL;
	size_t stats_first = pl->nstats;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;
	int ret;

	while (p < end) {
		at = p;
		ret = rd_tag(r, &p, end, &f, &wt);
		if (ret)
			return ret;
		switch (f) {
		case 1:
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			em->id = (int64_t)v;
			break;
		case 2:
			ret = rd_len_field(r, &p, end, at, f, wt, &s, &e);
			if (!ret)
				ret = fill_evmeta_value(r, s, e, pl, &name, &name_end, &dname, &dname_end);
			break;
		default:
			ret = skip_value(r, &p, end, wt);
		}
		if (ret)
			return ret;
	}
	em->name = name_copy(r, name, name_end);
	em->display_name = name_copy(r, dname, dname_end);
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
	const uint8_t *s, *e, *at, *ds, *de, *name = NULL, *name_end = NULL;
	uint32_t f, vf;
	unsigned wt, vwt;
	uint64_t v = 0;
	int ret;

	while (p < end) {
		at = p;
		ret = rd_tag(r, &p, end, &f, &wt);
		if (ret)
			return ret;
		if (f == 1) {
			ret = rd_varint_field(r, &p, end, at, f, wt, &v);
			sm->id = (int64_t)v;
		} else if (f == 2) {
			/* The XStatMetadata value: id 1, name 2, description 3. */
			ret = rd_len_field(r, &p, end, at, f, wt, &s, &e);
			while (!ret && s < e) {
				at = s;
				ret = rd_tag(r, &s, e, &vf, &vwt);
				if (ret)
					break;
				if (vf == 1)
					ret = rd_varint_field(r, &s, e, at, vf, vwt, &v);
				else if (vf == 2)
					ret = rd_len_field(r, &s, e, at, vf, vwt, &name, &name_end);
				else if (vf == 3)
					ret = rd_len_field(r, &s, e, at, vf, vwt, &ds, &de);
				else
					ret = skip_value(r, &s, e, vwt);
			}
		} else {
			ret = skip_value(r, &p, end, wt);
		}
		if (ret)
			return ret;
	}
	sm->name = name_copy(r, name, name_end);
	if (!sm->name)
		return nomem(r);
	pl->nstatmetas++;
	return 0;
}

static void *alloc_array(struct xp_trace *t, size_t n, size_t size)
{
	if (n >= SIZE_MAX / size)
		return NULL;
	return xp_arena_alloc(&t->arena, (n + 1) * size);
}

/*
 * Fills pl from one XPlane in the order the protobuf-c reader does, whatever
 * the order of the fields on the wire: metadata (their stats first in the
 * pool), the plane's stats, the metadata index, then lines and events.
 */
static int read_plane(struct rd *r, const uint8_t *start, const uint8_t *end, struct xp_plane *pl)
{
	struct plane_counts c;
	const uint8_t *p, *s, *e, *at, *name = NULL, *name_end = NULL;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;
	int ret, walk;

	ret = count_plane(r, start, end, &c);
	if (ret)
		return ret;
	r->cap_stats = c.stats + c.agg_stats_max;
	r->cap_events = c.events;
	pl->stats = alloc_array(r->t, r->cap_stats, sizeof(*pl->stats));
	pl->events = alloc_array(r->t, c.events, sizeof(*pl->events));
	pl->lines = alloc_array(r->t, c.lines, sizeof(*pl->lines));
	pl->evmetas = alloc_array(r->t, c.evmetas, sizeof(*pl->evmetas));
	pl->statmetas = alloc_array(r->t, c.statmetas, sizeof(*pl->statmetas));
	if (!pl->stats || !pl->events || !pl->lines || !pl->evmetas || !pl->statmetas)
		return nomem(r);

	for (walk = 0; walk < 3; walk++) {
		p = start;
		while (p < end) {
			at = p;
			ret = rd_tag(r, &p, end, &f, &wt);
			if (ret)
				return ret;
			if (f == 1) {
				ret = rd_varint_field(r, &p, end, at, f, wt, &v);
				pl->id = (int64_t)v;
			} else if (f == 2) {
				ret = rd_len_field(r, &p, end, at, f, wt, &name, &name_end);
			} else if (f >= 3 && f <= 6) {
				ret = rd_len_field(r, &p, end, at, f, wt, &s, &e);
				if (ret)
					return ret;
				if (walk == 0 && f == 4)
					ret = fill_evmeta_entry(r, s, e, pl);
				else if (walk == 0 && f == 5)
					ret = fill_statmeta_entry(r, s, e, pl);
				else if (walk == 1 && f == 6)
					ret = add_stat(r, pl, s, e);
				else if (walk == 2 && f == 3)
					ret = fill_line(r, s, e, pl);
			} else {
				ret = skip_value(r, &p, end, wt);
			}
			if (ret)
				return ret;
		}
		if (walk == 0) {
			pl->name = name_copy(r, name, name_end);
			if (!pl->name)
				return nomem(r);
			if (c.stats > UINT32_MAX || c.events > UINT32_MAX)
				return xp_err_set(r->err, XP_ERR_LIMIT,
						  "plane '%s' has more than 2^32 events or stats", pl->name);
			pl->pstats_first = (uint32_t)pl->nstats;
		} else if (walk == 1) {
			pl->npstats = (uint32_t)(pl->nstats - pl->pstats_first);
			ret = xp_plane_index_metadata(pl, &r->t->counts, r->err);
			if (ret)
				return ret;
		}
	}
	return xp_plane_finish(pl, &r->t->counts, r->err);
}

static int wire_read(const void *buf, size_t len, struct xp_trace *t, struct xp_err *err)
{
	const uint8_t *start = buf, *end = start + len, *p, *s, *e, *at;
	struct rd r = {.base = start, .t = t, .err = err};
	/* Indexed by field number: 1 planes, 2 errors, 3 warnings, 4 hostnames. */
	const char **strs[5] = {NULL};
	size_t n[5] = {0}, k[5] = {0};
	uint32_t f;
	unsigned wt;
	int ret, pass;

	/* Pass 0 counts what the XSpace holds, pass 1 reads it. */
	for (pass = 0; pass < 2; pass++) {
		p = start;
		while (p < end) {
			at = p;
			ret = rd_tag(&r, &p, end, &f, &wt);
			if (ret)
				return ret;
			if (f > 4) {
				ret = skip_value(&r, &p, end, wt);
				if (ret)
					return ret;
				continue;
			}
			ret = rd_len_field(&r, &p, end, at, f, wt, &s, &e);
			if (ret)
				return ret;
			if (pass == 0) {
				n[f]++;
			} else if (f == 1) {
				ret = read_plane(&r, s, e, &t->planes[t->nplanes]);
				if (ret)
					return ret;
				t->nplanes++;
			} else {
				strs[f][k[f]] = name_copy(&r, s, e);
				if (!strs[f][k[f]++])
					return nomem(&r);
			}
		}
		if (pass == 0) {
			t->planes = alloc_array(t, n[1], sizeof(*t->planes));
			for (f = 2; f <= 4; f++)
				strs[f] = alloc_array(t, n[f], sizeof(*strs[f]));
			if (!t->planes || !strs[2] || !strs[3] || !strs[4])
				return nomem(&r);
		}
	}
	t->errors = strs[2];
	t->nerrors = n[2];
	t->warnings = strs[3];
	t->nwarnings = n[3];
	t->hostnames = strs[4];
	t->nhostnames = n[4];
	return 0;
}

const struct xp_reader xp_reader_wire = {
	.name = "wire",
	.read = wire_read,
};
