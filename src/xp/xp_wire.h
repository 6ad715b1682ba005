/* SPDX-License-Identifier: Apache-2.0 */
/* The protobuf wire primitives of the fast reader, inline: hot loops keep them in registers. */
#ifndef XP_WIRE_H
#define XP_WIRE_H

/*
 * Each reads from p, never at or past end, and returns the cursor past what
 * it read, or NULL once it has said in w->err why the input is malformed:
 * the cursor stays in a register that way, which the loops over events and
 * stats depend on. The slow paths stay out of line (noinline), marked unused
 * so that a file that needs none of them is not warned.
 */
#include <stdint.h>
#include <string.h>

#include "xp_err.h"

enum {
	WT_VARINT = 0,
	WT_I64 = 1,
	WT_LEN = 2,
	WT_SGROUP = 3,
	WT_EGROUP = 4,
	WT_I32 = 5,
};

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* Where messages are read from. */
struct xp_wire {
	const uint8_t *base;	/* the whole input, for byte offsets in messages */
	const uint8_t *limit;	/* its end: reads may look past a message up to here */
	struct xp_err *err;
};

static __attribute__((cold, noinline, unused)) const uint8_t *wire_bad(struct xp_wire *w,
								       const uint8_t *at,
								       const char *why)
{
	xp_err_set(w->err, XP_ERR_FORMAT, "not a valid XSpace protobuf (at byte %zu: %s)",
		   (size_t)(at - w->base), why);
	return NULL;
}

/* A length that runs past the end of the input itself: the file was cut short. */
static __attribute__((cold, noinline, unused)) const uint8_t *wire_cut(struct xp_wire *w, const uint8_t *at,
								       uint64_t n, size_t left)
{
	xp_err_set(w->err, XP_ERR_FORMAT, "the input ends early (cut short while written or copied?): at byte %zu "
		   "a field of %llu bytes, %zu left", (size_t)(at - w->base), (unsigned long long)n, left);
	return NULL;
}

static __attribute__((cold, noinline, unused)) const uint8_t *wire_bad_type(struct xp_wire *w,
									    const uint8_t *at,
									    uint32_t field)
{
	xp_err_set(w->err, XP_ERR_FORMAT,
		   "not a valid XSpace protobuf (at byte %zu: wrong wire type for field %u)",
		   (size_t)(at - w->base), (unsigned)field);
	return NULL;
}

struct wire_u64 {
	const uint8_t *p;	/* past the varint; NULL if malformed */
	uint64_t v;
};

static __attribute__((noinline, unused)) struct wire_u64 wire_varint_slow(struct xp_wire *w,
									  const uint8_t *p,
									  const uint8_t *end,
									  size_t max,
									  const char *too_long)
{
	struct wire_u64 out = {NULL, 0};
	size_t i, avail = (size_t)(end - p);

	for (i = 0; i < max; i++) {
		if (i == avail) {
			wire_bad(w, p, "truncated varint");
			return out;
		}
		out.v |= (uint64_t)(p[i] & 0x7f) << (7 * i);
		if (!(p[i] & 0x80)) {
			out.p = p + i + 1;
			return out;
		}
	}
	wire_bad(w, p, too_long);
	return out;
}

static inline uint64_t wire_le64(const uint8_t *p)
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
static inline uint64_t wire_pack7(uint64_t w)
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
static inline const uint8_t *wire_varint(struct xp_wire *w, const uint8_t *p, const uint8_t *end,
					 uint64_t *v)
{
	struct wire_u64 s;
	uint64_t x, stop;
	unsigned n;

	if (likely(p < end && *p < 0x80)) {
		*v = *p;
		return p + 1;
	}
	if (likely(w->limit - p >= 8)) {
		/* A byte under 0x80 ends the varint: look for the first of eight at once. */
		x = wire_le64(p);
		stop = ~x & 0x8080808080808080ULL;
		n = (__builtin_ctzll(stop | 1ULL << 63) >> 3) + 1;
		if (likely(stop && n <= (size_t)(end - p))) {
			*v = wire_pack7(x & ~0ULL >> (64 - 8 * n));
			return p + n;
		}
		/* Nine or ten bytes: values from 2^56, negative integers. */
		if (!stop && end - p >= 9 && p[8] < 0x80) {
			*v = wire_pack7(x) | (uint64_t)p[8] << 56;
			return p + 9;
		}
		if (!stop && end - p >= 10 && p[9] < 0x80) {
			*v = wire_pack7(x) | (uint64_t)(p[8] & 0x7f) << 56 | (uint64_t)p[9] << 63;
			return p + 10;
		}
	}
	s = wire_varint_slow(w, p, end, 10, "varint longer than 10 bytes");
	*v = s.v;
	return s.p;
}

/* Steps over a varint without decoding it. */
static inline const uint8_t *wire_skip_varint(struct xp_wire *w, const uint8_t *p,
					      const uint8_t *end)
{
	const uint8_t *q;
	uint64_t stop;

	if (likely(w->limit - p >= 8)) {
		stop = ~wire_le64(p) & 0x8080808080808080ULL;
		q = p + (__builtin_ctzll(stop | 1ULL << 63) >> 3) + 1;
		if (likely(stop && q <= end))
			return q;
	}
	return wire_varint_slow(w, p, end, 10, "varint longer than 10 bytes").p;
}

/* Returns the tag in v, or p NULL; the outputs of wire_tag stay in registers. */
static __attribute__((noinline, unused)) struct wire_u64 wire_tag_slow(struct xp_wire *w,
								       const uint8_t *p,
								       const uint8_t *end)
{
	struct wire_u64 s = wire_varint_slow(w, p, end, 5, "tag longer than 5 bytes");

	if (s.p && s.v > UINT32_MAX)
		s.p = wire_bad(w, p, "field number past 2^29 - 1");
	else if (s.p && s.v >> 3 == 0)
		s.p = wire_bad(w, p, "field number 0");
	return s;
}

/* Reads a tag; the caller has checked p < end. */
static inline const uint8_t *wire_tag(struct xp_wire *w, const uint8_t *p, const uint8_t *end,
				      uint32_t *field, unsigned *wt)
{
	struct wire_u64 s;
	uint8_t b = *p;

	if (likely(b >= 8 && b < 0x80)) {
		*field = b >> 3;
		*wt = b & 7;
		return p + 1;
	}
	s = wire_tag_slow(w, p, end);
	*field = (uint32_t)(s.v >> 3);
	*wt = (unsigned)(s.v & 7);
	return s.p;
}

/*
 * Reads a length prefix; *sub is where the bytes it covers start, and the
 * return value where they end.
 */
static inline const uint8_t *wire_len(struct xp_wire *w, const uint8_t *p, const uint8_t *end,
				      const uint8_t **sub)
{
	struct wire_u64 s;
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
		s = wire_varint_slow(w, p, end, 5, "length prefix longer than 5 bytes");
		if (!s.p)
			return NULL;
		n = s.v;
	}
	if (unlikely(n > (uint64_t)(end - s.p)))
		return end == w->limit ? wire_cut(w, p, n, (size_t)(end - s.p))
				       : wire_bad(w, p, "length past the end of the enclosing message");
	*sub = s.p;
	return s.p + n;
}

static __attribute__((noinline, unused)) const uint8_t *wire_skip_other(struct xp_wire *w,
									const uint8_t *p,
									const uint8_t *end,
									unsigned wt)
{
	switch (wt) {
	case WT_I64:
		return end - p < 8 ? wire_bad(w, p, "truncated fixed64") : p + 8;
	case WT_I32:
		return end - p < 4 ? wire_bad(w, p, "truncated fixed32") : p + 4;
	case WT_SGROUP:
	case WT_EGROUP:
		return wire_bad(w, p, "group wire type");
	default:
		return wire_bad(w, p, "invalid wire type");
	}
}

/* Skips the value of a field whose tag has just been read. */
static inline const uint8_t *wire_skip(struct xp_wire *w, const uint8_t *p, const uint8_t *end,
				       unsigned wt)
{
	const uint8_t *s;

	if (wt == WT_VARINT)
		return wire_skip_varint(w, p, end);
	if (wt == WT_LEN)
		return wire_len(w, p, end, &s);
	return wire_skip_other(w, p, end, wt);
}

/* The value of known fields, checked against their wire type (tag at tag_at). */
static inline const uint8_t *wire_varint_field(struct xp_wire *w, const uint8_t *p,
					       const uint8_t *end, const uint8_t *tag_at,
					       uint32_t field, unsigned wt, uint64_t *v)
{
	if (unlikely(wt != WT_VARINT))
		return wire_bad_type(w, tag_at, field);
	return wire_varint(w, p, end, v);
}

static inline const uint8_t *wire_len_field(struct xp_wire *w, const uint8_t *p,
					    const uint8_t *end, const uint8_t *tag_at,
					    uint32_t field, unsigned wt, const uint8_t **sub)
{
	if (unlikely(wt != WT_LEN)) {
		*sub = p;
		return wire_bad_type(w, tag_at, field);
	}
	return wire_len(w, p, end, sub);
}

#endif
