/* SPDX-License-Identifier: Apache-2.0 */
/* The wire reader's counting pass: what a plane holds, to size its arrays before the fill. */
#include <string.h>

#include "xp_read_wire.h"

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
		p = wire_skip_varint(&r->w, p + 1, end);
	if (likely(p && p < end && *p == (2 << 3 | WT_VARINT)))
		p = wire_skip_varint(&r->w, p + 1, end);
	if (likely(p && p < end && *p == (3 << 3 | WT_VARINT)))
		p = wire_skip_varint(&r->w, p + 1, end);
	if (!p)
		return XP_ERR_FORMAT;
	while (p < end) {
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (wt == WT_VARINT) {
			if (f == 2 || f == 5)
				agg = f == 5;
			p = wire_skip_varint(&r->w, p, end);
		} else if (wt == WT_LEN) {
			p = wire_len(&r->w, p, end, &s);
		} else {
			p = wire_skip_other(&r->w, p, end, wt);
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
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (f == 4 && wt == WT_LEN) {
			p = wire_len(&r->w, p, end, &s);
			if (!p)
				return XP_ERR_FORMAT;
			ret = count_event(r, s, p, c);
			if (ret)
				return ret;
		} else {
			p = wire_skip(&r->w, p, end, wt);
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
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (f != 2 || wt != WT_LEN) {
			p = wire_skip(&r->w, p, end, wt);
			if (!p)
				return XP_ERR_FORMAT;
			continue;
		}
		e = p = wire_len(&r->w, p, end, &s);
		if (!p)
			return XP_ERR_FORMAT;
		while (s < e) {
			s = wire_tag(&r->w, s, e, &f, &wt);
			if (s && f == 5 && wt == WT_LEN) {
				s = wire_len(&r->w, s, e, &sub);
				c->stats++;
			} else if (s) {
				s = wire_skip(&r->w, s, e, wt);
			}
			if (!s)
				return XP_ERR_FORMAT;
		}
	}
	return 0;
}

int xp_wire_count_plane(struct rd *r, const uint8_t *p, const uint8_t *end, struct plane_counts *c)
{
	const uint8_t *s;
	uint32_t f;
	unsigned wt;
	int ret = 0;

	memset(c, 0, sizeof(*c));
	while (p < end) {
		p = wire_tag(&r->w, p, end, &f, &wt);
		if (!p)
			return XP_ERR_FORMAT;
		if (wt != WT_LEN || f < 3 || f > 6) {
			p = wire_skip(&r->w, p, end, wt);
			if (!p)
				return XP_ERR_FORMAT;
			continue;
		}
		p = wire_len(&r->w, p, end, &s);
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
