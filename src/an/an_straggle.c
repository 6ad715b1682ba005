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

/* A host's time for the k-th execution of function fn: its devices' longest. */
struct hrec {
	size_t fn, k;
	int64_t dur;
};

/* An input added with its path: where it lies, its host, its host times by (fn, k). */
struct an_strag_in_ {
	const char *path, *dir, *host;
	struct hrec *v;
	size_t n;
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

/*
 * The input's host times (v: its executions sorted by function, k and
 * device) kept for finish: per function whose devices ran it equally often,
 * per k the longest of its devices' durations. 0 or XP_ERR_NOMEM.
 */
static int keep_host_times(struct an_strag_result *r, const char *input, const char *host, const struct rec *v,
			   size_t n)
{
	struct an_strag_in_ *in;
	const char *slash = strrchr(input, '/');
	size_t i, k, j, end, size;
	int ok;

	if (xp_grow(&r->ins_, &r->cap_ins_, r->nins_, sizeof(*r->ins_), 8))
		return XP_ERR_NOMEM;
	in = &r->ins_[r->nins_];
	memset(in, 0, sizeof(*in));
	if (!(in->path = xp_arena_strndup(&r->arena, input, strlen(input))) ||
	    !(in->dir = slash ? xp_arena_strndup(&r->arena, input, (size_t)(slash - input)) : ".") ||
	    (host && !(in->host = xp_arena_strndup(&r->arena, host, strlen(host)))) ||
	    !(in->v = calloc(n + 1, sizeof(*in->v))))
		return XP_ERR_NOMEM;
	r->nins_++;
	for (i = 0; i < n; i = end) {
		for (end = i + 1; end < n && v[end].fn == v[i].fn; end++)
			;
		for (j = i, size = 0, ok = 1; j < end; j = k) {
			for (k = j + 1; k < end && v[k].k == v[j].k; k++)
				;
			if (!size)
				size = k - j;
			ok &= k - j == size;
		}
		if (!ok)	/* its devices ran it unequally often: marked, so that its run counts it left out */
			in->v[in->n++] = (struct hrec){v[i].fn, SIZE_MAX, 0};
		for (j = i; ok && j < end; j = k) {
			int64_t longest = v[j].dur;

			for (k = j + 1; k < end && v[k].k == v[j].k; k++)
				if (v[k].dur > longest)
					longest = v[k].dur;
			in->v[in->n++] = (struct hrec){v[j].fn, v[j].k, longest};
		}
	}
	return 0;
}

int an_strag_add(struct an_strag_result *r, const struct xp_trace *t, const struct an_exec_list *l,
		 struct xp_err *err)
{
	return an_strag_add_input(r, t, l, NULL, err);
}

int an_strag_add_input(struct an_strag_result *r, const struct xp_trace *t, const struct an_exec_list *l,
		       const char *input, struct xp_err *err)
{
	const char *host = l->hostname && *l->hostname ? l->hostname : NULL;
	struct rec *v = calloc(l->n + 1, sizeof(*v));
	size_t *dev = calloc(l->ndevices + 1, sizeof(*dev)), *count = calloc(l->n + 1, sizeof(*count));
	struct xp_hmap seen = {0};
	int64_t base = INT64_MAX;
	size_t i, k, nseen = 0;
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
		v[i].fn = index_of(&r->fn_keys_, key, &r->nfn_keys_);	/* one index per function over the inputs */
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
	ret = input ? keep_host_times(r, input, host, v, l->n) : 0;
out:
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

/* The host row named name (made on first sight); NULL when out of memory. */
static struct an_strag_host *host_row(struct an_strag_result *r, const char *name, size_t *cap)
{
	size_t i;

	for (i = 0; i < r->nhost_rows; i++)
		if (!strcmp(r->host_rows[i].name, name))
			return &r->host_rows[i];
	if (xp_grow(&r->host_rows, cap, r->nhost_rows, sizeof(*r->host_rows), 8))
		return NULL;
	memset(&r->host_rows[r->nhost_rows], 0, sizeof(*r->host_rows));
	r->host_rows[r->nhost_rows].name = name;
	return &r->host_rows[r->nhost_rows++];
}

/* In input x's host times, the first of function fn and how many (its k's): *at, returned. */
static size_t fn_times(const struct an_strag_in_ *x, size_t fn, size_t *at)
{
	size_t lo = 0, hi = x->n, n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (x->v[mid].fn < fn)
			lo = mid + 1;
		else
			hi = mid;
	}
	*at = lo;
	for (n = 0; lo + n < x->n && x->v[lo + n].fn == fn; n++)
		;
	return n;
}

/* The host groups of one run: its inputs m[0..nm), their rows row[0..nm). 0 or XP_ERR_NOMEM. */
static int run_host_groups(struct an_strag_result *r, const size_t *m, size_t nm, struct an_strag_host **row,
			   unsigned char *done)
{
	size_t a, i, j, k, K, at, at2;
	int64_t *t = malloc(nm * sizeof(*t));

	if (!t)
		return XP_ERR_NOMEM;
	memset(done, 0, r->nfn_keys_ + 1);
	r->host_runs++;
	for (a = 0; a < nm; a++) {
		const struct an_strag_in_ *x = &r->ins_[m[a]];

		for (i = 0; i < x->n; i++) {
			size_t fn = x->v[i].fn, ok = 1;

			if (done[fn])
				continue;
			done[fn] = 1;
			K = fn_times(x, fn, &at);
			for (j = 0; j < nm && ok; j++)
				ok = fn_times(&r->ins_[m[j]], fn, &at2) == K && r->ins_[m[j]].v[at2].k != SIZE_MAX;
			if (!ok) {
				r->host_unmatched++;	/* a host missed it, or ran it other times */
				continue;
			}
			for (k = 0; k < K; k++) {
				int64_t shortest = INT64_MAX, longest = INT64_MIN;
				size_t last = 0, tied = 0;

				for (j = 0; j < nm; j++) {
					fn_times(&r->ins_[m[j]], fn, &at2);
					t[j] = r->ins_[m[j]].v[at2 + k].dur;
					if (t[j] < shortest)
						shortest = t[j];
					if (t[j] > longest) {
						longest = t[j];
						last = j;
						tied = 0;
					} else if (t[j] == longest) {
						tied = 1;
					}
				}
				r->host_groups++;
				for (j = 0; j < nm; j++) {
					row[j]->groups++;
					row[j]->slow_ps += (double)(t[j] - shortest);
				}
				if (!tied)
					row[last]->slowest++;
			}
		}
	}
	free(t);
	return 0;
}

static int cmp_slow(const void *a, const void *b)
{
	const struct an_strag_host *x = a, *y = b;
	double sx = x->groups ? x->slow_ps / (double)x->groups : 0, sy = y->groups ? y->slow_ps / (double)y->groups : 0;

	if (sx != sy)
		return sx > sy ? -1 : 1;
	return strcmp(x->name, y->name);
}

/*
 * An input's name at a level: 0 its hostname (else as 1), 1 its file's
 * name less .xplane.pb[.gz], 2 its file's name, 3 its path (in the arena);
 * NULL when out of memory.
 */
static const char *host_label(struct an_strag_result *r, const struct an_strag_in_ *x, int level)
{
	const char *b = level < 3 && strrchr(x->path, '/') ? strrchr(x->path, '/') + 1 : x->path;
	size_t n = strlen(b);

	if (x->host && !level)
		return x->host;
	if (level < 2 && n > 13 && !strcmp(b + n - 13, ".xplane.pb.gz"))
		n -= 13;
	else if (level < 2 && n > 10 && !strcmp(b + n - 10, ".xplane.pb"))
		n -= 10;
	return xp_arena_strndup(&r->arena, b, n);
}

/*
 * The names of a run's inputs m[0..nm), distinct within it: their hosts,
 * or where two would share one (two processes of a host, a file named as
 * another's host) their file names less the suffix, their file names, their
 * paths (the first level at which they all differ). 0 or -1 when out of
 * memory.
 */
static int run_labels(struct an_strag_result *r, const size_t *m, size_t nm, const char **label)
{
	size_t i, j;
	int level, distinct = 0;

	for (level = 0; level < 4 && !distinct; level++) {
		for (i = 0; i < nm; i++)
			if (!(label[i] = host_label(r, &r->ins_[m[i]], level)))
				return -1;
		for (distinct = 1, i = 0; i < nm && distinct; i++)
			for (j = 0; j < i && distinct; j++)
				distinct = strcmp(label[i], label[j]) != 0;
	}
	return 0;
}

/* Each run of several hosts among the inputs added with paths compared host by host. 0 or XP_ERR_NOMEM. */
static int compare_hosts(struct an_strag_result *r)
{
	struct an_group_in *in = calloc(r->nins_ + 1, sizeof(*in));
	size_t *m = calloc(r->nins_ + 1, sizeof(*m)), cap = 0, i, run, nm;
	struct an_strag_host **row = calloc(r->nins_ + 1, sizeof(*row));
	const char **label = calloc(r->nins_ + 1, sizeof(*label));
	unsigned char *done = malloc(r->nfn_keys_ + 1);
	struct an_groups g = {0};
	int ret = XP_ERR_NOMEM;

	if (!in || !m || !row || !label || !done)
		goto out;
	for (i = 0; i < r->nins_; i++)
		in[i] = (struct an_group_in){r->ins_[i].path, r->ins_[i].dir, r->ins_[i].host};
	if (an_group_runs(in, r->nins_, (enum an_run_by)r->run_by, &g, NULL))
		goto out;
	for (run = 0; run < g.nruns; run++) {
		for (i = 0, nm = 0; i < r->nins_; i++)
			if (g.run[i] == run)
				m[nm++] = i;
		if (nm < 2)
			continue;
		if (run_labels(r, m, nm, label))
			goto out;
		for (i = 0; i < nm; i++)
			if (!host_row(r, label[i], &cap))
				goto out;
		/* rows move as they grow: each found once all are made */
		for (i = 0; i < nm; i++)
			row[i] = host_row(r, label[i], &cap);
		if (run_host_groups(r, m, nm, row, done))
			goto out;
	}
	if (r->nhost_rows > 1)
		qsort(r->host_rows, r->nhost_rows, sizeof(*r->host_rows), cmp_slow);
	ret = 0;
out:
	an_groups_release(&g);
	free(in);
	free(m);
	free(row);
	free(label);
	free(done);
	return ret;
}

int an_strag_finish(struct an_strag_result *r, struct xp_err *err)
{
	if (r->n && !(r->hosts = an_name_by_host(r->devices, r->n, &strag_hosts, &r->arena)))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	if (r->n > 1)
		qsort(r->devices, r->n, sizeof(*r->devices), cmp_late);
	if (r->nins_ > 1 && compare_hosts(r))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	return 0;
}

const struct an_strag_host *an_strag_slowest_host(const struct an_strag_result *r)
{
	const struct an_strag_host *best = NULL;
	size_t i;

	for (i = 0; i < r->nhost_rows; i++)
		if (2 * r->host_rows[i].slowest > r->host_rows[i].groups &&
		    (!best || r->host_rows[i].slowest > best->slowest))
			best = &r->host_rows[i];
	return best;
}

void an_strag_release(struct an_strag_result *r)
{
	size_t i;

	for (i = 0; i < r->nins_; i++)
		free(r->ins_[i].v);
	free(r->ins_);
	free(r->host_rows);
	xp_hmap_release(&r->fn_keys_);
	free(r->devices);
	xp_arena_release(&r->arena);
	memset(r, 0, sizeof(*r));
}
