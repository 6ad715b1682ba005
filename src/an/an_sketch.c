/* SPDX-License-Identifier: Apache-2.0 */
#include "an_sketch.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned __int128 u128;

/* ---- wide integers: little-endian 64-bit limbs ------------------------------ */

/* out[na + nb] = a * b */
static void mul_limbs(const uint64_t *a, size_t na, const uint64_t *b, size_t nb, uint64_t *out)
{
	size_t i, j;

	memset(out, 0, (na + nb) * sizeof(*out));
	for (i = 0; i < na; i++) {
		uint64_t carry = 0;

		for (j = 0; j < nb; j++) {
			u128 t = (u128)a[i] * b[j] + out[i + j] + carry;

			out[i + j] = (uint64_t)t;
			carry = (uint64_t)(t >> 64);
		}
		out[i + nb] = carry;
	}
}

/* a - b over n limbs into out; returns the borrow (1: a < b). */
static int sub_limbs(const uint64_t *a, const uint64_t *b, size_t n, uint64_t *out)
{
	uint64_t borrow = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t d = a[i] - b[i] - borrow;

		borrow = a[i] < b[i] || (a[i] == b[i] && borrow);
		out[i] = d;
	}
	return (int)borrow;
}

/* a <=> b over n limbs */
static int cmp_limbs(const uint64_t *a, const uint64_t *b, size_t n)
{
	while (n--)
		if (a[n] != b[n])
			return a[n] < b[n] ? -1 : 1;
	return 0;
}

/* The value as a double: its top 128 bits rounded once, scaled. */
static double limbs_double(const uint64_t *w, size_t n)
{
	size_t top = n;

	while (top && !w[top - 1])
		top--;
	if (!top)
		return 0;
	if (top == 1)
		return (double)w[0];
	return ldexp((double)((u128)w[top - 1] << 64 | w[top - 2]), (int)(64 * (top - 2)));
}

static void u128_limbs(u128 v, uint64_t w[2])
{
	w[0] = (uint64_t)v;
	w[1] = (uint64_t)(v >> 64);
}

/* ---- moments -------------------------------------------------------------- */

void an_moments_add(struct an_moments *m, int64_t v)
{
	u128 sq = (u128)(uint64_t)v * (uint64_t)v, lo = (u128)m->s2[1] << 64 | m->s2[0];
	u128 sum = lo + sq;

	if (!m->n || v < m->min)
		m->min = v;
	if (!m->n || v > m->max)
		m->max = v;
	m->n++;
	m->s1 += (uint64_t)v;
	m->s2[0] = (uint64_t)sum;
	m->s2[1] = (uint64_t)(sum >> 64);
	m->s2[2] += sum < lo;
}

void an_moments_merge(struct an_moments *d, const struct an_moments *s)
{
	u128 a, b, sum;

	if (!s->n)
		return;
	if (!d->n || s->min < d->min)
		d->min = s->min;
	if (!d->n || s->max > d->max)
		d->max = s->max;
	d->n += s->n;
	d->s1 += s->s1;
	a = (u128)d->s2[1] << 64 | d->s2[0];
	b = (u128)s->s2[1] << 64 | s->s2[0];
	sum = a + b;
	d->s2[0] = (uint64_t)sum;
	d->s2[1] = (uint64_t)(sum >> 64);
	d->s2[2] += s->s2[2] + (sum < a);
}

double an_moments_sum(const struct an_moments *m)
{
	return (double)m->s1;
}

/* n * s2 and s1^2, 256 bits each. */
static void numerator_parts(const struct an_moments *m, uint64_t ns2[4], uint64_t s1sq[4])
{
	uint64_t n1[1] = {m->n}, s1[2];

	u128_limbs(m->s1, s1);
	mul_limbs(m->s2, 3, n1, 1, ns2);
	mul_limbs(s1, 2, s1, 2, s1sq);
}

double an_moments_std(const struct an_moments *m)
{
	uint64_t a[4], b[4], d[4];

	if (m->n < 2)
		return 0;
	numerator_parts(m, a, b);
	if (sub_limbs(a, b, 4, d))
		return 0;	/* not moments of real values (an_moments_plausible refuses them) */
	return sqrt(limbs_double(d, 4)) / (double)m->n;
}

/* lo + k * hi for k < 2^64, 192 bits (w[3]). */
static void lo_plus_k_hi(u128 lo, uint64_t k, u128 hi, uint64_t w[4])
{
	uint64_t h[2], kk[1] = {k};
	u128 sum;

	u128_limbs(hi, h);
	mul_limbs(h, 2, kk, 1, w);
	w[3] = 0;
	sum = ((u128)w[1] << 64 | w[0]) + lo;
	w[2] += sum < lo;
	w[0] = (uint64_t)sum;
	w[1] = (uint64_t)(sum >> 64);
}

int an_moments_plausible(const struct an_moments *m)
{
	uint64_t a[4], b[4], lim[4], s2[4] = {m->s2[0], m->s2[1], m->s2[2], 0};
	u128 mn, mx;

	if (!m->n)
		return !m->s1 && !m->s2[0] && !m->s2[1] && !m->s2[2];
	if (m->min < 0 || m->min > m->max)
		return 0;
	mn = (uint64_t)m->min;
	mx = (uint64_t)m->max;
	/* one value is max and the others at least min; one is min and the others at most max */
	if (m->s1 < mx + (m->n - 1) * mn || m->s1 > mn + (m->n - 1) * mx)
		return 0;
	lo_plus_k_hi(mx * mx, m->n - 1, mn * mn, lim);
	if (cmp_limbs(s2, lim, 4) < 0)
		return 0;
	lo_plus_k_hi(mn * mn, m->n - 1, mx * mx, lim);
	if (cmp_limbs(s2, lim, 4) > 0)
		return 0;
	numerator_parts(m, a, b);
	return cmp_limbs(a, b, 4) >= 0;
}

void an_u192_format(const uint64_t w[3], char *buf, size_t n)
{
	uint64_t v[3] = {w[0], w[1], w[2]};
	char tmp[64];
	size_t len = 0;

	do {
		/* v /= 10, the remainder a digit, limb by limb from the top */
		u128 r = 0;
		int k;

		for (k = 2; k >= 0; k--) {
			u128 cur = r << 64 | v[k];

			v[k] = (uint64_t)(cur / 10);
			r = cur % 10;
		}
		tmp[len++] = (char)('0' + (int)r);
	} while (v[0] || v[1] || v[2]);
	if (!n)
		return;
	if (len >= n)
		len = n - 1;
	for (n = 0; n < len; n++)
		buf[n] = tmp[len - 1 - n];
	buf[len] = '\0';
}

int an_u192_parse(const char *s, uint64_t w[3])
{
	uint64_t v[3] = {0, 0, 0};

	if (!*s)
		return -1;
	for (; *s; s++) {
		uint64_t carry;
		int k;

		if (*s < '0' || *s > '9')
			return -1;
		carry = (uint64_t)(*s - '0');
		for (k = 0; k < 3; k++) {
			u128 t = (u128)v[k] * 10 + carry;

			v[k] = (uint64_t)t;
			carry = (uint64_t)(t >> 64);
		}
		if (carry)
			return -1;
	}
	memcpy(w, v, sizeof(v));
	return 0;
}

/* ---- the sketch ----------------------------------------------------------- */

static double log_gamma(void)
{
	return log1p(2 * AN_SKETCH_ALPHA / (1 - AN_SKETCH_ALPHA));
}

int32_t an_sketch_index(int64_t v)
{
	return v <= 1 ? 0 : (int32_t)ceil(log((double)v) / log_gamma());
}

int32_t an_sketch_max_index(void)
{
	return an_sketch_index(INT64_MAX);
}

double an_sketch_value(int32_t i)
{
	double g = (1 + AN_SKETCH_ALPHA) / (1 - AN_SKETCH_ALPHA);

	return 2 * exp((double)i * log_gamma()) / (g + 1);
}

static int room(struct an_sketch *s, size_t need)
{
	size_t cap = s->cap ? s->cap : 8;
	int32_t *ni;
	uint64_t *nc;

	if (need <= s->cap)
		return 0;
	while (cap < need)
		cap *= 2;
	if (!(ni = realloc(s->idx, cap * sizeof(*ni))))
		return -1;
	s->idx = ni;
	if (!(nc = realloc(s->cnt, cap * sizeof(*nc))))
		return -1;
	s->cnt = nc;
	s->cap = cap;
	return 0;
}

int an_sketch_push(struct an_sketch *s, int32_t idx, uint64_t count)
{
	if (room(s, s->n + 1))
		return -1;
	s->idx[s->n] = idx;
	s->cnt[s->n++] = count;
	return 0;
}

int an_sketch_merge(struct an_sketch *dst, const struct an_sketch *src)
{
	struct an_sketch m = {0};
	size_t i = 0, j = 0;

	dst->zeros += src->zeros;
	if (!src->n)
		return 0;
	if (room(&m, dst->n + src->n)) {
		an_sketch_release(&m);
		return -1;
	}
	while (i < dst->n || j < src->n) {
		if (j == src->n || (i < dst->n && dst->idx[i] < src->idx[j])) {
			m.idx[m.n] = dst->idx[i];
			m.cnt[m.n++] = dst->cnt[i++];
		} else if (i == dst->n || src->idx[j] < dst->idx[i]) {
			m.idx[m.n] = src->idx[j];
			m.cnt[m.n++] = src->cnt[j++];
		} else {
			m.idx[m.n] = dst->idx[i];
			m.cnt[m.n++] = dst->cnt[i++] + src->cnt[j++];
		}
	}
	m.zeros = dst->zeros;
	an_sketch_release(dst);
	*dst = m;
	return 0;
}

int an_sketch_add_sorted(struct an_sketch *s, const int64_t *v, size_t n)
{
	struct an_sketch add = {0};
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		int32_t k;

		if (v[i] <= 0) {
			add.zeros++;
			continue;
		}
		k = an_sketch_index(v[i]);
		if (add.n && add.idx[add.n - 1] == k) {
			add.cnt[add.n - 1]++;
		} else if (an_sketch_push(&add, k, 1)) {
			an_sketch_release(&add);
			return -1;
		}
	}
	ret = an_sketch_merge(s, &add);
	an_sketch_release(&add);
	return ret;
}

uint64_t an_sketch_count(const struct an_sketch *s)
{
	uint64_t c = s->zeros;
	size_t i;

	for (i = 0; i < s->n; i++)
		c += s->cnt[i];
	return c;
}

double an_sketch_rank(const struct an_sketch *s, uint64_t k)
{
	uint64_t seen = s->zeros;
	size_t i;

	if (k <= seen)
		return 0;
	for (i = 0; i < s->n; i++) {
		seen += s->cnt[i];
		if (k <= seen)
			return an_sketch_value(s->idx[i]);
	}
	return s->n ? an_sketch_value(s->idx[s->n - 1]) : 0;
}

void an_sketch_release(struct an_sketch *s)
{
	free(s->idx);
	free(s->cnt);
	memset(s, 0, sizeof(*s));
}
