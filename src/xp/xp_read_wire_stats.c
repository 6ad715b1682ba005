/* SPDX-License-Identifier: Apache-2.0 */
/* An event's own stats where the wire reader left them in the input (XP_EVSTATS_INPUT). */
#include <assert.h>
#include <string.h>

#include "xp_guard.h"
#include "xp_read_wire.h"

const struct xp_stat *xp_event_own_stats(const struct xp_plane *p, const struct xp_event *e,
					 struct xp_stat *buf)
{
	struct xp_err err;
	struct xp_wire w;
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
	w.base = p->stats_at;
	w.limit = p->stats_end;
	w.err = &err;
	/* The read checked these bytes: the event's fields, up to its last stat. */
	for (q = p->stats_at + e->stats_first; n < e->nstats && q;) {
		at = q;
		q = wire_tag(&w, q, p->stats_end, &f, &wt);
		if (q && f == 4) {
			q = wire_len_field(&w, q, p->stats_end, at, f, wt, &s);
			sv = NULL;
			slen = 0;
			if (!q || decode_stat(&w, s, q, &buf[n], &sv, &slen))
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
			q = wire_skip(&w, q, p->stats_end, wt);
		}
	}
	/* fewer only where the file shrank since the read checked them: zeros there (xp_guard.h) */
	assert(n == e->nstats || xp_guard_changed_at(p->stats_at));
	for (; n < e->nstats; n++)
		memset(&buf[n], 0, sizeof(buf[n]));
	return buf;
}
