/* SPDX-License-Identifier: Apache-2.0 */
/* Execution finding: each device plane scanned, its events grouped into executions, runs split. */
#include "an_exec.h"

#include "an_link.h"
#include "xp_sort.h"
#include "xp_sat.h"
#include "xp_stray.h"

#include <ctype.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

static int cmp_ev_ref(const void *a, const void *b)
{
	const struct an_ev_ref *x = a, *y = b;

	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

int an_exec_wants_plane(const char *name, void *device_pattern)
{
	return an_is_device_plane(name) &&
	       (!device_pattern || an_device_matches(name, device_pattern));
}

const char *an_split_fingerprint(struct xp_arena *a, const char *name, const char **fp)
{
	size_t n = strlen(name), i;

	*fp = NULL;
	if (n < 3 || name[n - 1] != ')')
		return xp_arena_strndup(a, name, n);
	for (i = n - 2; i > 0 && isdigit((unsigned char)name[i]); i--)
		;
	if (name[i] != '(' || i == n - 2 || i == 0)
		return xp_arena_strndup(a, name, n);
	*fp = xp_arena_strndup(a, name + i + 1, n - i - 2);
	return xp_arena_strndup(a, name, i);
}

/* --- per plane ---------------------------------------------------------------------- */

struct plane_ctx {
	struct xp_trace *t;
	struct xp_err *err;	/* set for errors other than out of memory */
	const struct xp_plane *p;
	const struct an_exec_opts *o;
	struct an_exec_list *out;
	struct an_host_link *host;
	int host_built;
	uint32_t device;
	struct an_scope_tree *scopes;	/* the trace's tree of scope ranges (empty: none) */
};

int an_scope_tree_build(const struct xp_plane *p, struct an_scope_tree *t)
{
	size_t i, n = 0;

	memset(t, 0, sizeof(*t));
	if (!p->npstats)
		return 0;
	if (!(t->e = malloc(p->npstats * sizeof(*t->e))))
		return XP_ERR_NOMEM;
	for (i = 0; i < p->npstats; i++) {
		const struct xp_stat *s = &p->stats[p->pstats_first + i];
		uint64_t parent;

		if (!xp_stat_u64(s, &parent))
			t->e[n++] = (struct an_scope_edge){(uint64_t)s->meta_id, parent};
	}
	/* by id, an id's edges in file order (a stable sort): the first kept */
	if (n > 1 && xp_sort_by_u64(t->e, n, sizeof(*t->e), offsetof(struct an_scope_edge, id))) {
		an_scope_tree_release(t);
		return XP_ERR_NOMEM;
	}
	for (i = 0, t->n = 0; i < n; i++) {
		if (t->n && t->e[t->n - 1].id == t->e[i].id)
			t->repeated++;
		else
			t->e[t->n++] = t->e[i];
	}
	if (!(t->parents = malloc((t->n + 1) * sizeof(*t->parents)))) {
		an_scope_tree_release(t);
		return XP_ERR_NOMEM;
	}
	for (i = 0; i < t->n; i++)
		t->parents[i] = t->e[i].parent;
	if (t->n > 1 && xp_sort_by_u64(t->parents, t->n, sizeof(*t->parents), 0)) {
		an_scope_tree_release(t);
		return XP_ERR_NOMEM;
	}
	for (i = 0; i < t->n; i++)
		if (!t->nparents || t->parents[t->nparents - 1] != t->parents[i])
			t->parents[t->nparents++] = t->parents[i];
	return 0;
}

/* The edge of id, or NULL. */
static const struct an_scope_edge *scope_edge(const struct an_scope_tree *t, uint64_t id)
{
	size_t k = xp_lower_bound_u64(t->e, t->n, sizeof(*t->e), offsetof(struct an_scope_edge, id), id);

	return k < t->n && t->e[k].id == id ? &t->e[k] : NULL;
}

int an_scope_tree_root(const struct an_scope_tree *t, uint64_t id, uint64_t *root)
{
	const struct an_scope_edge *e = scope_edge(t, id), *up;
	size_t k;
	int depth;

	if (!e) {	/* a root itself, when some scope names it as its parent */
		k = xp_lower_bound_u64(t->parents, t->nparents, sizeof(*t->parents), 0, id);
		if (k == t->nparents || t->parents[k] != id)
			return 0;
		*root = id;
		return 1;
	}
	for (depth = 0; depth < AN_SCOPE_RANGE_MAX_CLIMB; depth++) {
		if (e->parent == e->id) {	/* its own parent: a root */
			*root = e->id;
			return 1;
		}
		if (!(up = scope_edge(t, e->parent))) {	/* a parent with none above it */
			*root = e->parent;
			return 1;
		}
		e = up;
	}
	return 0;
}

void an_scope_tree_release(struct an_scope_tree *t)
{
	free(t->e);
	free(t->parents);
	memset(t, 0, sizeof(*t));
}

static struct an_exec *push_exec(struct an_exec_list *l)
{
	if (xp_grow(&l->execs, &l->cap, l->n, sizeof(*l->execs), 64))
		return NULL;
	memset(&l->execs[l->n], 0, sizeof(l->execs[0]));
	return &l->execs[l->n++];
}

/*
 * The function an event's hlo_module stat names: 1 with the name in *raw,
 * 0 when there is no such stat, -1 when it names nothing (a ref_value to
 * stat metadata the file lacks, or not a string), counted on the device.
 */
static int module_of(struct plane_ctx *c, const struct xp_event *e, const char **raw, size_t *len)
{
	const struct xp_stat *s = xp_event_stat(c->p, e, XP_K_HLO_MODULE);
	struct an_device *dev = &c->out->devices[c->device];

	*raw = NULL;
	*len = 0;
	if (!s)
		return 0;
	*raw = xp_stat_str(c->p, s, len);
	if (*raw)
		return 1;
	if (s->type == XP_STAT_REF)
		dev->module_ref_nowhere++;
	else
		dev->odd_stats[XP_K_HLO_MODULE]++;
	return -1;
}

/* A decimal string of at most 19 digits (no sign, no space) as a program id. */
static int digits_u64(const char *p, size_t len, uint64_t *out)
{
	size_t i;

	if (!len || len > 19)
		return -1;
	*out = 0;
	for (i = 0; i < len; i++) {
		if (p[i] < '0' || p[i] > '9')
			return -1;
		*out = *out * 10 + (uint64_t)(p[i] - '0');
	}
	return 0;
}

int an_stat_program_id(const struct xp_plane *p, const struct xp_stat *s, uint64_t *out)
{
	const char *str;
	size_t len;

	if (!xp_stat_u64(s, out))
		return 0;
	/* A string of digits is as clear a program id as an integer. */
	str = s->type == XP_STAT_STR || s->type == XP_STAT_BYTES ? xp_stat_str(p, s, &len) : NULL;
	return str ? digits_u64(str, len, out) : -1;
}

/*
 * Name, fingerprint and program id of a function event, named by raw (its
 * hlo_module, len bytes) or, when NULL, by its own metadata.
 */
static int describe(struct plane_ctx *c, const struct xp_event *e, const char *raw, size_t len,
		    struct an_exec *x)
{
	const struct xp_plane *p = c->p;
	const struct xp_stat *s;

	raw = raw ? xp_arena_strndup(&c->out->arena, raw, len) : xp_event_name(p, e);
	if (!raw)
		return XP_ERR_NOMEM;
	x->name = an_split_fingerprint(&c->out->arena, raw, &x->fingerprint);
	if (!x->name)
		return XP_ERR_NOMEM;
	s = xp_event_stat(p, e, XP_K_PROGRAM_ID);
	x->has_program_id = s && !an_stat_program_id(p, s, &x->program_id);
	if (s && !x->has_program_id)
		c->out->devices[c->device].odd_stats[XP_K_PROGRAM_ID]++;
	if (!x->has_program_id && x->fingerprint) {
		char *end;

		x->program_id = strtoull(x->fingerprint, &end, 10);
		x->has_program_id = !*end;
	}
	s = xp_event_stat(p, e, XP_K_RUN_ID);
	x->has_run_id = s && !xp_stat_u64(s, &x->run_id);
	return 0;
}

static int same_function(const struct an_exec *a, const struct an_exec *b)
{
	return !strcmp(a->name, b->name) && a->has_program_id == b->has_program_id &&
	       (!a->has_program_id || a->program_id == b->program_id);
}

/* Union length of intervals given in start order, accumulated one at a time. */
struct merger {
	int64_t s, e, total;
	int open;
};

static void merger_add(struct merger *m, int64_t s, int64_t e)
{
	if (m->open && s <= m->e) {
		if (e > m->e)
			m->e = e;
		return;
	}
	if (m->open)
		m->total = xp_sat_add(m->total, xp_sat_sub(m->e, m->s));
	m->s = s;
	m->e = e;
	m->open = 1;
}

static int64_t merger_total(const struct merger *m)
{
	return xp_sat_add(m->total, m->open ? xp_sat_sub(m->e, m->s) : 0);
}

void an_exec_want_lines(const char *plane, const char *const *names, size_t n,
			unsigned char *want, void *device_pattern)
{
	int module_line;
	size_t i;

	if (!an_exec_wants_plane(plane, device_pattern))
		return;
	memset(want, 0, n);
	an_device_lines(names, n, want, &module_line);
	/* Read so that an_exec_find can say how many events it leaves out. */
	for (i = 0; module_line >= 0 && i < n; i++)
		if (!strcmp(names[i], "XLA Modules"))
			want[i] = 1;
}

/* Children time of every execution found on this plane (those from index first). */
static int add_children(struct plane_ctx *c, size_t first, const int32_t *owner)
{
	const struct xp_plane *p = c->p;
	struct an_ev_ref *all = xp_malloc_big(p->nevents + 1, sizeof(*all));
	unsigned char *hit = malloc(p->nevmetas + 1);
	unsigned char *stray = xp_malloc_big(p->nevents + 1, 1);	/* over every line: children may be anywhere */
	size_t i, n = 0, nstray;
	struct xp_err why = {0};

	if (!all || !hit || !stray || xp_plane_stray_ends(p, NULL, stray, &nstray, &why)) {
		free(all);
		free(hit);
		free(stray);
		return XP_ERR_NOMEM;
	}
	c->out->devices[c->device].stray_children = nstray;
	for (i = 0; i <= p->nevmetas; i++)
		hit[i] = !regexec(c->o->children, p->evmetas[i].name, 0, NULL, 0);
	for (i = 0; i < p->nevents; i++) {
		const struct xp_event *e = &p->events[i];

		if (hit[e->meta] && !stray[i] && e->dur_ps >= c->o->min_dur_ps) {
			all[n].start = e->start_ps;
			all[n].idx = (uint32_t)i;
			n++;
		}
	}
	/* by start, then index: all is in index order and the radix sort is stable */
	if (xp_sort_by_i64(all, n, sizeof(*all), offsetof(struct an_ev_ref, start)))
		qsort(all, n, sizeof(*all), cmp_ev_ref);
	for (i = first; i < c->out->n; i++) {
		struct an_exec *x = &c->out->execs[i];
		int64_t end = x->start_ps + x->span_ps;
		struct merger m = {0};
		size_t k = xp_lower_bound_i64(all, n, sizeof(*all), offsetof(struct an_ev_ref, start), x->start_ps);

		for (; k < n && all[k].start <= end; k++) {
			const struct xp_event *e = &p->events[all[k].idx];

			if (e->start_ps + e->dur_ps > end || owner[all[k].idx] == (int32_t)i)
				continue;
			merger_add(&m, e->start_ps, e->start_ps + e->dur_ps);
		}
		x->children_ps = merger_total(&m);
	}
	free(all);
	free(hit);
	free(stray);
	return 0;
}

static int any_module_event(const struct xp_plane *p, const struct an_ev_ref *evs, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (xp_event_stat(p, &p->events[evs[i].idx], XP_K_HLO_MODULE))
			return 1;
	return 0;
}

static int same_name(const struct xp_plane *p, const struct xp_event *a, const struct xp_event *b)
{
	return a->meta == b->meta || !strcmp(xp_event_name(p, a), xp_event_name(p, b));
}

/*
 * How well cutting a run before each event i with cut[i] set separates
 * calls: the shortest gap it cuts over the longest it keeps (gaps kept that
 * are negative, events overlapping, count as 1 ps). 0 unless every cut gap
 * is more than twice as long as every gap kept (a gap the function's own
 * kernels never leave within a call), and there is a gap kept to compare
 * with.
 */
static double cut_score(const int64_t *gap, const unsigned char *cut, size_t n)
{
	int64_t inside = 0, between = INT64_MAX;
	size_t i, ncut = 0;

	for (i = 1; i < n; i++) {
		if (cut[i]) {
			ncut++;
			if (gap[i] < between)
				between = gap[i];
		} else if (gap[i] > inside) {
			inside = gap[i];
		}
	}
	if (!ncut || ncut == n - 1 || between <= 0 || between / 2 <= inside)
		return 0;
	return (double)between / (double)(inside > 0 ? inside : 1);
}

/* cut[] for candidate L: each period L of the run, or (L == 0) each recurrence of its first name. */
static size_t make_cuts(const struct xp_plane *p, const struct an_ev_ref *evs, const uint32_t *pos,
			size_t n, size_t L, unsigned char *cut)
{
	const struct xp_event *e0 = &p->events[evs[pos[0]].idx];
	size_t i, calls = 1;

	for (i = 0; i < n; i++) {
		cut[i] = i && (L ? !(i % L) : same_name(p, &p->events[evs[pos[i]].idx], e0));
		calls += cut[i];
	}
	return calls;
}

/*
 * The runs rule's second look at one run of n events (pos: indexes into evs,
 * in start order). Calls back to back show as the function's kernel sequence
 * starting again, where every such start leaves a gap more than twice as
 * long as any gap inside a call. The starts tried: each period of the run's
 * event names (the whole sequence repeating; every multiple of the smallest
 * period that divides n is one), and each recurrence of its first event's
 * name (calls whose kernels differ a little); the one that separates best
 * (cut_score) wins, so a call whose own kernels repeat (gemm, relu, gemm,
 * relu) is not cut inside when whole calls separate better. Sets cut[i] for
 * the events that start a call and returns the number of calls; 1 when the
 * run stays whole, and then *repeats says whether its names repeat all the
 * same (a run of one name repeated never splits: there is no gap inside a
 * call to compare with).
 */
static size_t run_calls(const struct xp_plane *p, const struct an_ev_ref *evs, const uint32_t *pos,
			size_t n, int64_t *gap, unsigned char *cut, int *repeats)
{
	size_t L, L0 = 0, i, best_L = SIZE_MAX, calls;
	int64_t max_end = INT64_MIN;
	double best = 0, sc;

	*repeats = 0;
	for (L = 1; L <= n / 2 && !L0; L++) {
		if (n % L)
			continue;
		for (i = L; i < n; i++)
			if (!same_name(p, &p->events[evs[pos[i]].idx], &p->events[evs[pos[i - L]].idx]))
				break;
		if (i == n)
			L0 = L;
	}
	/* gap[i]: from the latest end among events 0..i-1 to event i's start */
	for (i = 0; i < n; i++) {
		const struct xp_event *e = &p->events[evs[pos[i]].idx];

		gap[i] = i ? xp_sat_sub(e->start_ps, max_end) : 0;
		if (e->start_ps + e->dur_ps > max_end)
			max_end = e->start_ps + e->dur_ps;
	}
	for (L = L0; L0 && L <= n / 2; L += L0) {
		if (n % L)
			continue;
		make_cuts(p, evs, pos, n, L, cut);
		if ((sc = cut_score(gap, cut, n)) > best) {
			best = sc;
			best_L = L;
		}
	}
	calls = make_cuts(p, evs, pos, n, 0, cut);
	if (calls > 1 && (sc = cut_score(gap, cut, n)) > best) {
		best = sc;
		best_L = 0;
	}
	if (best_L == SIZE_MAX) {
		*repeats = L0 || calls > 1;
		return 1;
	}
	return make_cuts(p, evs, pos, n, best_L, cut);
}

/*
 * Splits the runs-rule executions of this plane (from index first) into the
 * calls run_calls finds; ex_of[k] (exec index of evs[k], or -1) follows.
 */
static int split_runs(struct plane_ctx *c, size_t first, const struct an_ev_ref *evs, size_t n,
		      int32_t *ex_of)
{
	struct an_device *dev = &c->out->devices[c->device];
	size_t nx = c->out->n - first, i, k;
	size_t *at = calloc(nx + 2, sizeof(*at));	/* start of each exec's events in pos */
	uint32_t *pos = xp_malloc_big(n + 1, sizeof(*pos));
	int64_t *gap = xp_malloc_big(n + 1, sizeof(*gap));
	unsigned char *cut = malloc(n + 1);
	size_t *fill = calloc(nx + 1, sizeof(*fill));
	int ret = XP_ERR_NOMEM;

	if (!at || !pos || !gap || !cut || !fill)
		goto out;
	for (k = 0; k < n; k++)
		if (ex_of[k] >= 0)
			at[ex_of[k] - first + 1]++;
	for (i = 0; i < nx; i++)
		at[i + 1] += at[i];
	for (k = 0; k < n; k++)
		if (ex_of[k] >= 0) {
			size_t x = (size_t)ex_of[k] - first;

			pos[at[x] + fill[x]++] = (uint32_t)k;
		}
	for (i = 0; i < nx; i++) {
		size_t m = at[i + 1] - at[i], j;
		int32_t cur = (int32_t)(first + i);
		int repeats;

		if (c->out->execs[first + i].split != AN_SPLIT_RUNS)
			continue;
		dev->runs_execs++;
		if (m < 2 || run_calls(c->p, evs, pos + at[i], m, gap, cut, &repeats) == 1) {
			dev->runs_repeating += m >= 2 && repeats;
			continue;
		}
		for (j = 1; j < m; j++) {
			if (cut[j]) {
				struct an_exec *x = push_exec(c->out);

				if (!x)
					goto out;
				*x = c->out->execs[first + i];
				cur = (int32_t)(c->out->n - 1);
				dev->runs_execs++;
				dev->runs_split++;
			}
			ex_of[pos[at[i] + j]] = cur;
		}
	}
	ret = 0;
out:
	free(at);
	free(pos);
	free(gap);
	free(cut);
	free(fill);
	return ret;
}

static int cmp_exec_start(const void *a, const void *b)
{
	const struct an_exec *x = *(const struct an_exec *const *)a, *y = *(const struct an_exec *const *)b;

	if (x->start_ps != y->start_ps)
		return x->start_ps < y->start_ps ? -1 : 1;
	return x < y ? -1 : x > y;
}

/*
 * Time of each execution of this plane from its events (ex_of), and the
 * executions put in start order (split runs were appended at the end).
 */
static int finish_execs(struct plane_ctx *c, size_t first, const struct an_ev_ref *evs, size_t n,
			int32_t *ex_of)
{
	size_t nx = c->out->n - first, i, k;
	struct merger *m = calloc(nx + 1, sizeof(*m));
	int64_t *end = xp_malloc_big(nx + 1, sizeof(*end));
	const struct an_exec **order = xp_malloc_big(nx + 1, sizeof(*order));
	struct an_exec *copy = xp_malloc_big(nx + 1, sizeof(*copy));
	int32_t *new_of = xp_malloc_big(nx + 1, sizeof(*new_of));
	int ret = XP_ERR_NOMEM;

	if (!m || !end || !order || !copy || !new_of)
		goto out;
	for (i = 0; i < nx; i++)
		c->out->execs[first + i].events = 0;
	for (k = 0; k < n; k++) {
		const struct xp_event *e = &c->p->events[evs[k].idx];
		struct an_exec *x;

		if (ex_of[k] < 0)
			continue;
		i = (size_t)ex_of[k] - first;
		x = &c->out->execs[first + i];
		if (!x->events++) {
			x->start_ps = e->start_ps;
			end[i] = e->start_ps + e->dur_ps;
		} else if (e->start_ps + e->dur_ps > end[i]) {
			end[i] = e->start_ps + e->dur_ps;
		}
		merger_add(&m[i], e->start_ps, e->start_ps + e->dur_ps);
	}
	for (i = 0; i < nx; i++) {
		struct an_exec *x = &c->out->execs[first + i];

		x->busy_ps = merger_total(&m[i]);
		x->span_ps = xp_sat_sub(end[i], x->start_ps);
		order[i] = x;
	}
	qsort(order, nx, sizeof(*order), cmp_exec_start);
	for (i = 0; i < nx; i++) {
		copy[i] = *order[i];
		new_of[order[i] - &c->out->execs[first]] = (int32_t)(first + i);
	}
	if (nx)
		memcpy(&c->out->execs[first], copy, nx * sizeof(*copy));
	for (k = 0; k < n; k++)
		if (ex_of[k] >= 0)
			ex_of[k] = new_of[ex_of[k] - first];
	ret = 0;
out:
	free(m);
	free(end);
	free(order);
	free(copy);
	free(new_of);
	return ret;
}

/*
 * The scope roots of n device events (an_scope_tree_root of their
 * scope_range_id) into *root (root + 1, 0 for none), the distinct ones
 * sorted into *roots, and *by_root (one per root, -1) for the executions
 * made of them. Events with an id the tree does not lead to a root from are
 * counted. 0, or XP_ERR_NOMEM.
 */
static int scope_roots(struct plane_ctx *c, const struct an_ev_ref *evs, size_t n, uint64_t **root,
		       uint64_t **roots, size_t *nroots, int32_t **by_root)
{
	const struct xp_plane *p = c->p;
	size_t i, k = 0;

	*root = xp_malloc_big(n + 1, sizeof(**root));
	*roots = xp_malloc_big(n + 1, sizeof(**roots));
	if (!*root || !*roots)
		return XP_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		const struct xp_stat *s = xp_event_stat(p, &p->events[evs[i].idx], XP_K_SCOPE_RANGE_ID);
		uint64_t id, r;

		(*root)[i] = 0;
		if (!s || xp_stat_u64(s, &id))
			continue;
		if (!an_scope_tree_root(c->scopes, id, &r) || r == UINT64_MAX) {
			c->out->devices[c->device].scope_no_root++;
			continue;
		}
		(*root)[i] = r + 1;
		(*roots)[k++] = r;
	}
	if (k > 1 && xp_sort_by_u64(*roots, k, sizeof(**roots), 0))
		return XP_ERR_NOMEM;
	for (i = 0, *nroots = 0; i < k; i++)
		if (!*nroots || (*roots)[*nroots - 1] != (*roots)[i])
			(*roots)[(*nroots)++] = (*roots)[i];
	if (!(*by_root = malloc((*nroots + 1) * sizeof(**by_root))))
		return XP_ERR_NOMEM;
	for (i = 0; i < *nroots; i++)
		(*by_root)[i] = -1;
	return 0;
}

static int scan_plane(struct plane_ctx *c)
{
	const struct xp_plane *p = c->p;
	struct an_device *dev = &c->out->devices[c->device];
	struct an_host_link *h = c->host;
	unsigned char *use = calloc(p->nlines + 1, 1);
	struct an_dev_link dl = {0};
	unsigned char *stray = xp_malloc_big(p->nevents + 1, 1);
	struct an_ev_ref *evs = xp_malloc_big(p->nevents + 1, sizeof(*evs));
	int32_t *owner = xp_malloc_big(p->nevents + 1, sizeof(*owner));
	int32_t *ex_of = NULL;		/* evs index -> exec index, or -1 */
	int32_t *by_host = NULL;	/* host exec index -> exec index */
	uint64_t *root = NULL, *roots = NULL;	/* evs index -> its scope root + 1 (0: none); the distinct roots */
	int32_t *by_root = NULL;	/* index in roots -> exec index */
	size_t nroots = 0;
	size_t first = c->out->n, i, n = 0, run_exec = SIZE_MAX;
	struct merger busy = {0}, unattributed = {0};
	struct xp_err serr = {0};
	int module_line, linkable, ret = 0;

	if (!use || !evs || !owner || !stray) {
		ret = XP_ERR_NOMEM;
		goto out;
	}
	/* Stray ends (xp_stray.h) among the device lines' events are left out and counted. */
	if (an_plane_device_lines(p, use, &module_line) < 0 ||
	    xp_plane_stray_ends(p, use, stray, &dev->stray_events, &serr)) {
		ret = XP_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < p->nevents; i++) {
		const struct xp_event *e = &p->events[i];

		owner[i] = -1;
		if (!use[e->line] || stray[i])
			continue;
		if (e->dur_ps < c->o->min_dur_ps) {
			dev->dropped_short++;
			continue;
		}
		evs[n].start = e->start_ps;
		evs[n].idx = (uint32_t)i;
		n++;
	}
	if (xp_sort_by_i64(evs, n, sizeof(*evs), offsetof(struct an_ev_ref, start)))
		qsort(evs, n, sizeof(*evs), cmp_ev_ref);	/* as above: by start, then index */
	dev->events = n;
	dev->module_line = module_line >= 0;
	/*
	 * A second "XLA Modules" line is left out: whether it repeats the first
	 * or is another core's work, neither its executions nor a union with the
	 * first would be right for this device. Counted, for a warning.
	 */
	for (i = 0; module_line >= 0 && i < p->nlines; i++) {
		if (i != (size_t)module_line && !strcmp(p->lines[i].name, "XLA Modules")) {
			dev->extra_module_lines++;
			dev->extra_module_events += p->lines[i].nevents;
		}
	}
	/* Host planes are read only for a plane whose events name a function. */
	if (module_line < 0 && !c->host_built && any_module_event(p, evs, n)) {
		ret = an_host_link_build(c->t, h, c->err);
		c->host_built = 1;
		if (ret)
			goto out;
	}
	linkable = module_line < 0 && h->nlaunches && h->nhexecs;
	if (linkable) {
		by_host = malloc(h->nhexecs * sizeof(*by_host));
		if (!by_host || an_host_link_learn(h, p, evs, n, &dl)) {
			ret = XP_ERR_NOMEM;
			goto out;
		}
		for (i = 0; i < h->nhexecs; i++)
			by_host[i] = -1;
	}
	ex_of = xp_malloc_big(n + 1, sizeof(*ex_of));
	if (!ex_of || (module_line < 0 && c->scopes->n && (ret = scope_roots(c, evs, n, &root, &roots, &nroots,
									      &by_root)))) {
		ret = ret ? ret : XP_ERR_NOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		const struct xp_event *e = &p->events[evs[i].idx];
		int64_t end = e->start_ps + e->dur_ps;
		struct an_exec probe = {0}, *x;
		size_t xi = SIZE_MAX, hk = 0, mlen, rk = 0;
		const char *module;
		int mk, scoped = 0;

		ex_of[i] = -1;
		merger_add(&busy, e->start_ps, end);
		/*
		 * On stream lines only an hlo_module that names a function makes an
		 * event a function's; an XLA Modules event is an execution anyway,
		 * named by its own metadata when its hlo_module names nothing.
		 */
		mk = module_of(c, e, &module, &mlen);
		if (module_line < 0 && mk <= 0) {
			dev->unattributed_events++;
			merger_add(&unattributed, e->start_ps, end);
			continue;
		}
		ret = describe(c, e, mk > 0 ? module : NULL, mlen, &probe);
		if (ret)
			goto out;
		/* its scope's root first: exact, and needs no host plane */
		if (module_line < 0 && root && root[i]) {
			rk = xp_lower_bound_u64(roots, nroots, sizeof(*roots), 0, root[i] - 1);
			scoped = by_root[rk] < 0 || same_function(&c->out->execs[by_root[rk]], &probe);
			if (scoped && by_root[rk] >= 0)
				xi = (size_t)by_root[rk];
			dev->scope_events += scoped;
			dev->scope_shared_root += !scoped;
		}
		if (module_line < 0 && !scoped) {
			const struct xp_stat *cs = xp_event_stat(p, e, XP_K_CORRELATION_ID);
			uint64_t corr;
			int64_t kt = 0;
			int have_corr = cs && !xp_stat_u64(cs, &corr);

			if (cs && !have_corr)
				dev->odd_stats[XP_K_CORRELATION_ID]++;
			dev->corr_events += have_corr;
			if (linkable && have_corr) {
				int have_kt = an_host_link_time(h, p, e->start_ps, &kt);

				switch (an_host_link_find(h, corr, probe.name, &dl, have_kt, kt, &hk)) {
				case AN_LINKED_OK:
					dev->linked_events++;
					break;
				case AN_LINKED_NO_LAUNCH:
					dev->corr_no_launch++;
					break;
				case AN_LINKED_NO_EXECUTOR:
					dev->corr_no_executor++;
					break;
				case AN_LINKED_AMBIGUOUS:
					dev->corr_ambiguous++;
					break;
				}
			}
			if (hk && by_host[hk - 1] >= 0)
				xi = (size_t)by_host[hk - 1];
			else if (!hk && run_exec != SIZE_MAX &&
				 same_function(&c->out->execs[run_exec], &probe))
				xi = run_exec;
		}
		if (xi == SIZE_MAX) {
			x = push_exec(c->out);
			if (!x) {
				ret = XP_ERR_NOMEM;
				goto out;
			}
			*x = probe;
			x->device = c->device;
			x->split = module_line >= 0 ? AN_SPLIT_MODULE_LINE : scoped ? AN_SPLIT_SCOPE
				   : hk ? AN_SPLIT_HOST : AN_SPLIT_RUNS;
			xi = c->out->n - 1;
			if (hk)
				by_host[hk - 1] = (int32_t)xi;
			if (scoped)
				by_root[rk] = (int32_t)xi;
		}
		if (!hk && !scoped && module_line < 0)
			run_exec = xi;
		ex_of[i] = (int32_t)xi;
	}
	dev->busy_ps = merger_total(&busy);
	dev->unattributed_busy_ps = merger_total(&unattributed);
	if (dev->corr_events && !linkable)
		dev->host_linkage = !h->nplanes ? AN_LINK_NO_HOST_PLANE
				    : !h->nlaunches && !h->nhexecs ? AN_LINK_NO_LAUNCHES_NO_EXECUTORS
				    : !h->nlaunches ? AN_LINK_NO_LAUNCHES : AN_LINK_NO_EXECUTORS;
	if (module_line < 0 && (ret = split_runs(c, first, evs, n, ex_of)))
		goto out;
	if ((ret = finish_execs(c, first, evs, n, ex_of)))
		goto out;
	if (c->o->children) {
		/*
		 * Only a module-line event is excluded from its own children: it spans
		 * the execution and would count itself. A GPU execution's kernels are
		 * the work --children measures, so they stay in.
		 */
		for (i = 0; module_line >= 0 && i < n; i++)
			owner[evs[i].idx] = ex_of[i];
		ret = add_children(c, first, owner);
	}
out:
	free(use);
	free(stray);
	free(evs);
	free(owner);
	free(ex_of);
	free(by_host);
	free(root);
	free(roots);
	free(by_root);
	free(dl.lines);
	return ret;
}

/* The device already found under plane name, or NULL. */
static struct an_device *device_named(struct an_exec_list *l, const char *name)
{
	size_t i;

	for (i = 0; i < l->ndevices; i++)
		if (!strcmp(l->devices[i].name, name))
			return &l->devices[i];
	return NULL;
}

int an_exec_find(struct xp_trace *t, const struct an_exec_opts *o,
		 struct an_exec_list *out, struct xp_err *err)
{
	struct an_host_link host = {0};
	struct an_scope_tree scopes = {0};
	struct xp_err why = {0};
	struct plane_ctx c = {.t = t, .err = &why, .o = o, .out = out, .host = &host, .scopes = &scopes};
	size_t pi, nd = 0;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	xp_arena_init(&out->arena);
	out->hostname = t->nhostnames ? t->hostnames[0] : "";
	out->hostname = xp_arena_strndup(&out->arena, out->hostname, strlen(out->hostname));
	out->devices = calloc(t->nplanes + 1, sizeof(*out->devices));
	if (!out->devices || !out->hostname) {
		an_exec_list_release(out);
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	}
	/* the tree of scope ranges, where the trace has one (its first) */
	for (pi = 0; pi < t->nplanes && !ret; pi++)
		if (!strcmp(t->planes[pi].name, AN_SCOPE_TREE_PLANE)) {
			if (!(ret = xp_trace_load_plane(t, pi, &why)))
				ret = an_scope_tree_build(&t->planes[pi], &scopes);
			break;
		}
	for (pi = 0; pi < t->nplanes && !ret; pi++) {
		const struct xp_plane *p = &t->planes[pi];
		struct an_device *again;

		if (!an_is_device_plane(p->name))
			continue;
		if (o->device && !an_device_matches(p->name, o->device))
			continue;
		if (an_is_sparsecore_plane(p->name)) {
			out->sparsecore_planes++;
			continue;
		}
		/* one device twice (dumps merged into one XSpace) would count its time twice: the first counts */
		if ((again = device_named(out, p->name))) {
			again->repeats++;
			continue;
		}
		ret = xp_trace_load_plane(t, pi, &why);
		if (ret)
			break;
		/* Events on its lines of device work, as both readers see them. */
		if (!an_plane_device_events(p))
			continue;
		out->devices[nd].plane = (uint32_t)pi;
		out->devices[nd].name = xp_arena_strndup(&out->arena, p->name, strlen(p->name));
		if (!out->devices[nd].name) {
			ret = XP_ERR_NOMEM;
			break;
		}
		c.p = p;
		c.device = (uint32_t)nd;
		out->ndevices = ++nd;
		ret = scan_plane(&c);
		if (ret)
			break;
	}
	an_host_link_release(&host);
	out->scope_edges_repeated = scopes.repeated;
	an_scope_tree_release(&scopes);
	if (!ret)
		return 0;
	an_exec_list_release(out);
	if (why.code) {
		*err = why;
		return ret;
	}
	return xp_err_set(err, ret, "out of memory");
}

void an_exec_list_release(struct an_exec_list *l)
{
	xp_arena_release(&l->arena);
	free(l->execs);
	free(l->devices);
	memset(l, 0, sizeof(*l));
}

/* FNV-1a, 64 bits: a digest to tell copies apart, not a defence against forgery. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n--)
		h = (h ^ *b++) * UINT64_C(0x100000001b3);
	return h;
}

static uint64_t fnv_str(uint64_t h, const char *s)
{
	return fnv(h, s ? s : "", s ? strlen(s) + 1 : 1);
}

static uint64_t fnv_u64(uint64_t h, uint64_t v)
{
	unsigned char b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (unsigned char)(v >> (8 * i));
	return fnv(h, b, sizeof(b));
}

uint64_t an_exec_list_digest(const struct an_exec_list *l)
{
	uint64_t h = UINT64_C(0xcbf29ce484222325);
	size_t i;

	h = fnv_u64(h, l->ndevices);
	for (i = 0; i < l->ndevices; i++)
		h = fnv_str(h, l->devices[i].name);
	h = fnv_u64(h, l->n);
	for (i = 0; i < l->n; i++) {
		const struct an_exec *x = &l->execs[i];

		h = fnv_u64(h, x->device);
		h = fnv_str(h, x->name);
		h = fnv_str(h, x->fingerprint);
		h = fnv_u64(h, x->has_program_id ? x->program_id : UINT64_MAX);
		h = fnv_u64(h, (uint64_t)x->busy_ps);
		h = fnv_u64(h, (uint64_t)x->span_ps);
		h = fnv_u64(h, (uint64_t)x->children_ps);
		h = fnv_u64(h, x->events);
	}
	return h;
}
