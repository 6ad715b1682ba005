/* SPDX-License-Identifier: Apache-2.0 */
/* Stragglers: which device of a host the others wait for (an_straggle.h). */
#include "an_straggle.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "an_group.h"
#include "xp_hmap.h"

/* One execution: its function (an index), its number k among the function's on its device, its device (an index into the result), its end and duration. */
struct rec {
	size_t fn, k, dev;
	int64_t end, dur;
};

void an_strag_init(struct an_strag_result *r)
{
	memset(r, 0, sizeof(*r));
	xp_arena_init(&r->arena);
}

/* The result's device of host and plane, made on first sight; SIZE_MAX when out of memory. */
static size_t device_of(struct an_strag_result *r, const char *host, const char *plane)
{
	struct an_strag_device *d;
	size_t i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->devices[i].plane, plane) && an_same_host(r->devices[i].host, host))
			return i;
	if (xp_grow(&r->devices, &r->cap, r->n, sizeof(*r->devices), 8))
		return SIZE_MAX;
	d = &r->devices[r->n];
	memset(d, 0, sizeof(*d));
	if (!(d->plane = d->name = xp_arena_strndup(&r->arena, plane, strlen(plane))) ||
	    (host && !(d->host = xp_arena_strndup(&r->arena, host, strlen(host)))))
		return SIZE_MAX;
	return r->n++;
}

static int cmp_rec(const void *a, const void *b)
{
	const struct rec *x = a, *y = b;

	if (x->fn != y->fn)
		return x->fn < y->fn ? -1 : 1;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return (x->dev > y->dev) - (x->dev < y->dev);
}

/* One group: g[0..n) of one function and number, by device. */
static void add_group(struct an_strag_result *r, const struct rec *g, size_t n)
{
	int64_t first = g[0].end, lastend = g[0].end, shortest = g[0].dur;
	size_t i, last = 0, tied = 0;

	for (i = 1; i < n; i++) {
		if (g[i].end < first)
			first = g[i].end;
		if (g[i].dur < shortest)
			shortest = g[i].dur;
		if (g[i].end > lastend) {
			lastend = g[i].end;
			last = i;
			tied = 0;
		} else if (g[i].end == lastend) {
			tied = 1;
		}
	}
	r->groups++;
	for (i = 0; i < n; i++) {
		struct an_strag_device *d = &r->devices[g[i].dev];

		d->groups++;
		d->late_ps += (double)(g[i].end - first);
		d->waited_ps += (double)(lastend - g[i].end);
		d->slow_ps += (double)(g[i].dur - shortest);
	}
	if (!tied)
		r->devices[g[last].dev].last++;
}

/*
 * One function's groups, from v (sorted; *used set to how many are the
 * function's): added when every group has as many devices (each device
 * that ran it ran it as often), else the function is left out.
 */
static void add_function(struct an_strag_result *r, const struct rec *v, size_t n, size_t *used)
{
	size_t i, k, size = 0, ok = 1, end;

	for (end = 1; end < n && v[end].fn == v[0].fn; end++)
		;
	*used = end;
	for (i = 0; i < end; i = k) {
		for (k = i + 1; k < end && v[k].k == v[i].k; k++)
			;
		if (!size)
			size = k - i;
		ok &= k - i == size;
	}
	if (size < 2)
		return;	/* one device ran it */
	if (!ok) {
		r->unmatched++;
		return;
	}
	for (i = 0; i < end; i = k) {
		for (k = i + 1; k < end && v[k].k == v[i].k; k++)
			;
		add_group(r, v + i, k - i);
	}
}

/* The index of key in m, a new one (*n) when first seen; SIZE_MAX when out of memory. */
static size_t index_of(struct xp_hmap *m, const char *key, size_t *n)
{
	size_t at = *n;
	int found = xp_hmap_get_or_put(m, key, &at);

	if (found < 0)
		return SIZE_MAX;
	if (!found)
		(*n)++;
	return at;
}

int an_strag_add(struct an_strag_result *r, const struct xp_trace *t, const struct an_exec_list *l,
		 struct xp_err *err)
{
	const char *host = l->hostname && *l->hostname ? l->hostname : NULL;
	struct rec *v = calloc(l->n + 1, sizeof(*v));
	size_t *dev = calloc(l->ndevices + 1, sizeof(*dev)), *count = calloc(l->n + 1, sizeof(*count));
	struct xp_hmap fns = {0}, seen = {0};
	int64_t base = INT64_MAX;
	size_t i, k, nfns = 0, nseen = 0;
	int ret = XP_ERR_NOMEM;

	if (!v || !dev || !count)
		goto out;
	for (i = 0; i < l->ndevices; i++) {
		const struct xp_plane *p = &t->planes[l->devices[i].plane];

		if ((dev[i] = device_of(r, host, l->devices[i].name)) == SIZE_MAX)
			goto out;
		if (p->base_ns < base)
			base = p->base_ns;
	}
	for (i = 0; i < l->n; i++) {
		const struct an_exec *x = &l->execs[i];
		const struct xp_plane *p = &t->planes[l->devices[x->device].plane];
		__int128 end = ((__int128)p->base_ns - base) * 1000 + x->start_ps + x->span_ps;
		char *key;
		size_t at;

		/* a function: its name and program (the name's length first, so no name can pass for another) */
		if (asprintf(&key, "%zu:%s\x1f%s%" PRIu64, strlen(x->name), x->name, x->has_program_id ? "p" : "",
			     x->has_program_id ? x->program_id : 0) < 0)
			goto out;
		v[i].fn = index_of(&fns, key, &nfns);
		free(key);
		/* the k-th execution of the function on its device (run ids count per device in some traces) */
		if (v[i].fn == SIZE_MAX || asprintf(&key, "%" PRIu32 ":%zu", x->device, v[i].fn) < 0)
			goto out;
		at = index_of(&seen, key, &nseen);
		free(key);
		if (at == SIZE_MAX)
			goto out;
		v[i].k = count[at]++;
		v[i].dev = dev[x->device];
		/* on the host's clock: the planes' bases apart, then the execution's own times */
		if (end > INT64_MAX || end < INT64_MIN) {
			ret = xp_err_set(err, XP_ERR_LIMIT, "device planes '%s' and others are based too far apart "
					 "to compare their ends", p->name);
			goto out;
		}
		v[i].end = (int64_t)end;
		v[i].dur = x->span_ps;
	}
	if (l->n > 1)
		qsort(v, l->n, sizeof(*v), cmp_rec);
	for (i = 0; i < l->n; i += k)
		add_function(r, v + i, l->n - i, &k);
	ret = 0;
out:
	xp_hmap_release(&fns);
	xp_hmap_release(&seen);
	free(v);
	free(dev);
	free(count);
	if (ret == XP_ERR_NOMEM)
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	return ret;
}

static int cmp_late(const void *a, const void *b)
{
	const struct an_strag_device *x = a, *y = b;

	if (x->late_ps != y->late_ps)
		return x->late_ps > y->late_ps ? -1 : 1;
	return strcmp(x->name, y->name);
}

static const struct an_host_fields strag_hosts = {
	sizeof(struct an_strag_device), offsetof(struct an_strag_device, name),
	offsetof(struct an_strag_device, host), offsetof(struct an_strag_device, plane),
};

int an_strag_finish(struct an_strag_result *r, struct xp_err *err)
{
	if (r->n && !(r->hosts = an_name_by_host(r->devices, r->n, &strag_hosts, &r->arena)))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if (r->n > 1)
		qsort(r->devices, r->n, sizeof(*r->devices), cmp_late);
	return 0;
}

void an_strag_release(struct an_strag_result *r)
{
	free(r->devices);
	xp_arena_release(&r->arena);
	memset(r, 0, sizeof(*r));
}
