/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The fast reader: walks the protobuf wire format of an XSpace directly,
 * with no intermediate message tree. A plane's top-level fields are counted
 * first (lines, metadata, the plane's stats: sizes for their arrays), then
 * its metadata and stats decoded, then its lines' events in one pass into
 * growing blocks (xp_arena_block_grow) sized from the lines' bytes. A big
 * plane's lines are shared out among the jobs (fill_split). What a command
 * does not use is walked and checked but not kept (xp_read_opts: lines,
 * event stats, host events), and the pages of a mapped input are dropped as
 * they are read.
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
 *
 * The wire primitives return the cursor past what they read, or NULL once
 * they have recorded why the input is malformed; the cursor stays in a
 * register that way, which the hot loops over events and stats depend on.
 */
#include <assert.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/mman.h>
#include <unistd.h>
#include <stdio.h>
#include <stdlib.h>
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

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

struct rd {
	const uint8_t *base;	/* the whole input, for byte offsets in messages */
	const uint8_t *limit;	/* its end: reads may look past a message up to here */
	struct xp_arena *arena;	/* the trace's, or a thread's own until merged */
	struct xp_read_counts *counts;
	struct xp_err *err;
	char *str;		/* free space for strings */
	size_t str_left;
	/* The plane being filled: its capacities. */
	size_t cap_stats, cap_events;
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
	/* Threads this read's splits have started and not joined (fill_split; atomic). */
	unsigned *split_busy;
};

/* Whether events' own stats go to the plane's pool (else they are dropped, or left in the input). */
static inline int own_in_pool(enum xp_event_stats mode)
{
	return mode == XP_EVSTATS_ALL || mode == XP_EVSTATS_KEYS;
}

/* Events handed to xp_read_opts.line_events at a time: a buffer that stays in cache. */
#define PIECE_EVENTS 4096

/* As a plane's lines are filled, their pages are dropped this many bytes at a time. */
#define DROP_STEP ((size_t)16 << 20)

/* What the counting pass finds in one plane; lines' events are counted as they are filled. */
struct plane_counts {
	size_t lines, evmetas, statmetas;
	size_t aggregated;	/* num_occurrences events, of lines not read */
	size_t stats;		/* of metadata and the plane */
	size_t line_bytes;	/* of the lines whose events are read: sizes the arrays */
};

static __attribute__((cold, noinline)) const uint8_t *bad(struct rd *r, const uint8_t *at,
							  const char *why)
{
	xp_err_set(r->err, XP_ERR_FORMAT, "not a valid XSpace protobuf (at byte %zu: %s)",
		   (size_t)(at - r->base), why);
	return NULL;
}

static __attribute__((cold, noinline)) const uint8_t *bad_wire_type(struct rd *r,
								    const uint8_t *at,
								    uint32_t field)
{
	xp_err_set(r->err, XP_ERR_FORMAT,
		   "not a valid XSpace protobuf (at byte %zu: wrong wire type for field %u)",
		   (size_t)(at - r->base), (unsigned)field);
	return NULL;
}

static int nomem(struct rd *r)
{
	return xp_err_set(r->err, XP_ERR_NOMEM, "out of memory");
}

/* ---- wire primitives: each reads from p, never at or past end ---- */

struct varint {
	const uint8_t *p;	/* past the varint; NULL if malformed */
	uint64_t v;
};

static __attribute__((noinline)) struct varint varint_slow(struct rd *r, const uint8_t *p,
							   const uint8_t *end, size_t max,
							   const char *too_long)
{
	struct varint out = {NULL, 0};
	size_t i, avail = (size_t)(end - p);

	for (i = 0; i < max; i++) {
		if (i == avail) {
			bad(r, p, "truncated varint");
			return out;
		}
		out.v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			out.p = p + i + 1;
			return out;
		}
	}
	bad(r, p, too_long);
	return out;
}

static inline uint64_t load_le64(const uint8_t *p)
{
	uint64_t x;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&x, p, 8);
#else
	int i;

	for (x = 0, i = 7; i >= 0; i--)
		x = x << 8 | p[i];
#endif
	return x;
}

/* The low seven bits of each byte of w, packed together: 56 bits. */
static inline uint64_t pack7(uint64_t w)
{
	w = (w & 0x007f007f007f007fULL) | (w & 0x7f007f007f007f00ULL) >> 1;
	w = (w & 0x00003fff00003fffULL) | (w & 0x3fff00003fff0000ULL) >> 2;
	return (w & 0x000000000fffffffULL) | (w & 0x0fffffff00000000ULL) >> 4;
}

/*
 * Messages are small (a stat is a few bytes), so the fast paths load eight
 * bytes at p as long as they lie in the input, and check the end of the
 * message afterwards.
 */
static inline const uint8_t *get_varint(struct rd *r, const uint8_t *p, const uint8_t *end,
					uint64_t *v)
{
	struct varint s;
	uint64_t w, stop;
	unsigned n;

	if (likely(p < end && *p < 0x80)) {
		*v = *p;
		return p + 1;
	}
	if (likely(r->limit - p >= 8)) {
		/* A byte under 0x80 ends the varint: look for the first of eight at once. */
		w = load_le64(p);
		stop = ~w & 0x8080808080808080ULL;
		n = (__builtin_ctzll(stop | 1ULL << 63) >> 3) + 1;
		if (likely(stop && n <= (size_t)(end - p))) {
			*v = pack7(w & ~0ULL >> (64 - 8 * n));
			return p + n;
		}
		/* Nine or ten bytes: values from 2^56, negative integers. */
		if (!stop && end - p >= 9 && p[8] < 0x80) {
			*v = pack7(w) | (uint64_t)p[8] << 56;
			return p + 9;
		}
		if (!stop && end - p >= 10 && p[9] < 0x80) {
			*v = pack7(w) | (uint64_t)(p[8] & 0x7f) << 56 | (uint64_t)p[9] << 63;
			return p + 10;
		}
	}
	s = varint_slow(r, p, end, 10, "varint longer than 10 bytes");
	*v = s.v;
	return s.p;
}

/* Steps over a varint without decoding it. */
static inline const uint8_t *skip_varint(struct rd *r, const uint8_t *p, const uint8_t *end)
{
	const uint8_t *q;
	uint64_t stop;

	if (likely(r->limit - p >= 8)) {
		stop = ~load_le64(p) & 0x8080808080808080ULL;
		q = p + (__builtin_ctzll(stop | 1ULL << 63) >> 3) + 1;
		if (likely(stop && q <= end))
			return q;
	}
	return varint_slow(r, p, end, 10, "varint longer than 10 bytes").p;
}

/* Returns the tag in v, or p NULL; the outputs of get_tag stay in registers. */
static __attribute__((noinline)) struct varint tag_slow(struct rd *r, const uint8_t *p,
							const uint8_t *end)
{
	struct varint s = varint_slow(r, p, end, 5, "tag longer than 5 bytes");

	if (s.p && s.v > UINT32_MAX)
		s.p = bad(r, p, "field number past 2^29 - 1");
	else if (s.p && s.v >> 3 == 0)
		s.p = bad(r, p, "field number 0");
	return s;
}

/* Reads a tag; the caller has checked p < end. */
static inline const uint8_t *get_tag(struct rd *r, const uint8_t *p, const uint8_t *end,
				     uint32_t *field, unsigned *wt)
{
	struct varint s;
	uint8_t b = *p;

	if (likely(b >= 8 && b < 0x80)) {
		*field = b >> 3;
		*wt = b & 7;
		return p + 1;
	}
	s = tag_slow(r, p, end);
	*field = (uint32_t)(s.v >> 3);
	*wt = (unsigned)(s.v & 7);
	return s.p;
}

/*
 * Reads a length prefix; *sub is where the bytes it covers start, and the
 * return value where they end.
 */
static inline const uint8_t *get_len(struct rd *r, const uint8_t *p, const uint8_t *end,
				     const uint8_t **sub)
{
	struct varint s;
	uint64_t n;

	*sub = p;	/* set on every path, for the compiler's sake */
	if (likely(p < end && *p < 0x80)) {
		n = *p;
		s.p = p + 1;
	} else if (end - p >= 2 && p[1] < 0x80) {
		n = (uint64_t)(p[0] & 0x7f) | (uint64_t)p[1] << 7;
		s.p = p + 2;
	} else {
		/* Five bytes hold any length under 2^35; protobuf-c allows no more. */
		s = varint_slow(r, p, end, 5, "length prefix longer than 5 bytes");
		if (!s.p)
			return NULL;
		n = s.v;
	}
	if (unlikely(n > (uint64_t)(end - s.p)))
		return bad(r, p, "length past the end of the enclosing message");
	*sub = s.p;
	return s.p + n;
}

static __attribute__((noinline)) const uint8_t *skip_other(struct rd *r, const uint8_t *p,
							   const uint8_t *end, unsigned wt)
{
	switch (wt) {
	case WT_I64:
		return end - p < 8 ? bad(r, p, "truncated fixed64") : p + 8;
	case WT_I32:
		return end - p < 4 ? bad(r, p, "truncated fixed32") : p + 4;
	case WT_SGROUP:
	case WT_EGROUP:
		return bad(r, p, "group wire type");
	default:
		return bad(r, p, "invalid wire type");
	}
}

/* Skips the value of a field whose tag has just been read. */
static inline const uint8_t *skip_value(struct rd *r, const uint8_t *p, const uint8_t *end,
					unsigned wt)
{
	const uint8_t *s;

	if (wt == WT_VARINT)
		return skip_varint(r, p, end);
	if (wt == WT_LEN)
		return get_len(r, p, end, &s);
	return skip_other(r, p, end, wt);
}

/* The value of known fields, checked against their wire type (tag at tag_at). */
static inline const uint8_t *get_varint_field(struct rd *r, const uint8_t *p, const uint8_t *end,
					      const uint8_t *tag_at, uint32_t field, unsigned wt,
					      uint64_t *v)
{
	if (unlikely(wt != WT_VARINT))
		return bad_wire_type(r, tag_at, field);
	return get_varint(r, p, end, v);
}

static inline const uint8_t *get_len_field(struct rd *r, const uint8_t *p, const uint8_t *end,
					   const uint8_t *tag_at, uint32_t field, unsigned wt,
					   const uint8_t **sub)
{
	if (unlikely(wt != WT_LEN)) {
		*sub = p;
		return bad_wire_type(r, tag_at, field);
	}
	return get_len(r, p, end, sub);
}

/* ---- strings ---- */

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
static const char *name_copy(struct rd *r, const uint8_t *s, const uint8_t *e)
{
	const uint8_t *nul;

	if (!s)
		return "";
	nul = memchr(s, '\0', (size_t)(e - s));
	return str_copy(r, s, (size_t)((nul ? nul : e) - s));
}

/* ---- the counting pass ---- */

/* Walks an event of a line not read: whether it is an aggregate (num_occurrences). */
static inline int count_event(struct rd *r, const uint8_t *p, const uint8_t *end,
			      struct plane_counts *c)
{
	const uint8_t *s;
	uint32_t f;
	unsigned wt;
	int agg = 0;

	/* Fields 1, 2 and 3 usually come first, in order (see fill_event). */
	if (likely(p < end && *p == (1 << 3 | WT_VARINT)))
		p = skip_varint(r, p + 1, end);
	if (likely(p && p < end && *p == (2 << 3 | WT_VARINT)))
		p = skip_varint(r, p + 1, end);
	if (likely(p && p < end && *p == (3 << 3 | WT_VARINT)))
		p = skip_varint(r, p + 1, end);
	if (!p)
		return XP_ERR_FORMAT;
	while (p < end) {
		p = get_tag(r, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (wt == WT_VARINT) {
			if (f == 2 || f == 5)
				agg = f == 5;
			p = skip_varint(r, p, end);
		} else if (wt == WT_LEN) {
			p = get_len(r, p, end, &s);
		} else {
			p = skip_other(r, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	c->aggregated += agg;
	return 0;
}

static int count_line(struct rd *r, const uint8_t *p, const uint8_t *end, struct plane_counts *c)
{
	const uint8_t *s;
	uint32_t f;
	unsigned wt;
	int ret;

	while (p < end) {
		p = get_tag(r, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (f == 4 && wt == WT_LEN) {
			p = get_len(r, p, end, &s);
			if (!p)
				return XP_ERR_FORMAT;
			ret = count_event(r, s, p, c);
			if (ret)
				return ret;
		} else {
			p = skip_value(r, p, end, wt);
			if (!p)
				return XP_ERR_FORMAT;
		}
	}
	return 0;
}

/* Stats of an event-metadata map entry: of every copy of its value (they merge). */
static int count_evmeta_entry(struct rd *r, const uint8_t *p, const uint8_t *end,
			      struct plane_counts *c)
{
	const uint8_t *s, *e, *sub;
	uint32_t f;
	unsigned wt;

	while (p < end) {
		p = get_tag(r, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (f != 2 || wt != WT_LEN) {
			p = skip_value(r, p, end, wt);
			if (!p)
				return XP_ERR_FORMAT;
			continue;
		}
		e = p = get_len(r, p, end, &s);
		if (!p)
			return XP_ERR_FORMAT;
		while (s < e) {
			s = get_tag(r, s, e, &f, &wt);
			if (s && f == 5 && wt == WT_LEN) {
				s = get_len(r, s, e, &sub);
				c->stats++;
			} else if (s) {
				s = skip_value(r, s, e, wt);
			}
			if (!s)
				return XP_ERR_FORMAT;
		}
	}
	return 0;
}

static int count_plane(struct rd *r, const uint8_t *p, const uint8_t *end, struct plane_counts *c)
{
	const uint8_t *s;
	uint32_t f;
	unsigned wt;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	while (p < end) {
		p = get_tag(r, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (wt != WT_LEN || f < 3 || f > 6) {
			p = skip_value(r, p, end, wt);
			if (!p)
				return XP_ERR_FORMAT;
			continue;
		}
		p = get_len(r, p, end, &s);
		if (!p)
			return XP_ERR_FORMAT;
		switch (f) {
		case 3:
			if (!r->want || r->want[c->lines]) {
				/* its events and stats are counted as the fill takes them */
				c->line_bytes += (size_t)(p - s);
			} else {
				/*
				 * A line whose events are not read is still walked:
				 * malformed bytes fail as in a full read, and its
				 * aggregated events are counted.
				 */
				struct plane_counts skip = {0};

				ret = count_line(r, s, p, &skip);
				r->counts->aggregated_events += skip.aggregated;
			}
			c->lines++;
			break;
		case 4:
			c->evmetas++;
			ret = count_evmeta_entry(r, s, p, c);
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

/*
 * Drops the pages wholly inside [p, end) of a file mapping
 * (xp_read_opts.input_mapped); not under DROP_MIN bytes: a small file's
 * pages are few, and threads reading many files contend on the call.
 */
#define DROP_MIN ((size_t)1 << 20)

static void drop_pages(const uint8_t *p, const uint8_t *end)
{
	long ps = sysconf(_SC_PAGESIZE);
	uintptr_t page = ps > 0 ? (uintptr_t)ps : 4096;
	uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1), hi = (uintptr_t)end & ~(page - 1);

	if (hi > lo && hi - lo >= DROP_MIN)
		(void)madvise((void *)lo, hi - lo, MADV_DONTNEED);	/* only spares memory */
}

/* ---- the filling pass ---- */

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
		return xp_err_set(r->err, XP_ERR_LIMIT, "a stat value is over 4 GiB");
	out->v.s.p = str_copy(r, s, len);
	out->v.s.len = (uint32_t)len;
	return out->v.s.p ? 0 : nomem(r);
}

/*
 * Decodes a stat; a str or bytes value is left in the input: *sv is where it
 * starts and *slen its length (the copy checks it against 2^32).
 */
static inline __attribute__((always_inline)) int decode_stat(struct rd *r, const uint8_t *p,
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
		p = get_varint(r, p + 1, end, &v);
		if (!p)
			return XP_ERR_FORMAT;
		meta_id = (int64_t)v;
	}
	while (p < end) {
		at = p;
		p = get_tag(r, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		switch (f) {
		case 1:
			p = get_varint_field(r, p, end, at, f, wt, &v);
			meta_id = (int64_t)v;
			break;
		case 2:
			if (wt != WT_I64) {
				p = bad_wire_type(r, at, f);
			} else if (end - p < 8) {
				p = bad(r, p, "truncated fixed64");
			} else {
				bits = load_le64(p);
				p += 8;
				type = XP_STAT_DOUBLE;
			}
			break;
		case 3:
		case 4:
		case 7:
			p = get_varint_field(r, p, end, at, f, wt, &bits);
			type = f == 3 ? XP_STAT_UINT64 : f == 4 ? XP_STAT_INT64 : XP_STAT_REF;
			break;
		case 5:
		case 6:
			/* s is where the value starts, bits its length */
			p = get_len_field(r, p, end, at, f, wt, &s);
			bits = p ? (uint64_t)(p - s) : 0;
			type = f == 5 ? XP_STAT_STR : XP_STAT_BYTES;
			break;
		default:
			p = skip_value(r, p, end, wt);
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

static inline __attribute__((always_inline)) int fill_stat(struct rd *r, const uint8_t *p,
							   const uint8_t *end, struct xp_stat *out)
{
	const uint8_t *sv = NULL;
	uint64_t slen = 0;
	int ret = decode_stat(r, p, end, out, &sv, &slen);

	if (ret || (out->type != XP_STAT_STR && out->type != XP_STAT_BYTES))
		return ret;
	return stat_string(r, out, sv, sv + slen);
}

/*
 * The plane's events and stats are growing blocks (xp_arena_block_grow),
 * sized from the bytes of its lines and doubled when full: one pass over the
 * events, not a count and a fill. A plane holds at most 2^32 - 1 of each.
 */
static __attribute__((noinline)) int grow(struct rd *r, struct xp_plane *pl, void **arr,
					  size_t *cap, size_t need, size_t elem)
{
	size_t c = *cap;
	void *n;

	while (c < need)
		c = c < 1024 ? 1024 : c * 2;
	if (c > UINT32_MAX)
		c = UINT32_MAX;
	if (need > c)
		return xp_err_set(r->err, XP_ERR_LIMIT, "plane '%s' has more than 2^32 events or stats",
				  pl->name ? pl->name : "");
	/* one more: room for a sentinel, as the arena's arrays have */
	n = xp_arena_block_grow(*arr, (c + 1) * elem);
	if (!n)
		return nomem(r);
	*arr = n;
	*cap = c;
	return 0;
}

static inline int room_stats(struct rd *r, struct xp_plane *pl, size_t need)
{
	void *a = pl->stats;
	int ret;

	if (likely(need <= r->cap_stats))
		return 0;
	ret = grow(r, pl, &a, &r->cap_stats, need, sizeof(*pl->stats));
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
		return xp_err_set(r->err, XP_ERR_FORMAT, "plane '%s': event count changed between passes",
				  pl->name ? pl->name : "");
	ret = grow(r, pl, &a, &r->cap_events, need, sizeof(*pl->events));
	pl->events = a;
	return ret;
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
	int ret = decode_stat(r, p, end, &st, &sv, &slen);

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
static int first_room(struct rd *r, struct xp_plane *pl, const struct plane_counts *c)
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
		memset(r->err, 0, sizeof(*r->err));	/* nomem's message: for the last try only */
	}
	return nomem(r);
}

/* Appends a stat to the plane's pool. */
static int add_stat(struct rd *r, struct xp_plane *pl, const uint8_t *s, const uint8_t *e)
{
	int ret = room_stats(r, pl, pl->nstats + 1);

	return ret ? ret : fill_stat(r, s, e, &pl->stats[pl->nstats++]);
}


static inline int fill_event(struct rd *r, const uint8_t *p, const uint8_t *end,
			     struct xp_plane *pl, uint32_t line)
{
	struct xp_event *ev;
	const uint8_t *s, *at = p, *ev_at = p;
	size_t stats_first = pl->nstats, ns = stats_first, missing = 0, in_input = 0;
	int64_t meta_id = 0, off = 0, dur = 0;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;
	uint32_t ix;
	int agg = 0, ret;

	/* Writers put fields 1, 2 and 3 first, in order: take them without the switch. */
	if (likely(p < end && *p == (1 << 3 | WT_VARINT))) {
		p = get_varint(r, p + 1, end, &v);
		meta_id = (int64_t)v;
	}
	if (likely(p && p < end && *p == (2 << 3 | WT_VARINT))) {
		p = get_varint(r, p + 1, end, &v);
		off = (int64_t)v;
	}
	if (likely(p && p < end && *p == (3 << 3 | WT_VARINT))) {
		p = get_varint(r, p + 1, end, &v);
		dur = (int64_t)v;
	}
	if (!p)
		return XP_ERR_FORMAT;
	while (p < end) {
		at = p;
		p = get_tag(r, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		switch (f) {
		case 1:
			p = get_varint_field(r, p, end, at, f, wt, &v);
			meta_id = (int64_t)v;
			break;
		case 2:
			p = get_varint_field(r, p, end, at, f, wt, &v);
			off = (int64_t)v;
			agg = 0;
			break;
		case 3:
			p = get_varint_field(r, p, end, at, f, wt, &v);
			dur = (int64_t)v;
			break;
		case 4:
			/* Stats go in before we know whether the event is kept. */
			p = get_len_field(r, p, end, at, f, wt, &s);
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
			p = get_varint_field(r, p, end, at, f, wt, &v);
			agg = 1;
			break;
		default:
			p = skip_value(r, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	if (agg) {
		r->counts->aggregated_events++;
		return 0;
	}
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
static int pieces_begin(struct rd *r, struct xp_plane *pl)
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
static void pieces_end(struct rd *r, struct xp_plane *pl)
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
static int pieces_close(struct rd *r, struct xp_plane *pl)
{
	size_t i, n = 0;

	pieces_end(r, pl);
	for (i = 0; i < pl->nlines; i++) {
		pl->lines[i].first_event = n;
		n += pl->lines[i].nevents;
	}
	pl->nevents = n;
	pl->events_released = 1;
	return n >= UINT32_MAX - 1 ? XP_ERR_AGAIN : 0;
}

static int fill_line(struct rd *r, const uint8_t *p, const uint8_t *end, struct xp_plane *pl)
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
		p = get_tag(r, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		switch (f) {
		case 1:
			p = get_varint_field(r, p, end, at, f, wt, &v);
			l->id = (int64_t)v;
			break;
		case 2:
			p = name_end = get_len_field(r, p, end, at, f, wt, &name);
			break;
		case 3:
			p = get_varint_field(r, p, end, at, f, wt, &v);
			l->timestamp_ns = (int64_t)v;
			break;
		case 4:
			p = get_len_field(r, p, end, at, f, wt, &s);
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
				drop_pages(r->dropped, p);
				r->dropped = p;
			}
			break;
		case 9:
			p = get_varint_field(r, p, end, at, f, wt, &v);
			l->duration_ps = (int64_t)v;
			break;
		case 10:
			p = get_varint_field(r, p, end, at, f, wt, &v);
			break;
		case 11:
			p = dname_end = get_len_field(r, p, end, at, f, wt, &dname);
			break;
		default:
			p = skip_value(r, p, end, wt);
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
	while (p < end) {
		p = skip_varint(r, p, end);
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
		p = get_tag(r, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		switch (f) {
		case 1:
			p = get_varint_field(r, p, end, at, f, wt, &v);
			break;
		case 2:
			p = str->name_end = get_len_field(r, p, end, at, f, wt, &str->name);
			break;
		case 3:
			p = get_len_field(r, p, end, at, f, wt, &s);
			break;
		case 4:
			p = str->dname_end = get_len_field(r, p, end, at, f, wt, &str->dname);
			break;
		case 5:
			p = get_len_field(r, p, end, at, f, wt, &s);
			if (!p)
				return XP_ERR_FORMAT;
			ret = add_stat(r, pl, s, p);
			if (ret)
				return ret;
			break;
		case 6:
			/* child_id: packed or not, as repeated scalars may be. */
			if (wt == WT_LEN) {
				p = get_len(r, p, end, &s);
				if (p && check_packed_varints(r, s, p))
					return XP_ERR_FORMAT;
			} else {
				p = get_varint_field(r, p, end, at, f, wt, &v);
			}
			break;
		default:
			p = skip_value(r, p, end, wt);
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
		p = get_tag(r, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (f == 1) {
			p = get_varint_field(r, p, end, at, f, wt, &v);
			em->id = (int64_t)v;
		} else if (f == 2) {
			p = get_len_field(r, p, end, at, f, wt, &s);
			if (!p)
				return XP_ERR_FORMAT;
			ret = fill_evmeta_value(r, s, p, pl, &str);
			if (ret)
				return ret;
		} else {
			p = skip_value(r, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	em->name = name_copy(r, str.name, str.name_end);
	em->display_name = name_copy(r, str.dname, str.dname_end);
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
		p = get_tag(r, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (f == 1) {
			p = get_varint_field(r, p, end, at, f, wt, &v);
			sm->id = (int64_t)v;
		} else if (f == 2) {
			/* The XStatMetadata value: id 1, name 2, description 3. */
			e = p = get_len_field(r, p, end, at, f, wt, &s);
			while (p && s < e) {
				at = s;
				s = get_tag(r, s, e, &f, &wt);
				if (!s)
					return XP_ERR_FORMAT;
				if (f == 1)
					s = get_varint_field(r, s, e, at, f, wt, &v);
				else if (f == 2)
					s = name_end = get_len_field(r, s, e, at, f, wt, &name);
				else if (f == 3)
					s = get_len_field(r, s, e, at, f, wt, &d);
				else
					s = skip_value(r, s, e, wt);
				if (!s)
					return XP_ERR_FORMAT;
			}
		} else {
			p = skip_value(r, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	sm->name = name_copy(r, name, name_end);
	if (!sm->name)
		return nomem(r);
	pl->nstatmetas++;
	return 0;
}

static void *alloc_array(struct xp_arena *a, size_t n, size_t size)
{
	if (n >= SIZE_MAX / size)
		return NULL;
	return xp_arena_alloc(a, (n + 1) * size);
}

/* Walk 0 of a plane: id, name, metadata; walk 1: the plane's stats; walk 2: lines. */
static int plane_walk(struct rd *r, const uint8_t *p, const uint8_t *end, struct xp_plane *pl,
		      int walk, const uint8_t **name, const uint8_t **name_end)
{
	const uint8_t *s, *at;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;
	int ret = 0;

	while (p < end) {
		at = p;
		p = get_tag(r, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (f == 1) {
			p = get_varint_field(r, p, end, at, f, wt, &v);
			pl->id = (int64_t)v;
		} else if (f == 2) {
			p = *name_end = get_len_field(r, p, end, at, f, wt, name);
		} else if (f >= 3 && f <= 6) {
			p = get_len_field(r, p, end, at, f, wt, &s);
			if (!p)
				return XP_ERR_FORMAT;
			if (walk == 0 && f == 4)
				ret = fill_evmeta_entry(r, s, p, pl);
			else if (walk == 0 && f == 5)
				ret = fill_statmeta_entry(r, s, p, pl);
			else if (walk == 1 && f == 6)
				ret = add_stat(r, pl, s, p);
			else if (walk == 2 && f == 3)
				ret = fill_line(r, s, p, pl);
			if (ret)
				return ret;
		} else {
			p = skip_value(r, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	return 0;
}

/*
 * Fills pl from one XPlane in the order the protobuf-c reader does, whatever
 * the order of the fields on the wire: metadata (their stats first in the
 * pool), the plane's stats, the metadata index, then lines and events.
 */
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
		p = get_tag(r, p, end, &f, &wt);
		if (p && f == 2)
			p = name_end = get_len_field(r, p, end, at, f, wt, &name);
		else if (p)
			p = skip_value(r, p, end, wt);
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
	size_t n = 0, cap = 0, i;
	uint32_t f;
	unsigned wt;
	int ret = 0;

	*want = NULL;
	while (p < end && !ret) {
		at = p;
		p = get_tag(r, p, end, &f, &wt);
		if (p && (f == 2 || f == 3)) {
			p = get_len_field(r, p, end, at, f, wt, &s);
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
			p = skip_value(r, p, end, wt);
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
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(pname);
	if (ret) {
		free(*want);
		*want = NULL;
	}
	return ret;
}

static void add_counts(struct xp_read_counts *to, const struct xp_read_counts *c)
{
	to->aggregated_events += c->aggregated_events;
	to->events_missing_metadata += c->events_missing_metadata;
	to->stats_missing_metadata += c->stats_missing_metadata;
	to->duplicate_metadata += c->duplicate_metadata;
}

/* ---- a big plane's lines on several threads ---- */

#define SPLIT_BYTES_DEFAULT ((size_t)32 << 20)

struct line_range {
	const uint8_t *s, *e;
};

/*
 * The events fields of a line, not looked into: at least as many as the
 * events it keeps (aggregated and filtered ones are not kept). -1 on bytes
 * the fill would reject; the caller then leaves the fill to report them.
 */
static ptrdiff_t count_line_events(struct rd *r, const uint8_t *p, const uint8_t *end)
{
	const uint8_t *s;
	uint32_t f;
	unsigned wt;
	ptrdiff_t n = 0;

	while (p < end) {
		p = get_tag(r, p, end, &f, &wt);
		if (p && f == 4 && wt == WT_LEN) {
			p = get_len(r, p, end, &s);
			n++;
		} else if (p) {
			p = skip_value(r, p, end, wt);
		}
		if (!p)
			return -1;
	}
	return n;
}

/*
 * The groups of a split plane count their lines' events first, each on its
 * thread; then the plane's array is sized and each group fills its slot of
 * it (no copy after). Where a count fails (bytes the fill would reject) or
 * the array cannot be sized, each group fills a plane of its own, appended
 * after, and the fill reports what it finds as one thread would.
 */
struct split_sync {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	size_t counted;		/* groups on threads done counting */
	int count;		/* worth counting: every event is kept but aggregated ones */
	int ready;		/* slots planned: fill */
	int direct;		/* into slots of pl's events */
	struct xp_plane *pl;
	size_t nstats;		/* pl->nstats when the slots were planned (group 0 writes pl's) */
};

/* One group of consecutive lines, filled into its slot or a plane of its own, appended after. */
struct line_group {
	struct rd r;
	struct xp_arena arena;
	struct xp_read_counts counts;
	struct xp_err err;
	struct xp_plane part;		/* shares the plane's metadata; lines are the plane's */
	const struct line_range *lines;
	size_t first, n;		/* lines[first .. first + n) of the plane */
	size_t slot, slot_n;		/* its events go to plane events [slot, slot + slot_n) */
	int counted;			/* slot_n holds its lines' events fields */
	int ret;
	int started;			/* on a thread of its own */
	pthread_t thread;
	struct split_sync *sync;
};

static int fill_lines(struct rd *r, struct xp_plane *pl, const struct line_range *lines, size_t n)
{
	size_t i;
	int ret;

	for (i = 0; i < n; i++)
		if ((ret = fill_line(r, lines[i].s, lines[i].e, pl)))
			return ret;
	return 0;
}

/* Counts group g's events fields into slot_n; g->counted if it could. */
static void count_group(struct line_group *g, const struct line_range *lines)
{
	struct xp_err saved = *g->r.err;
	size_t i;

	g->slot_n = 0;
	for (i = g->first; i < g->first + g->n; i++) {
		ptrdiff_t c = g->r.want && !g->r.want[i - g->first] ? 0
			      : count_line_events(&g->r, lines[i].s, lines[i].e);

		if (c < 0) {
			*g->r.err = saved;	/* the fill says it, where it would */
			return;
		}
		g->slot_n += (size_t)c;
	}
	g->counted = 1;
}

/* Group g (not the first) fills its slot of the plane's events. */
static void into_slot(struct line_group *g, const struct split_sync *y)
{
	g->r.line_base = g->first;
	g->r.fixed_events = 1;
	g->r.cap_events = g->slot_n;
	g->part.events = y->pl->events + g->slot;
	if (!own_in_pool(g->r.mode))	/* no event keeps a stat: indices as one thread's */
		g->part.nstats = g->r.cap_stats = y->nstats;
}

/* Group g (not the first) fills its lines, in pieces if the plane is read so. */
static int fill_group(struct line_group *g)
{
	int ret = g->r.pieces ? pieces_begin(&g->r, &g->part) : 0;

	if (!ret)
		ret = fill_lines(&g->r, &g->part, g->lines + g->first, g->n);
	if (g->r.pieces)
		pieces_end(&g->r, &g->part);
	return ret;
}

static void *group_run(void *arg)
{
	struct line_group *g = arg;
	struct split_sync *y = g->sync;

	if (y->count)
		count_group(g, g->lines);
	pthread_mutex_lock(&y->lock);
	y->counted++;
	pthread_cond_broadcast(&y->cond);
	while (!y->ready)
		pthread_cond_wait(&y->cond, &y->lock);
	pthread_mutex_unlock(&y->lock);
	if (y->direct)
		into_slot(g, y);
	g->ret = fill_group(g);
	return NULL;
}

/*
 * Once every group has counted: whether they fill slots of pl's events
 * (sized here), and where each slot starts.
 */
static int plan_slots(struct rd *r, struct xp_plane *pl, struct line_group *g, size_t ngroups)
{
	struct xp_err saved = *r->err;
	size_t k, total = 0;

	for (k = 0; k < ngroups; k++) {
		if (!g[k].counted)
			return 0;
		g[k].slot = total;
		total += g[k].slot_n;
	}
	if (total >= UINT32_MAX - 1 || room_events(r, pl, total + 1)) {
		*r->err = saved;	/* growth says it, as it goes */
		return 0;
	}
	return 1;
}

/* The byte ranges of the plane's lines, in order; *n of them. */
static int line_ranges(struct rd *r, const uint8_t *p, const uint8_t *end, struct line_range *out,
		       size_t cap, size_t *n)
{
	const uint8_t *s, *at;
	uint32_t f;
	unsigned wt;

	*n = 0;
	while (p < end) {
		at = p;
		p = get_tag(r, p, end, &f, &wt);
		if (p && f == 3) {
			p = get_len_field(r, p, end, at, f, wt, &s);
			if (p && *n < cap) {
				out[*n].s = s;
				out[*n].e = p;
			}
			*n += p != NULL;
		} else if (p) {
			p = skip_value(r, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	if (*n != cap) {
		bad(r, end, "line count changed between passes");
		return XP_ERR_FORMAT;
	}
	return 0;
}

/*
 * Moves group g, filled in its slot, to follow the plane's events (a slot
 * left unfilled by events not kept closes up), its stats appended.
 */
static int append_slot(struct rd *r, struct xp_plane *pl, struct line_group *g)
{
	size_t ev0 = pl->nevents, st0 = pl->nstats, i;
	int ret;

	if (own_in_pool(r->mode)) {	/* else none kept: the group counted from st0 */
		if ((ret = room_stats(r, pl, st0 + g->part.nstats)))
			return ret;
		if (g->part.nstats)	/* a group with none has no block */
			memcpy(pl->stats + st0, g->part.stats, g->part.nstats * sizeof(*pl->stats));
		for (i = 0; st0 && i < g->part.nevents; i++)
			pl->events[g->slot + i].stats_first += (uint32_t)st0;
		pl->nstats += g->part.nstats;
	}
	if (ev0 != g->slot && g->part.nevents)
		memmove(pl->events + ev0, pl->events + g->slot, g->part.nevents * sizeof(*pl->events));
	for (i = 0; i < g->part.nlines; i++)
		pl->lines[g->first + i].first_event += ev0;
	pl->nevents += g->part.nevents;
	pl->nlines += g->part.nlines;
	add_counts(r->counts, &g->counts);
	return 0;
}

/* Appends group g's events and stats to pl, their indices moved to pl's. */
static int append_group(struct rd *r, struct xp_plane *pl, struct line_group *g)
{
	size_t ev0 = pl->nevents, st0 = pl->nstats, i;
	int ret;

	if ((ret = room_events(r, pl, ev0 + g->part.nevents)) ||
	    (ret = room_stats(r, pl, st0 + g->part.nstats)))
		return ret;
	if (g->part.nstats)	/* a group with none has no block */
		memcpy(pl->stats + st0, g->part.stats, g->part.nstats * sizeof(*pl->stats));
	for (i = 0; i < g->part.nevents; i++) {
		struct xp_event *e = &pl->events[ev0 + i];

		*e = g->part.events[i];
		e->line += (uint32_t)g->first;
		if (r->mode != XP_EVSTATS_INPUT)	/* INPUT: the bytes of its plane, not the pool */
			e->stats_first += (uint32_t)st0;
	}
	for (i = 0; i < g->part.nlines; i++)
		pl->lines[g->first + i].first_event += ev0;
	pl->nevents += g->part.nevents;
	pl->nstats += g->part.nstats;
	pl->nlines += g->part.nlines;
	add_counts(r->counts, &g->counts);
	return 0;
}

/*
 * Up to want more threads within the budget jobs - 1 of one read, *busy
 * of it taken (struct rd.split_busy): plane workers splitting at once do
 * not start jobs^2 threads. How many were taken.
 */
static unsigned take_threads(unsigned *busy, unsigned want, unsigned jobs)
{
	unsigned have = __atomic_load_n(busy, __ATOMIC_RELAXED), take;

	do {
		take = jobs - 1 > have ? jobs - 1 - have : 0;
		if (take > want)
			take = want;
	} while (take && !__atomic_compare_exchange_n(busy, &have, have + take, 0,
						      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	return take;
}

/*
 * Walk 2 over lines split into groups of about equal bytes: the first in
 * this thread into pl, the others on threads of their own into planes of
 * their own, appended in order. The first error in line order is reported,
 * as one thread reading them in turn would report it.
 */
static int fill_split(struct rd *r, const uint8_t *start, const uint8_t *end, struct xp_plane *pl,
		      size_t nlines, size_t ngroups)
{
	struct line_range *lines = malloc((nlines + 1) * sizeof(*lines));
	struct line_group *g = calloc(ngroups, sizeof(*g));
	size_t i, k, n = 0, acc = 0, bytes = 0, started = 0;
	unsigned taken = 0;
	int ret = 0, direct;
	struct split_sync sync = {.counted = 0};

	if (!lines || !g) {
		ret = nomem(r);
		goto out;
	}
	if ((ret = line_ranges(r, start, end, lines, nlines, &n)))
		goto out;
	taken = take_threads(r->split_busy, (unsigned)ngroups - 1, r->o->jobs);
	ngroups = 1 + taken;
	for (i = 0; i < nlines; i++)
		bytes += (size_t)(lines[i].e - lines[i].s);
	/*
	 * Groups of consecutive lines, cut before the line whose middle passes
	 * the next share of the bytes: a big line goes to the side it fits
	 * better (the host plane of a JAX trace has one line of half its bytes).
	 */
	for (i = 0, k = 0; i < nlines; i++) {
		size_t len = (size_t)(lines[i].e - lines[i].s);

		if (k + 1 < ngroups && g[k].n && acc + len / 2 > bytes / ngroups * (k + 1))
			g[++k].first = i;
		g[k].n++;
		acc += len;
	}
	ngroups = k + 1;
	if (pthread_mutex_init(&sync.lock, NULL)) {
		__atomic_sub_fetch(r->split_busy, taken, __ATOMIC_RELAXED);
		ret = nomem(r);
		goto out;
	}
	if (pthread_cond_init(&sync.cond, NULL)) {
		pthread_mutex_destroy(&sync.lock);
		__atomic_sub_fetch(r->split_busy, taken, __ATOMIC_RELAXED);
		ret = nomem(r);
		goto out;
	}
	sync.pl = pl;
	/*
	 * A filtered host plane keeps few of its events: slots sized for all
	 * would be touched twice as they close up; its groups fill their own.
	 * A plane read in pieces keeps none.
	 */
	sync.count = !r->keep_meta && !r->pieces;	/* pieces: no slots */
	for (k = 0; k < ngroups; k++) {
		struct line_group *x = &g[k];

		x->lines = lines;
		x->sync = &sync;
		if (k == 0) {
			x->r = *r;	/* counts with the plane's reader; fills into pl */
			continue;
		}
		xp_arena_init(&x->arena);
		x->r = *r;
		x->r.arena = &x->arena;
		x->r.counts = &x->counts;
		x->r.err = &x->err;
		x->r.str = NULL;
		x->r.str_left = 0;
		x->r.spare = NULL;
		x->r.piece = NULL;
		x->r.cap_stats = x->r.cap_events = 0;
		x->r.want = r->want ? r->want + x->first : NULL;
		x->r.dropped = r->dropped ? lines[x->first].s : NULL;
		x->part = *pl;
		x->part.lines = pl->lines + x->first;
		x->part.nlines = 0;
		x->part.events = NULL;
		x->part.stats = NULL;
		x->part.nevents = x->part.nstats = 0;
		x->started = !pthread_create(&x->thread, NULL, group_run, x);
		started += x->started;
	}
	/* This thread counts its own group and those no thread took, then plans the slots. */
	for (k = 0; k < ngroups && sync.count; k++)
		if (!g[k].started)
			count_group(&g[k], lines);
	pthread_mutex_lock(&sync.lock);
	while (sync.counted < started)
		pthread_cond_wait(&sync.cond, &sync.lock);
	direct = sync.direct = plan_slots(r, pl, g, ngroups);
	sync.nstats = pl->nstats;
	sync.ready = 1;
	pthread_cond_broadcast(&sync.cond);
	pthread_mutex_unlock(&sync.lock);
	if (direct) {
		size_t cap = r->cap_events;

		r->fixed_events = 1;
		r->cap_events = g[0].slot_n;
		ret = fill_lines(r, pl, lines, g[0].n);
		r->fixed_events = 0;
		r->cap_events = cap;
	} else {
		ret = fill_lines(r, pl, lines, g[0].n);
	}
	for (k = 1; k < ngroups; k++) {	/* no thread: this one, in turn */
		if (g[k].started)
			continue;
		if (direct)
			into_slot(&g[k], &sync);
		g[k].ret = fill_group(&g[k]);
	}
	for (k = 1; k < ngroups; k++) {
		if (g[k].started)
			pthread_join(g[k].thread, NULL);
		if (!ret && g[k].ret) {
			ret = g[k].ret;
			*r->err = g[k].err;
		}
		if (direct) {
			if (!own_in_pool(r->mode))
				g[k].part.nstats = 0;	/* none added: the plane's own count */
			if (!ret)
				ret = append_slot(r, pl, &g[k]);
			g[k].part.events = NULL;	/* the plane's */
		} else if (!ret) {
			ret = append_group(r, pl, &g[k]);
		}
		xp_arena_block_free(g[k].part.events);
		xp_arena_block_free(g[k].part.stats);
		free(g[k].r.piece);
		xp_arena_adopt(r->arena, &g[k].arena);
	}
	__atomic_sub_fetch(r->split_busy, taken, __ATOMIC_RELAXED);
	pthread_mutex_destroy(&sync.lock);
	pthread_cond_destroy(&sync.cond);
out:
	free(lines);
	free(g);
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
	ret = count_plane(r, start, end, &c);
	if (ret)
		goto out;
	r->cap_stats = r->cap_events = 0;
	pl->stats = NULL;
	r->pieces = pieces && by_pieces(r, &c);
	if (r->pieces) {
		ret = room_stats(r, pl, c.stats + 1);
		if (!ret)
			ret = pieces_begin(r, pl);
	} else {
		pl->events = r->spare;	/* grown from there (xp_arena_block_grow), or NULL */
		r->spare = NULL;
		ret = first_room(r, pl, &c);
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
	ret = plane_walk(r, start, end, pl, 0, &name, &name_end);
	if (ret)
		goto out;
	pl->name = name_copy(r, name, name_end);
	if (!pl->name) {
		ret = nomem(r);
		goto out;
	}
	if (c.stats > UINT32_MAX) {
		ret = xp_err_set(r->err, XP_ERR_LIMIT, "plane '%s' has more than 2^32 events or stats",
				 pl->name);
		goto out;
	}
	pl->pstats_first = (uint32_t)pl->nstats;
	ret = plane_walk(r, start, end, pl, 1, &name, &name_end);
	if (ret)
		goto out;
	pl->npstats = (uint32_t)(pl->nstats - pl->pstats_first);
	ret = xp_plane_index_metadata(pl, r->arena, r->counts, r->err);
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
		ret = fill_split(r, start, end, pl, c.lines, groups);
	else if (!ret)
		ret = plane_walk(r, start, end, pl, 2, &name, &name_end);
	r->dropped = NULL;
	if (!ret && r->pieces)
		ret = pieces_close(r, pl);
	if (!ret)
		ret = xp_plane_finish(pl, r->counts, r->err);
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
		ret = xp_plane_read_done(pl, r->o, r->err);
		if (pl->events_released && ev)
			r->spare = ev;
	}
out:
	if (r->pieces)
		pieces_end(r, pl);
	/* The arena frees them with the trace, whether the plane was read or not. */
	if (pl->stats)
		xp_arena_block_adopt(r->arena, pl->stats, (pl->nstats + 1) * sizeof(*pl->stats));
	if (pl->events)
		xp_arena_block_adopt(r->arena, pl->events, (pl->nevents + 1) * sizeof(*pl->events));
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
static int read_plane(struct rd *r, const uint8_t *start, const uint8_t *end, struct xp_plane *pl)
{
	struct xp_plane as_was = *pl;
	struct xp_read_counts counts = *r->counts;
	int ret = read_plane_as(r, start, end, pl, 1);

	if (ret && r->pieces) {
		*pl = as_was;
		*r->counts = counts;
		memset(r->err, 0, sizeof(*r->err));
		r->pieces = 0;
		ret = read_plane_as(r, start, end, pl, 0);
	}
	r->pieces = 0;
	return ret;
}

/* A plane's id and name only: all a deferred plane holds. */
static int plane_header(struct rd *r, const uint8_t *p, const uint8_t *end, struct xp_plane *pl)
{
	const uint8_t *name = NULL, *name_end = NULL, *at;
	uint32_t f;
	unsigned wt;
	uint64_t v = 0;

	while (p < end) {
		at = p;
		p = get_tag(r, p, end, &f, &wt);
		if (p && f == 1) {
			p = get_varint_field(r, p, end, at, f, wt, &v);
			pl->id = (int64_t)v;
		} else if (p && f == 2) {
			p = name_end = get_len_field(r, p, end, at, f, wt, &name);
		} else if (p) {
			p = skip_value(r, p, end, wt);
		}
		if (!p)
			return XP_ERR_FORMAT;
	}
	pl->name = name_copy(r, name, name_end);
	return pl->name ? 0 : nomem(r);
}

/* Where each XPlane message lies in the input: kept for planes read later. */
struct plane_range {
	const uint8_t *start, *end;
};

/* Planes to decode, shared by the threads that decode them. */
struct plane_job {
	const uint8_t *base, *limit;
	const struct xp_read_opts *o;	/* want_lines; NULL: every line */
	struct xp_plane *planes;
	const struct plane_range *ranges;
	const size_t *todo;		/* plane indexes */
	const size_t *order;		/* todo entries, biggest plane first */
	size_t ntodo;
	size_t next;			/* next todo entry to take (atomic) */
	unsigned split_busy;		/* threads splitting planes now (take_threads; atomic) */
	int *rets;			/* per todo entry */
	struct xp_err *errs;		/* per todo entry */
};

struct plane_worker {
	struct plane_job *job;
	struct xp_arena arena;		/* merged into the trace's when done */
	struct xp_read_counts counts;	/* added to the trace's */
	pthread_t thread;
};

static void *plane_worker_run(void *arg)
{
	struct plane_worker *w = arg;
	struct plane_job *j = w->job;
	struct rd r = {.base = j->base, .limit = j->limit, .arena = &w->arena, .counts = &w->counts,
		       .o = j->o, .mode = j->o ? j->o->event_stats : XP_EVSTATS_ALL,
		       .split_busy = &j->split_busy};
	size_t k;

	while ((k = __atomic_fetch_add(&j->next, 1, __ATOMIC_RELAXED)) < j->ntodo) {
		size_t i;

		k = j->order[k];
		i = j->todo[k];

		r.err = &j->errs[k];
		j->rets[k] = read_plane(&r, j->ranges[i].start, j->ranges[i].end, &j->planes[i]);
		if (j->o && j->o->input_mapped && j->o->event_stats != XP_EVSTATS_INPUT)
			drop_pages(j->ranges[i].start, j->ranges[i].end);
	}
	xp_arena_block_free(r.spare);
	free(r.piece);
	return NULL;
}


/* A todo entry and its plane's bytes, to sort the biggest first (ties: todo order). */
struct by_size {
	size_t bytes, k;
};

static int by_bytes(const void *a, const void *b)
{
	const struct by_size *x = a, *y = b;

	if (x->bytes != y->bytes)
		return x->bytes > y->bytes ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

/*
 * Decodes the planes todo[0..n) on up to `jobs` threads (the caller's among
 * them), the biggest first: the last plane taken is a small one, so threads
 * finish together (a TPU trace's host plane, last in the file, holds most of
 * its events). The model does not depend on the number of threads or that
 * order: each plane is decoded whole by one thread, and the error reported
 * is that of the first failing plane in todo order, as a single thread
 * would report it.
 */
static int decode_planes(struct xp_trace *t, const struct plane_range *ranges, const size_t *todo,
			 size_t n, unsigned jobs, const struct xp_read_opts *o, struct xp_err *err)
{
	struct plane_job j = {
		.base = t->buf_, .limit = (const uint8_t *)t->buf_ + t->len_, .o = o,
		.planes = t->planes, .ranges = ranges, .todo = todo, .ntodo = n,
	};
	struct plane_worker *w;
	size_t *order = NULL;
	struct by_size *sizes = NULL;
	size_t k, nw = jobs > 1 ? jobs : 1, started = 1;
	int ret = 0;

	if (!n)
		return 0;
	if (nw > n)
		nw = n;
	w = calloc(nw, sizeof(*w));
	j.rets = calloc(n, sizeof(*j.rets));
	j.errs = calloc(n, sizeof(*j.errs));
	order = malloc(n * sizeof(*order));
	sizes = malloc(n * sizeof(*sizes));
	if (!w || !j.rets || !j.errs || !order || !sizes) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (k = 0; k < n; k++) {
		sizes[k].bytes = (size_t)(ranges[todo[k]].end - ranges[todo[k]].start);
		sizes[k].k = k;
	}
	if (nw > 1)
		qsort(sizes, n, sizeof(*sizes), by_bytes);
	for (k = 0; k < n; k++)
		order[k] = sizes[k].k;
	j.order = order;
	for (k = 0; k < nw; k++) {
		w[k].job = &j;
		xp_arena_init(&w[k].arena);
	}
	/* Threads that cannot start leave their share to those that did. */
	for (k = 1; k < nw; k++) {
		if (pthread_create(&w[k].thread, NULL, plane_worker_run, &w[k]))
			break;
		started++;
	}
	plane_worker_run(&w[0]);
	for (k = 1; k < started; k++)
		pthread_join(w[k].thread, NULL);
	for (k = 0; k < nw; k++) {
		xp_arena_adopt(&t->arena, &w[k].arena);
		add_counts(&t->counts, &w[k].counts);
	}
	for (k = 0; k < n && !ret; k++) {
		if (j.rets[k]) {
			ret = j.rets[k];
			*err = j.errs[k];
		}
	}
out:
	free(w);
	free(j.rets);
	free(j.errs);
	free(order);
	free(sizes);
	return ret;
}

static int wire_read(const void *buf, size_t len, const struct xp_read_opts *o, struct xp_trace *t,
		     struct xp_err *err)
{
	const uint8_t *start = buf, *end = start + len, *p, *s, *at;
	struct xp_read_counts counts = {0};
	struct rd r = {.base = start, .limit = end, .arena = &t->arena, .counts = &counts, .err = err};
	/* Indexed by field number: 1 planes, 2 errors, 3 warnings, 4 hostnames. */
	const char **strs[5] = {NULL};
	size_t n[5] = {0}, k[5] = {0}, *todo = NULL, ntodo = 0, i;
	struct plane_range *ranges = NULL;
	uint32_t f;
	unsigned wt;
	int ret = 0, pass;

	/* Pass 0 counts what the XSpace holds, pass 1 takes its strings and plane ranges. */
	for (pass = 0; pass < 2; pass++) {
		p = start;
		while (p < end) {
			at = p;
			p = get_tag(&r, p, end, &f, &wt);
			if (p && f > 4)
				p = skip_value(&r, p, end, wt);
			else if (p)
				p = get_len_field(&r, p, end, at, f, wt, &s);
			if (!p)
				return XP_ERR_FORMAT;
			if (pass == 0) {
				n[f > 4 ? 0 : f]++;
			} else if (f == 1) {
				ranges[k[1]].start = s;
				ranges[k[1]++].end = p;
			} else if (f <= 4) {
				strs[f][k[f]] = name_copy(&r, s, p);
				if (!strs[f][k[f]++])
					return nomem(&r);
			}
		}
		if (pass == 0) {
			t->planes = alloc_array(&t->arena, n[1], sizeof(*t->planes));
			ranges = alloc_array(&t->arena, n[1], sizeof(*ranges));
			for (f = 2; f <= 4; f++)
				strs[f] = alloc_array(&t->arena, n[f], sizeof(*strs[f]));
			if (!t->planes || !ranges || !strs[2] || !strs[3] || !strs[4])
				return nomem(&r);
		}
	}
	t->nplanes = n[1];
	t->errors = strs[2];
	t->nerrors = n[2];
	t->warnings = strs[3];
	t->nwarnings = n[3];
	t->hostnames = strs[4];
	t->nhostnames = n[4];
	t->lazy_ = ranges;
	todo = malloc((n[1] + 1) * sizeof(*todo));
	if (!todo)
		return nomem(&r);
	for (i = 0; i < n[1]; i++) {
		if (o->want_plane) {
			ret = plane_header(&r, ranges[i].start, ranges[i].end, &t->planes[i]);
			if (ret)
				goto out;
			if (!o->want_plane(t->planes[i].name, o->want_ctx))
				continue;
		}
		todo[ntodo++] = i;
	}
	ret = decode_planes(t, ranges, todo, ntodo, o->jobs, o, err);
out:
	add_counts(&t->counts, &counts);
	free(todo);
	return ret;
}

static int wire_load_plane(struct xp_trace *t, size_t i, struct xp_err *err)
{
	struct xp_plane deferred = t->planes[i];
	struct xp_read_opts o = {.event_stats = t->event_stats_, .input_mapped = t->input_mapped_,
				 .want_host_event = t->want_host_event_, .host_keys = t->host_keys_,
				 .jobs = t->jobs_, .split_bytes = t->split_bytes_, .keys = t->keys_};
	int ret;

	/* A plane read on demand is read whole; if it fails, it stays deferred. */
	ret = decode_planes(t, t->lazy_, &i, 1, 1, &o, err);
	if (ret)
		t->planes[i] = deferred;
	return ret;
}

const struct xp_stat *xp_event_own_stats(const struct xp_plane *p, const struct xp_event *e,
					 struct xp_stat *buf)
{
	struct xp_err err;
	struct rd r;	/* what the decoding reads of it; not cleared whole: called per event */
	const uint8_t *q, *s, *at, *sv;
	uint64_t slen;
	uint32_t f, n = 0;
	unsigned wt;

	if (!p->stats_at)
		return p->stats + e->stats_first;
	if (!e->nstats)
		return buf;
	err.code = 0;
	err.msg[0] = '\0';
	r.base = p->stats_at;
	r.limit = p->stats_end;
	r.err = &err;
	/* The read checked these bytes: the event's fields, up to its last stat. */
	for (q = p->stats_at + e->stats_first; n < e->nstats && q;) {
		at = q;
		q = get_tag(&r, q, p->stats_end, &f, &wt);
		if (q && f == 4) {
			q = get_len_field(&r, q, p->stats_end, at, f, wt, &s);
			sv = NULL;
			slen = 0;
			if (!q || decode_stat(&r, s, q, &buf[n], &sv, &slen))
				break;
			if (buf[n].type == XP_STAT_STR) {	/* as the model keeps it: up to a NUL */
				const uint8_t *nul = memchr(sv, '\0', (size_t)slen);

				if (nul)
					slen = (uint64_t)(nul - sv);
			}
			if (buf[n].type == XP_STAT_STR || buf[n].type == XP_STAT_BYTES) {
				buf[n].v.s.p = (const char *)sv;
				buf[n].v.s.len = (uint32_t)slen;
			}
			n++;
		} else if (q) {
			q = skip_value(&r, q, p->stats_end, wt);
		}
	}
	assert(n == e->nstats);
	for (; n < e->nstats; n++)	/* never: the read checked them */
		memset(&buf[n], 0, sizeof(buf[n]));
	return buf;
}

static size_t wire_plane_bytes(const struct xp_trace *t, size_t i)
{
	const struct plane_range *r = t->lazy_;

	return r ? (size_t)(r[i].end - r[i].start) : 0;
}

const struct xp_reader xp_reader_wire = {
	.name = "wire",
	.read = wire_read,
	.load_plane = wire_load_plane,
	.plane_bytes = wire_plane_bytes,
};
