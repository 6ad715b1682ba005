/* SPDX-License-Identifier: Apache-2.0 */
#include "an_hostcall.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "an_corr.h"
#include "xp_arena.h"
#include "xp_sort.h"

/* A kernel's launch to find a thunk for: a distinct (correlation id, op) of the refs. */
struct query {
	uint64_t corr;
	uint64_t op;		/* index in the sorted op names */
	int64_t start, end;	/* its launch event's span (plane time) */
	size_t plane, line;
	size_t launches;	/* host events with its correlation id: one, or the thunk stays unknown */
	uint64_t thunk;
};

/* A host event named as an op, with no correlation id: a thunk's execution. */
struct cand {
	uint64_t op;
	int64_t start, end;
	size_t line;
};

struct ctx {
	struct an_hostcall_ref *refs;
	size_t nrefs;
	const char **ops;	/* the refs' op names, sorted, distinct */
	size_t nops;
	struct query *q;
	size_t nq;
	struct an_corr_index by_corr;	/* the queries by correlation id */
	uint64_t next_id;	/* thunk ids: candidates numbered over the planes */
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The index of name among the ops, or -1. */
static int64_t op_index(const struct ctx *c, const char *name)
{
	const char **hit = bsearch(&name, c->ops, c->nops, sizeof(*c->ops), cmp_str);

	return hit ? hit - c->ops : -1;
}

/* The ops' names sorted and distinct, and each ref's op as its index (in refs' thunk, for now). */
static int index_ops(struct ctx *c)
{
	size_t i, n = 0;

	if (!(c->ops = malloc(c->nrefs * sizeof(*c->ops))))
		return -1;
	for (i = 0; i < c->nrefs; i++)
		c->ops[i] = c->refs[i].op;
	qsort(c->ops, c->nrefs, sizeof(*c->ops), cmp_str);
	for (i = 0; i < c->nrefs; i++)
		if (!n || strcmp(c->ops[n - 1], c->ops[i]))
			c->ops[n++] = c->ops[i];
	c->nops = n;
	for (i = 0; i < c->nrefs; i++)
		c->refs[i].thunk = (uint64_t)op_index(c, c->refs[i].op);
	return 0;
}

/* The distinct (correlation id, op) of the refs, sorted by id then op; the refs sorted alike. */
static int make_queries(struct ctx *c)
{
	size_t i;

	if (xp_sort_by_u64(c->refs, c->nrefs, sizeof(*c->refs), offsetof(struct an_hostcall_ref, thunk)) ||
	    xp_sort_by_u64(c->refs, c->nrefs, sizeof(*c->refs), offsetof(struct an_hostcall_ref, corr)) ||
	    !(c->q = calloc(c->nrefs, sizeof(*c->q))))
		return -1;
	for (i = 0; i < c->nrefs; i++)
		if (!c->nq || c->q[c->nq - 1].corr != c->refs[i].corr || c->q[c->nq - 1].op != c->refs[i].thunk)
			c->q[c->nq++] = (struct query){.corr = c->refs[i].corr, .op = c->refs[i].thunk,
						       .thunk = AN_HOSTCALL_NONE};
	return 0;
}

/*
 * The candidates of q's op that hold q's span, latest start first, at most
 * max of them, from the last AN_HOSTCALL_BACK starting at or before it
 * (cands sorted by op and start). Their count.
 */
static size_t holders(const struct cand *cands, size_t ncands, const struct query *q, size_t *out, size_t max)
{
	size_t lo = 0, hi = ncands, k, n = 0, seen;

	while (lo < hi) {	/* the first candidate past (op, start) */
		size_t mid = lo + (hi - lo) / 2;

		if (cands[mid].op < q->op || (cands[mid].op == q->op && cands[mid].start <= q->start))
			lo = mid + 1;
		else
			hi = mid;
	}
	for (k = lo, seen = 0; k > 0 && seen < AN_HOSTCALL_BACK && n < max; seen++) {
		const struct cand *x = &cands[--k];

		if (x->op != q->op)
			break;
		if (x->end >= q->end)
			out[n++] = k;
	}
	return n;
}

/* Whether the candidates all lie on one line. */
static int one_line(const struct cand *cands, const size_t *h, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++)
		if (cands[h[i]].line != cands[h[0]].line)
			return 0;
	return n > 0;
}

#define HOLDERS_MAX 16
#define PAIR_NONE ((size_t)-1)
#define PAIR_SEVERAL ((size_t)-2)

/* The thunks of the queries launched on plane p, from its candidates. */
static int resolve_plane(struct ctx *c, const struct xp_plane *p, size_t plane, struct cand *cands, size_t ncands)
{
	size_t *pair = malloc((p->nlines ? p->nlines : 1) * sizeof(*pair)), h[HOLDERS_MAX], i, k, n;
	int pass;

	if (!pair)
		return -1;
	for (i = 0; i < p->nlines; i++)
		pair[i] = PAIR_NONE;
	/* by op, then start: two stable radix sorts */
	if (xp_sort_by_i64(cands, ncands, sizeof(*cands), offsetof(struct cand, start)) ||
	    xp_sort_by_u64(cands, ncands, sizeof(*cands), offsetof(struct cand, op))) {
		free(pair);
		return -1;
	}
	/* pass 0: holders on one line (and the lines' pairs from them); pass 1: the others, on the pair's line */
	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < c->nq; i++) {
			struct query *q = &c->q[i];
			size_t line;

			if (q->plane != plane || q->launches != 1 || q->thunk != AN_HOSTCALL_NONE)
				continue;
			n = holders(cands, ncands, q, h, HOLDERS_MAX);
			if (pass == 0 && !one_line(cands, h, n))
				continue;
			if (pass == 1) {	/* only those on the launch line's pair */
				line = pair[q->line];
				if (line == PAIR_NONE || line == PAIR_SEVERAL)
					continue;
				for (k = 0; k < n && cands[h[k]].line != line; k++)
					;
				if (k == n)
					continue;
				h[0] = h[k];
			} else {
				line = cands[h[0]].line;
				pair[q->line] = pair[q->line] == PAIR_NONE || pair[q->line] == line ? line : PAIR_SEVERAL;
			}
			q->thunk = c->next_id + h[0];	/* the innermost: the latest start */
		}
	}
	c->next_id += ncands;
	free(pair);
	return 0;
}

/* The launches and candidates of host plane i, and the thunks of the queries launched there. */
static int scan_plane(struct ctx *c, struct xp_trace *t, size_t i, struct xp_err *err)
{
	struct xp_plane view;
	const struct xp_plane *p = &view;
	struct cand *cands = NULL;
	int64_t *names = NULL;
	size_t ncands = 0, cap = 0, k, m;
	int ret;

	/* of a deferred plane only the launches and the events named like thunks, the plane left deferred */
	if ((ret = xp_trace_view_plane(t, i, an_host_thunk_name, 1u << XP_K_CORRELATION_ID, &view, err)))
		return ret;
	if (!p->nevents || !p->events)
		return 0;
	if (!(names = malloc((p->nevmetas + 1) * sizeof(*names))))
		goto nomem;
	/* thunks by name, those only a filtered read keeps too: the same whether or not the plane was filtered */
	for (k = 0; k <= p->nevmetas; k++)
		names[k] = k < p->nevmetas && an_host_thunk_name(p->evmetas[k].name) ? op_index(c, p->evmetas[k].name)
										    : -1;
	for (k = 0; k < p->nevents; k++) {
		const struct xp_event *e = &p->events[k];
		const struct xp_stat *s = xp_event_stat(p, e, XP_K_CORRELATION_ID);
		uint64_t corr;

		if (s && !xp_stat_u64(s, &corr)) {
			size_t first, nsame = an_corr_range(&c->by_corr, corr, &first);

			for (m = first; m < first + nsame; m++) {
				struct query *q = &c->q[m];

				if (q->launches++)
					continue;
				q->start = e->start_ps;
				q->end = e->start_ps + e->dur_ps;
				q->plane = i;
				q->line = e->line;
			}
			continue;
		}
		if (s || names[e->meta < p->nevmetas ? e->meta : p->nevmetas] < 0)
			continue;
		if (ncands == cap && xp_grow(&cands, &cap, ncands, sizeof(*cands), 256))
			goto nomem;
		cands[ncands++] = (struct cand){(uint64_t)names[e->meta], e->start_ps, e->start_ps + e->dur_ps, e->line};
	}
	if (resolve_plane(c, p, i, cands, ncands))
		goto nomem;
	free(names);
	free(cands);
	return 0;
nomem:
	free(names);
	free(cands);
	return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
}

/* A letter or '_'. */
static int name_char(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

int an_host_thunk_name(const char *name)
{
	const char *s = name;

	/* a lowercase first letter: XLA's names; the host's own TraceMe names are CamelCase */
	if (!s || !((*s >= 'a' && *s <= 'z') || *s == '_'))
		return 0;
	for (; *s; s++)
		if (!name_char(*s) && !(*s >= '0' && *s <= '9') && *s != '-' && *s != '.')
			return 0;
	return 1;
}

int an_host_calls(struct xp_trace *t, struct an_hostcall_ref *refs, size_t n, struct xp_err *err)
{
	struct ctx c = {.refs = refs, .nrefs = n};
	size_t i, k;
	int ret = 0;

	if (!n)
		return 0;
	if (index_ops(&c) || make_queries(&c)) {
		ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
		goto out;
	}
	an_corr_index_build(&c.by_corr, c.q, c.nq, sizeof(*c.q), offsetof(struct query, corr));
	for (i = 0; i < t->nplanes && !ret; i++)	/* the host's planes, but its metadata (no events) */
		if (!strncmp(t->planes[i].name, "/host:", 6) && strcmp(t->planes[i].name, "/host:metadata"))
			ret = scan_plane(&c, t, i, err);
	if (ret)
		goto out;
	/* each ref's query: refs and queries are sorted alike */
	for (i = k = 0; i < n; i++) {
		while (c.q[k].corr != refs[i].corr || c.q[k].op != refs[i].thunk)
			k++;
		refs[i].thunk = c.q[k].launches == 1 ? c.q[k].thunk : AN_HOSTCALL_NONE;
	}
out:
	an_corr_index_release(&c.by_corr);
	free(c.ops);
	free(c.q);
	return ret;
}
