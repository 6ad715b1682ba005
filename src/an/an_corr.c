/* SPDX-License-Identifier: Apache-2.0 */
#include "an_corr.h"

#include <stdlib.h>
#include <string.h>

static uint64_t id_at(const struct an_corr_index *x, size_t i)
{
	uint64_t v;

	memcpy(&v, x->base + i * x->stride + x->off, sizeof(v));
	return v;
}

void an_corr_index_build(struct an_corr_index *x, const void *base, size_t n, size_t stride, size_t off)
{
	uint64_t lo, span, k;
	size_t j = 0;

	memset(x, 0, sizeof(*x));
	x->base = base;
	x->n = n;
	x->stride = stride;
	x->off = off;
	if (!n || n >= UINT32_MAX)
		return;
	lo = id_at(x, 0);
	span = id_at(x, n - 1) - lo;
	if (span >= 4 * (uint64_t)n + 1024)
		return;
	span++;
	x->first = malloc((size_t)(span + 1) * sizeof(*x->first));
	if (!x->first)
		return;
	for (k = 0; k < span; k++) {	/* lo + k <= the largest id: no wrap */
		while (j < n && id_at(x, j) < lo + k)
			j++;
		x->first[k] = (uint32_t)j;
	}
	x->first[span] = (uint32_t)n;
	x->min = lo;
	x->span = span;
}

size_t an_corr_range(const struct an_corr_index *x, uint64_t id, size_t *first)
{
	size_t lo = 0, hi = x->n, last;

	if (x->first) {
		uint64_t k = id - x->min;	/* an id below the least wraps past the span */

		if (k >= x->span) {
			*first = id < x->min ? 0 : x->n;
			return 0;
		}
		*first = x->first[k];
		return x->first[k + 1] - x->first[k];
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (id_at(x, mid) < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	for (hi = x->n; lo < hi;) {
		size_t mid = lo + (hi - lo) / 2;

		if (id_at(x, mid) <= id)
			lo = mid + 1;
		else
			hi = mid;
	}
	last = lo;
	return last - *first;
}

void an_corr_index_release(struct an_corr_index *x)
{
	free(x->first);
	memset(x, 0, sizeof(*x));
}
