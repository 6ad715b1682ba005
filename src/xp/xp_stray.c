/* SPDX-License-Identifier: Apache-2.0 */
#include "xp_stray.h"

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "xp_sort.h"

struct span {
	int64_t start, end;
	size_t ev;		/* index in p->events */
};

static int by_end(const void *a, const void *b)
{
	const struct span *x = a, *y = b;

	if (x->end != y->end)
		return x->end < y->end ? -1 : 1;
	return x->ev < y->ev ? -1 : x->ev > y->ev;
}

/*
 * The k-th smallest (0-based) of a[0..n), which it reorders, in *out; -1 when
 * out of memory. The pivot is the median of three places picked by a fixed
 * pseudo-random sequence: the first, middle and last place of the range
 * chose badly on ends gathered line by line, a few sorted runs one after
 * another (every round took off a sliver: 128 rounds were not enough on the
 * TPU bench trace). Past 128 rounds anyway, a sort decides.
 */
static int select_kth(int64_t *a, size_t n, size_t k, int64_t *out)
{
	ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1, want = (ptrdiff_t)k;
	uint64_t seed = 0x9e3779b97f4a7c15ull;
	int rounds = 0;

	while (lo < hi) {
		uint64_t span = (uint64_t)(hi - lo) + 1;
		int64_t x, y, z, pivot, t;
		ptrdiff_t i = lo, j = hi;

		if (++rounds > 128) {
			if (xp_sort_by_i64(a, n, sizeof(*a), 0))
				return -1;
			break;
		}
#define NEXT_PLACE (seed = seed * 6364136223846793005ull + 1442695040888963407ull, \
		    lo + (ptrdiff_t)((seed >> 16) % span))
		x = a[NEXT_PLACE];
		y = a[NEXT_PLACE];
		z = a[NEXT_PLACE];
#undef NEXT_PLACE
		pivot = x < y ? (y < z ? y : x < z ? z : x) : (x < z ? x : y < z ? z : y);
		while (i <= j) {
			while (a[i] < pivot)
				i++;
			while (a[j] > pivot)
				j--;
			if (i <= j) {
				t = a[i];
				a[i++] = a[j];
				a[j--] = t;
			}
		}
		if (want <= j)
			hi = j;
		else if (want >= i)
			lo = i;
		else
			break;
	}
	*out = a[want];
	return 0;
}

/*
 * Whether the plane's used events can hold no stray end, known in O(n)
 * without sorting (every real trace): for any k <= n/10, REST keeps the
 * n - n/10 earliest-ending events, so its latest end is at least Q, the
 * (n - n/10)-th smallest end, and its window at least Q - S, S the smallest
 * start among events ending before Q. A stray end must then end after
 * Q + 10 (Q - S); if even the latest end E does not, there is none.
 *
 * Any q <= Q serves as well: with s the smallest start among events ending
 * before q (s >= S), E - Q <= E - q and q - s <= Q - S, so E - q <= 10 (q - s)
 * proves it too. q is first taken from a sample (the 80th percentile of
 * evenly spaced events: one pass over the events then proves q <= Q by
 * counting the ends below it, and gives s and E); where that does not
 * decide, Q itself by selection over a copy of the ends.
 */
#define STRAY_SAMPLE 1024

/* One pass: how many used ends lie below q, the smallest start among them, the largest end. */
static size_t below(const struct xp_plane *p, const unsigned char *use_line, int64_t q, int64_t *s_min,
		    int64_t *e_max)
{
	size_t i, j, m = 0;
	int64_t s = INT64_MAX, e = INT64_MIN;

	for (i = 0; i < p->nlines; i++) {
		const struct xp_line *l = &p->lines[i];

		for (j = l->first_event; (!use_line || use_line[i]) && j < l->first_event + l->nevents; j++) {
			int64_t st = p->events[j].start_ps, en = st + p->events[j].dur_ps;

			if (en > e)
				e = en;
			if (en < q) {
				m++;
				if (st < s)
					s = st;
			}
		}
	}
	*s_min = s;
	*e_max = e;
	return m;
}

static int proves_none(int64_t q, int64_t s_min, int64_t e_max)
{
	return s_min != INT64_MAX && q > s_min &&
	       (__int128)e_max - q <= (__int128)XP_STRAY_WINDOWS * ((__int128)q - s_min);
}

static int surely_none(const struct xp_plane *p, const unsigned char *use_line, size_t n,
		       int64_t *ends)
{
	int64_t q, e_max, s_min;
	size_t i, j, m = 0, want = n - n / 10 - 1;	/* Q is the want-th smallest (0-based) */

	if (n >= 4 * STRAY_SAMPLE) {
		size_t step = n / STRAY_SAMPLE, k = 0, ns = 0;

		for (i = 0; i < p->nlines && ns < STRAY_SAMPLE; i++) {
			const struct xp_line *l = &p->lines[i];

			if (use_line && !use_line[i])
				continue;
			/* the used events numbered k, k + 1, ...: take every step-th */
			for (j = (k + step - 1) / step * step; j < k + l->nevents && ns < STRAY_SAMPLE; j += step) {
				const struct xp_event *e = &p->events[l->first_event + (j - k)];

				ends[ns++] = e->start_ps + e->dur_ps;
			}
			k += l->nevents;
		}
		if (ns && !select_kth(ends, ns, ns * 4 / 5, &q) &&
		    below(p, use_line, q, &s_min, &e_max) <= want && proves_none(q, s_min, e_max))
			return 1;
	}
	for (i = 0; i < p->nlines; i++) {
		const struct xp_line *l = &p->lines[i];

		for (j = l->first_event; (!use_line || use_line[i]) && j < l->first_event + l->nevents; j++)
			ends[m++] = p->events[j].start_ps + p->events[j].dur_ps;
	}
	if (select_kth(ends, n, want, &q))
		return 0;
	(void)below(p, use_line, q, &s_min, &e_max);
	return proves_none(q, s_min, e_max);
}

int xp_plane_stray_ends(const struct xp_plane *p, const unsigned char *use_line,
			unsigned char *stray, size_t *count, struct xp_err *err)
{
	struct span *s = NULL;
	int64_t *min_start = NULL;	/* [i]: the smallest start of s[0..i] */
	int64_t max_start;		/* of the k latest-ending events */
	size_t n = 0, i, j, k;
	int ret = 0;

	*count = 0;
	if (p->nevents)
		memset(stray, 0, p->nevents);
	for (i = 0; i < p->nlines; i++)
		if (!use_line || use_line[i])
			n += p->lines[i].nevents;
	if (n < XP_STRAY_MIN_REST + 1)
		return 0;
	s = xp_malloc_big(n, sizeof(*s));
	min_start = xp_malloc_big(n, sizeof(*min_start));
	if (!s || !min_start) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	if (surely_none(p, use_line, n, min_start))
		goto out;
	n = 0;
	for (i = 0; i < p->nlines; i++) {
		const struct xp_line *l = &p->lines[i];

		if (use_line && !use_line[i])
			continue;
		for (j = l->first_event; j < l->first_event + l->nevents; j++) {
			/* start + dur cannot overflow: xp_plane_finish refuses such events */
			s[n].start = p->events[j].start_ps;
			s[n].end = p->events[j].start_ps + p->events[j].dur_ps;
			s[n].ev = j;
			n++;
		}
	}
	/* by end, then event: s is in event order and the radix sort is stable */
	if (xp_sort_by_i64(s, n, sizeof(*s), offsetof(struct span, end)))
		qsort(s, n, sizeof(*s), by_end);
	for (i = 0; i < n; i++)
		min_start[i] = i && min_start[i - 1] < s[i].start ? min_start[i - 1] : s[i].start;
	max_start = INT64_MIN;
	for (k = 1; k <= n / 10 && n - k >= XP_STRAY_MIN_REST; k++) {
		size_t r = n - k;	/* REST is s[0..r-1]; the k latest are s[r..n-1] */
		/* 128 bits: ends and starts span the whole int64 range */
		__int128 rest_end = s[r - 1].end, w = rest_end - min_start[r - 1];

		if (s[r].start > max_start)
			max_start = s[r].start;
		if (w <= 0 || max_start > rest_end)
			continue;
		/* s[r] ends first of the k: if it is past the mark, all are */
		if ((__int128)s[r].end - rest_end > (__int128)XP_STRAY_WINDOWS * w) {
			for (i = r; i < n; i++)
				stray[s[i].ev] = 1;
			*count = k;
			break;
		}
	}
out:
	free(s);
	free(min_start);
	return ret;
}

/* The bucket of an end (sign and magnitude, in order): 0..63 negative, 64 zero, 65..127 positive. */
static inline unsigned end_bucket(int64_t x)
{
	if (x > 0)
		return 65 + (63 - (unsigned)__builtin_clzll((uint64_t)x));
	if (!x)
		return 64;
	return (unsigned)__builtin_clzll((uint64_t)0 - (uint64_t)x);
}

/* The smallest and largest value of bucket b. */
static void bucket_range(unsigned b, int64_t *lo, int64_t *hi)
{
	unsigned lg;

	if (b == 64) {
		*lo = *hi = 0;
	} else if (b > 64) {
		lg = b - 65;	/* [2^lg, 2^(lg+1) - 1] */
		*lo = (int64_t)1 << lg;
		*hi = lg == 62 ? INT64_MAX : ((int64_t)1 << (lg + 1)) - 1;
	} else {
		lg = 63 - b;	/* [-(2^(lg+1) - 1), -2^lg] */
		*hi = lg == 63 ? INT64_MIN : -((int64_t)1 << lg);
		*lo = lg == 63 ? INT64_MIN : lg == 62 ? -INT64_MAX : -(((int64_t)1 << (lg + 1)) - 1);
	}
}

void xp_line_spans_add(struct xp_line_spans *ls, const struct xp_event *ev, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		int64_t st = ev[i].start_ps, en, rel;
		unsigned b;

		if (ev[i].dur_ps < 0 || __builtin_add_overflow(st, ev[i].dur_ps, &en)) {
			ls->bad = 1;
			continue;
		}
		if (!ls->n) {
			ls->origin = en;
			ls->min_start = ls->max_start = st;
			ls->max_end = en;
		}
		if (__builtin_sub_overflow(en, ls->origin, &rel)) {
			ls->bad = 1;
			continue;
		}
		b = end_bucket(rel);
		if (!ls->count[b]++ || st < ls->first_start[b])
			ls->first_start[b] = st;
		if (!ls->n++)
			continue;
		if (st < ls->min_start)
			ls->min_start = st;
		if (st > ls->max_start)
			ls->max_start = st;
		if (en > ls->max_end)
			ls->max_end = en;
	}
}

/* A bucket moved to the plane's base: its lowest possible end, or its highest and its first start. */
struct mark {
	int64_t at;
	uint64_t count;		/* of the lowest ends */
	int64_t start;		/* of the highest */
};

static int by_at(const void *a, const void *b)
{
	const struct mark *x = a, *y = b;

	return x->at < y->at ? -1 : x->at > y->at;
}

/*
 * The proof of surely_none, from buckets: a bucket's events are counted
 * below q when its lowest possible end is (so at most want below q proves
 * q <= Q), and their first start is taken for s only when its highest is
 * (s is then at least the true one). Either way the proof stays sound.
 */
int xp_plane_spans_no_stray(const struct xp_plane *p, struct xp_plane_span *spans, struct xp_err *err)
{
	struct mark *lows = NULL, *highs = NULL;
	size_t i, nl = 0, nh = 0, n = 0, want;
	int64_t e_max = INT64_MIN, s_min = INT64_MAX, q = INT64_MIN;
	uint64_t below_q = 0;
	unsigned b;
	int ret = XP_ERR_AGAIN, have_q = 0;

	memset(spans, 0, p->nlines * sizeof(*spans));
	for (i = 0; i < p->nlines; i++) {
		const struct xp_line *l = &p->lines[i];
		const struct xp_line_spans *ls = l->user;
		int64_t delta;

		if (!l->nevents)
			continue;
		/* the base and line deltas are checked by xp_plane_finish */
		if (!ls || ls->bad || ls->n != l->nevents ||
		    __builtin_mul_overflow(l->timestamp_ns - p->base_ns, (int64_t)1000, &delta) ||
		    __builtin_add_overflow(ls->max_start, delta, &spans[i].first_ps) ||
		    __builtin_add_overflow(ls->max_end, delta, &spans[i].last_end_ps))
			return XP_ERR_AGAIN;
		spans[i].first_ps = ls->min_start + delta;
		if (spans[i].last_end_ps > e_max)
			e_max = spans[i].last_end_ps;
		n += l->nevents;
	}
	if (n < XP_STRAY_MIN_REST + 1)
		return 0;
	for (i = 0; i < p->nlines; i++)	/* the buckets in use: the marks' room */
		for (b = 0; p->lines[i].nevents && b < XP_SPAN_BUCKETS; b++)
			nl += ((const struct xp_line_spans *)p->lines[i].user)->count[b] != 0;
	lows = malloc((nl + 1) * sizeof(*lows));
	highs = malloc((nl + 1) * sizeof(*highs));
	nl = 0;
	if (!lows || !highs) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	for (i = 0; i < p->nlines; i++) {
		const struct xp_line_spans *ls = p->lines[i].user;
		int64_t delta;

		if (!p->lines[i].nevents)	/* its time is checked nowhere: it may be anything */
			continue;
		/* checked above: the line's times and their moves stay in int64 */
		delta = (p->lines[i].timestamp_ns - p->base_ns) * 1000;
		for (b = 0; b < XP_SPAN_BUCKETS; b++) {
			int64_t lo, hi;
			__int128 at;

			if (!ls->count[b])
				continue;
			bucket_range(b, &lo, &hi);
			/* the bucket's ends lie within [lo, hi] + origin and at most max_end */
			at = (__int128)lo + ls->origin;
			lows[nl].at = at < INT64_MIN ? INT64_MIN : (int64_t)at + delta;
			lows[nl++].count = ls->count[b];
			at = (__int128)hi + ls->origin;
			highs[nh].at = (at > ls->max_end ? ls->max_end : (int64_t)at) + delta;
			highs[nh++].start = ls->first_start[b] + delta;
		}
	}
	/* q: the highest lowest-end with at most want ends surely... possibly below it */
	want = n - n / 10 - 1;
	qsort(lows, nl, sizeof(*lows), by_at);
	for (i = 0; i < nl && below_q <= want;) {
		int64_t v = lows[i].at;

		q = v;
		have_q = 1;
		while (i < nl && lows[i].at == v)
			below_q += lows[i++].count;
	}
	for (i = 0; have_q && i < nh; i++)
		if (highs[i].at < q && highs[i].start < s_min)
			s_min = highs[i].start;
	if (have_q && proves_none(q, s_min, e_max))
		ret = 0;
out:
	free(lows);
	free(highs);
	return ret;
}
