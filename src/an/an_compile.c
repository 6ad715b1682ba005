/* SPDX-License-Identifier: Apache-2.0 */
#include "an_compile.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "an_callprog.h"
#include "xp_hmap.h"
#include "xp_sat.h"
#include "xp_sort.h"

int an_comp_phase_of(const char *name)
{
	static const char *const lower[] = {"lower_sharding_computation", "lower_mesh_computation",
					    "lower_jaxpr_to_module", "jaxpr_to_mlir_module"};
	size_t i, len = strlen(name);

	if (!strncmp(name, "trace_to_jaxpr", 14))
		return AN_COMP_TRACE;
	for (i = 0; i < sizeof(lower) / sizeof(lower[0]); i++)
		if (!strcmp(name, lower[i]))
			return AN_COMP_LOWER;
	if (!strncmp(name, "backend_compile", 15) || strstr(name, "Compiler::") ||
	    (len >= 9 && !strcmp(name + len - 9, "::Compile")))
		return AN_COMP_COMPILE;
	return -1;
}

const char *an_comp_phase_name(int phase)
{
	static const char *const names[AN_COMP_NPHASES] = {"trace", "lower", "compile"};

	return phase >= 0 && phase < AN_COMP_NPHASES ? names[phase] : "?";
}

const char *an_comp_call_fn(const char *name, size_t *len)
{
	size_t n = strlen(name);

	if (n < 14 || name[n - 1] != ')' ||
	    (strncmp(name, "PjitFunction(", 13) && strncmp(name, "PmapFunction(", 13)))
		return NULL;
	*len = n - 14;
	return name + 13;
}

void an_comp_init(struct an_comp_result *r, const struct an_comp_opts *o)
{
	memset(r, 0, sizeof(*r));
	if (o)
		r->opts = *o;
	xp_arena_init(&r->arena);
}

int an_comp_merge(struct an_comp_result *dst, struct an_comp_result *src, struct xp_err *err)
{
	size_t i, ev0 = dst->nevents;
	int ph;

	if (xp_reserve(&dst->fns, &dst->capfns, dst->nfns, src->nfns, sizeof(*dst->fns)) ||
	    xp_reserve(&dst->events, &dst->capevents, dst->nevents, src->nevents, sizeof(*dst->events)))
		return xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	for (i = 0; i < src->nfns; i++) {
		dst->fns[dst->nfns] = src->fns[i];
		dst->fns[dst->nfns++].first_event += ev0;
	}
	if (src->nevents)
		memcpy(dst->events + ev0, src->events, src->nevents * sizeof(*src->events));
	dst->nevents += src->nevents;
	xp_arena_adopt(&dst->arena, &src->arena);
	dst->inputs += src->inputs;
	dst->inputs_without += src->inputs_without;
	dst->call_events += src->call_events;
	dst->calls += src->calls;
	dst->calls_program += src->calls_program;
	dst->calls_ambiguous += src->calls_ambiguous;
	dst->calls_unsearched += src->calls_unsearched;
	dst->compiler_events += src->compiler_events;
	dst->unattributed += src->unattributed;
	dst->unattributed_ps = xp_sat_add(dst->unattributed_ps, src->unattributed_ps);
	for (ph = 0; ph < AN_COMP_NPHASES; ph++)
		dst->phase_ps[ph] = xp_sat_add(dst->phase_ps[ph], src->phase_ps[ph]);
	dst->total_ps = xp_sat_add(dst->total_ps, src->total_ps);
	dst->host_span_ps = xp_sat_add(dst->host_span_ps, src->host_span_ps);
	dst->unselected += src->unselected;
	an_comp_release(src);
	an_comp_init(src, &dst->opts);
	return 0;
}

void an_comp_release(struct an_comp_result *r)
{
	free(r->fns);
	free(r->events);
	xp_arena_release(&r->arena);
	memset(r, 0, sizeof(*r));
}

/* A call while an input is added. */
struct call {
	size_t plane, line;
	int64_t start, end;
	const char *fn;		/* into the trace, not NUL-terminated */
	size_t fnlen;
	size_t group;		/* index of its function */
	size_t ord;		/* among the function's calls, by start */
	int compiles;
	struct an_call_prog prog;
};

/* A compiler event while an input is added. */
struct cev {
	size_t plane;
	int64_t start, dur;
	const char *name;
	int phase, inside, nested;	/* nested: set once calls are known (mark_nested) */
	size_t same;		/* the innermost event of its phase around it; SIZE_MAX: none */
	size_t call;		/* SIZE_MAX: none */
	size_t inner;
	int64_t inner_ps;
};

struct work {
	struct call *calls;
	size_t ncalls, capcalls;
	struct cev *cevs;
	size_t ncevs, capcevs;
	size_t call_events;
	int64_t phase_ps[AN_COMP_NPHASES], total_ps;
};

/* An open event on a line's nesting stack. */
struct open_ev {
	int64_t end;
	size_t call;		/* innermost call around it or itself; SIZE_MAX: none */
	size_t cev;		/* itself when a compiler event; SIZE_MAX: not */
	size_t comp;		/* the innermost compile event around it or itself; SIZE_MAX: none */
	size_t phase_cev[AN_COMP_NPHASES];	/* per phase the innermost such compiler event around it */
};

struct line_ev {
	int64_t start, dur;
	uint32_t idx;
};

static int cmp_line_ev(const void *a, const void *b)
{
	const struct line_ev *x = a, *y = b;
	int c;

	/* at one start the longer one first: it encloses */
	if ((c = xp_cmp_i64(x->start, y->start)) || (c = xp_cmp_i64(y->dur, x->dur)))
		return c;
	return xp_cmp_u64(x->idx, y->idx);
}

/* Per event metadata: 0 other, 1 a call, 2 + phase a compiler event. */
static unsigned char *classify(const struct xp_plane *p)
{
	unsigned char *k = calloc(p->nevmetas + 1, 1);
	size_t i, len;
	int ph;

	if (!k)
		return NULL;
	for (i = 0; i < p->nevmetas; i++) {
		if (an_comp_call_fn(p->evmetas[i].name, &len))
			k[i] = 1;
		else if ((ph = an_comp_phase_of(p->evmetas[i].name)) >= 0)
			k[i] = (unsigned char)(2 + ph);
	}
	return k;
}

/* Walks one line's events in nesting order: calls, compiler events, passes and unions. */
static int walk_line(struct work *w, const struct xp_plane *p, size_t pi, const struct xp_line *ln,
		     const unsigned char *kind, int64_t shift)
{
	struct line_ev *ev = NULL, *span = NULL;
	struct open_ev *st = NULL;
	size_t n = 0, nspan = 0, i, depth = 0;
	int64_t cov_all = INT64_MIN, cov[AN_COMP_NPHASES];
	int ret = -1, ph;

	for (i = 0; i < AN_COMP_NPHASES; i++)
		cov[i] = INT64_MIN;
	/*
	 * Only calls, compiler events and what lies inside a compile event
	 * take part: the rest of a line (most of a Python tracer's) is not sorted.
	 */
	ev = malloc((ln->nevents + 1) * sizeof(*ev));
	span = malloc((ln->nevents + 1) * sizeof(*span));
	if (!ev || !span)
		goto out;
	for (i = 0; i < ln->nevents; i++) {
		const struct xp_event *e = &p->events[ln->first_event + i];
		unsigned char k = kind[e->meta];

		if (!k)
			continue;
		ev[n].start = e->start_ps + shift;
		ev[n].dur = e->dur_ps;
		ev[n++].idx = (uint32_t)i;
		if (k == 2 + AN_COMP_COMPILE) {
			span[nspan].start = e->start_ps + shift;
			span[nspan].dur = e->dur_ps;
			span[nspan++].idx = 0;
		}
	}
	if (!n)
		goto done;
	if (nspan) {
		size_t u = 0;

		/* the union of the compile events, then the other events inside it */
		qsort(span, nspan, sizeof(*span), cmp_line_ev);
		/* by end from here: a union can be longer than INT64_MAX ps, an end never */
		for (i = 0; i < nspan; i++)
			span[i].dur += span[i].start;
		for (i = 1; i < nspan; i++) {
			if (span[i].start <= span[u].dur) {
				if (span[i].dur > span[u].dur)
					span[u].dur = span[i].dur;
			} else {
				span[++u] = span[i];
			}
		}
		nspan = u + 1;
		for (i = 0; i < ln->nevents; i++) {
			const struct xp_event *e = &p->events[ln->first_event + i];
			int64_t s0 = e->start_ps + shift;
			size_t lo = 0, hi = nspan;

			if (kind[e->meta])
				continue;
			while (lo < hi) {	/* the last span starting at or before s0 */
				size_t mid = lo + (hi - lo) / 2;

				if (span[mid].start <= s0)
					lo = mid + 1;
				else
					hi = mid;
			}
			if (lo && s0 + e->dur_ps <= span[lo - 1].dur) {
				ev[n].start = s0;
				ev[n].dur = e->dur_ps;
				ev[n++].idx = (uint32_t)i;
			}
		}
	}
	st = malloc((n + 1) * sizeof(*st));
	if (!st)
		goto out;
	qsort(ev, n, sizeof(*ev), cmp_line_ev);
	for (i = 0; i < n; i++) {
		const struct xp_event *e = &p->events[ln->first_event + ev[i].idx];
		int64_t start = ev[i].start, end = start + ev[i].dur;
		unsigned char k = kind[e->meta];
		struct open_ev o = {end, SIZE_MAX, SIZE_MAX, SIZE_MAX, {SIZE_MAX, SIZE_MAX, SIZE_MAX}};
		const struct open_ev *parent;

		while (depth && end > st[depth - 1].end)
			depth--;
		parent = depth ? &st[depth - 1] : NULL;
		if (parent) {
			o = *parent;
			o.end = end;
			o.cev = SIZE_MAX;
		}
		if (k == 1) {
			size_t len;
			const char *fn = an_comp_call_fn(p->evmetas[e->meta].name, &len);

			w->call_events++;
			if (o.call == SIZE_MAX || w->calls[o.call].fnlen != len ||
			    memcmp(w->calls[o.call].fn, fn, len)) {
				struct call *c;

				if (w->ncalls == w->capcalls &&
				    xp_grow(&w->calls, &w->capcalls, w->ncalls, sizeof(*w->calls), 64))
					goto out;
				c = &w->calls[w->ncalls];
				memset(c, 0, sizeof(*c));
				c->plane = pi;
				c->line = (size_t)(ln - p->lines);
				c->start = start;
				c->end = end;
				c->fn = fn;
				c->fnlen = len;
				o.call = w->ncalls++;
			}
		} else if (k >= 2) {
			struct cev *c;

			ph = k - 2;
			if (w->ncevs == w->capcevs && xp_grow(&w->cevs, &w->capcevs, w->ncevs, sizeof(*w->cevs), 64))
				goto out;
			c = &w->cevs[w->ncevs];
			memset(c, 0, sizeof(*c));
			c->plane = pi;
			c->start = start;
			c->dur = ev[i].dur;
			c->name = p->evmetas[e->meta].name;
			c->phase = ph;
			c->call = o.call;
			c->inside = o.call != SIZE_MAX;
			c->same = o.phase_cev[ph];
			o.cev = w->ncevs++;
			o.phase_cev[ph] = o.cev;
			if (ph == AN_COMP_COMPILE)
				o.comp = o.cev;
			/* unions per line: events come by start */
			if (end > cov[ph]) {
				w->phase_ps[ph] = xp_sat_add(w->phase_ps[ph], end - (start > cov[ph] ? start : cov[ph]));
				cov[ph] = end;
			}
			if (end > cov_all) {
				w->total_ps = xp_sat_add(w->total_ps, end - (start > cov_all ? start : cov_all));
				cov_all = end;
			}
		} else if (o.comp != SIZE_MAX) {
			w->cevs[o.comp].inner++;
			if (parent->cev == o.comp)
				w->cevs[o.comp].inner_ps = xp_sat_add(w->cevs[o.comp].inner_ps, ev[i].dur);
		}
		st[depth++] = o;
	}
done:
	ret = 0;
out:
	free(ev);
	free(span);
	free(st);
	return ret;
}

/* An unattributed compiler event: the innermost call of its plane overlapping its start, if they nest. */
static void attribute_near(struct work *w, struct cev *c)
{
	size_t i, best = SIZE_MAX;

	for (i = 0; i < w->ncalls; i++) {
		const struct call *k = &w->calls[i];

		if (k->plane != c->plane || c->start < k->start || c->start >= k->end)
			continue;
		if (best == SIZE_MAX || k->end - k->start < w->calls[best].end - w->calls[best].start)
			best = i;
	}
	if (best == SIZE_MAX)
		return;
	for (i = 0; i < w->ncalls; i++) {
		const struct call *k = &w->calls[i], *b = &w->calls[best];

		if (k->plane != c->plane || c->start < k->start || c->start >= k->end)
			continue;
		if (k->start > b->start || k->end < b->end)
			return;		/* two calls that do not nest: which one is not known */
	}
	c->call = best;
}

static int contains_ci(const char *s, size_t len, const char *pat)
{
	size_t m = strlen(pat), i, j;

	for (i = 0; i + m <= len; i++) {
		for (j = 0; j < m && tolower((unsigned char)s[i + j]) == tolower((unsigned char)pat[j]); j++)
			;
		if (j == m)
			return 1;
	}
	return 0;
}

/* A call's place when sorting by (function, start), stably: equal ones keep their order. */
struct call_key {
	size_t group;
	int64_t start;
	size_t idx;
};

static int cmp_i64(const void *a, const void *b)
{
	return xp_cmp_i64(*(const int64_t *)a, *(const int64_t *)b);
}

static int cmp_fn(const void *a, const void *b)
{
	const struct an_comp_fn *x = a, *y = b;
	int64_t cx = xp_sat_add(xp_sat_add(x->phase_ps[0], x->phase_ps[1]), x->phase_ps[2]);
	int64_t cy = xp_sat_add(xp_sat_add(y->phase_ps[0], y->phase_ps[1]), y->phase_ps[2]);

	int c;

	if ((c = xp_cmp_i64(cy, cx)) || (c = xp_cmp_i64(y->first_ps, x->first_ps)) ||
	    (c = strcmp(x->name, y->name)) || (c = xp_cmp_i64(x->has_program, y->has_program)))
		return c;
	return xp_cmp_u64(x->program_id, y->program_id);
}

static int cmp_event(const void *a, const void *b)
{
	const struct an_comp_event *x = a, *y = b;
	int c;

	/* the longer first, the inside ones first; the rest: alike in every field shown */
	if ((c = xp_cmp_i64(x->start_ps, y->start_ps)) || (c = xp_cmp_i64(y->dur_ps, x->dur_ps)) ||
	    (c = xp_cmp_u64(x->call, y->call)) || (c = strcmp(x->name, y->name)) ||
	    (c = xp_cmp_i64(y->inside, x->inside)))
		return c;
	return xp_cmp_u64(x->inner, y->inner);
}

/* Adds a compiler event of row f's call ord (f NULL: unattributed). */
static int add_event(struct an_comp_result *r, const struct cev *c, const char *input,
		     const struct an_comp_fn *f, size_t ord)
{
	struct an_comp_event *e;

	if (r->nevents == r->capevents && xp_grow(&r->events, &r->capevents, r->nevents, sizeof(*r->events), 32))
		return -1;
	e = &r->events[r->nevents];
	memset(e, 0, sizeof(*e));
	e->input = input;
	e->fn = f ? f->name : NULL;
	e->program_id = f ? f->program_id : 0;
	e->has_program = f && f->has_program;
	e->name = xp_arena_strndup(&r->arena, c->name, strlen(c->name));
	if (!e->name)
		return -1;
	e->phase = c->phase;
	e->call = ord;
	e->inside = c->inside;
	e->nested = c->nested;
	e->start_ps = c->start;
	e->dur_ps = c->dur;
	e->inner = c->inner;
	e->inner_ps = c->inner_ps;
	r->nevents++;
	return 0;
}

/* A function row with its group, for sorting. */
struct row_key {
	struct an_comp_fn f;	/* first: cmp_fn reads it */
	size_t group;
};

/* Builds the function rows and events of one input from its calls and compiler events. */
static int build(struct an_comp_result *r, struct work *w, const char *input)
{
	struct xp_hmap groups = {0};
	struct an_comp_fn *rows = NULL;
	struct call_key *ix = NULL;
	struct row_key *order = NULL;
	size_t ngroups = 0, nkept = 0, i, k;
	int64_t *durs = NULL;
	int ret = -1;

	for (i = 0; i < w->ncalls; i++) {
		struct call *c = &w->calls[i];
		/* a row per function and program: "fn\nprogram", or "fn\n-" (no '\n' after fn's) */
		char *key = xp_arena_alloc(&r->arena, c->fnlen + 24);
		size_t val = ngroups;
		int got;

		if (c->prog.state == AN_CALL_PROG_KNOWN)
			r->calls_program++;
		if (!key)
			goto out;
		memcpy(key, c->fn, c->fnlen);
		if (c->prog.state == AN_CALL_PROG_KNOWN)
			snprintf(key + c->fnlen, 24, "\n%" PRIu64, c->prog.program);
		else
			snprintf(key + c->fnlen, 24, "\n-");
		if ((got = xp_hmap_get_or_put(&groups, key, &val)) < 0)
			goto out;
		if (!got)
			ngroups++;
		c->group = val;
	}
	ix = malloc((w->ncalls + 1) * sizeof(*ix));
	durs = malloc((w->ncalls + 1) * sizeof(*durs));
	rows = calloc(ngroups + 1, sizeof(*rows));
	order = malloc((ngroups + 1) * sizeof(*order));
	if (!ix || !durs || !rows || !order)
		goto out;
	for (i = 0; i < w->ncalls; i++) {
		ix[i].group = w->calls[i].group;
		ix[i].start = w->calls[i].start;
		ix[i].idx = i;
	}
	if (xp_sort_by_i64(ix, w->ncalls, sizeof(*ix), offsetof(struct call_key, start)) ||
	    xp_sort_by_u64(ix, w->ncalls, sizeof(*ix), offsetof(struct call_key, group)))
		goto out;
	for (i = 0; i < w->ncevs; i++)
		if (w->cevs[i].call != SIZE_MAX && w->cevs[i].phase == AN_COMP_COMPILE)
			w->calls[w->cevs[i].call].compiles = 1;
	for (i = 0; i < w->ncalls;) {
		const struct call *c0 = &w->calls[ix[i].idx];
		struct an_comp_fn *f = &rows[c0->group];
		size_t end = i;

		while (end < w->ncalls && w->calls[ix[end].idx].group == c0->group)
			end++;
		for (k = i; k < end; k++) {
			w->calls[ix[k].idx].ord = k - i;
			f->compiling_calls += (size_t)w->calls[ix[k].idx].compiles;
		}
		if (!r->opts.function || contains_ci(c0->fn, c0->fnlen, r->opts.function))
			for (k = i; k < end; k++) {
				r->calls_ambiguous += w->calls[ix[k].idx].prog.state == AN_CALL_PROG_AMBIGUOUS;
				r->calls_unsearched += w->calls[ix[k].idx].prog.state == AN_CALL_PROG_UNSEARCHED;
			}
		f->input = input;
		f->has_program = c0->prog.state == AN_CALL_PROG_KNOWN;
		f->program_id = f->has_program ? c0->prog.program : 0;
		f->calls = end - i;
		f->first_ps = c0->end - c0->start;
		f->first_start_ps = c0->start;
		for (k = i + 1; k < end; k++)
			durs[k - i - 1] = w->calls[ix[k].idx].end - w->calls[ix[k].idx].start;
		if (end - i > 1) {
			size_t m = end - i - 1;

			qsort(durs, m, sizeof(*durs), cmp_i64);
			f->later_median_ps = m % 2 ? (double)durs[m / 2]
					   : ((double)durs[m / 2 - 1] + (double)durs[m / 2]) / 2;
			f->has_later = 1;
		}
		if (!(f->name = xp_arena_strndup(&r->arena, c0->fn, c0->fnlen)))
			goto out;
		if (r->opts.function && !contains_ci(c0->fn, c0->fnlen, r->opts.function))
			r->unselected++;
		else
			order[nkept++].group = c0->group;
		i = end;
	}
	for (i = 0; i < w->ncevs; i++) {
		const struct cev *c = &w->cevs[i];

		if (c->call != SIZE_MAX && !c->nested)
			rows[w->calls[c->call].group].phase_ps[c->phase] =
				xp_sat_add(rows[w->calls[c->call].group].phase_ps[c->phase], c->dur);
	}
	for (k = 0; k < nkept; k++)
		order[k].f = rows[order[k].group];
	qsort(order, nkept, sizeof(*order), cmp_fn);
	r->calls += w->ncalls;
	for (k = 0; k < nkept; k++) {
		struct an_comp_fn *f;

		if (r->nfns == r->capfns && xp_grow(&r->fns, &r->capfns, r->nfns, sizeof(*r->fns), 16))
			goto out;
		f = &r->fns[r->nfns++];
		*f = order[k].f;
		f->first_event = r->nevents;
		for (i = 0; i < w->ncevs; i++) {
			const struct cev *c = &w->cevs[i];

			if (c->call != SIZE_MAX && w->calls[c->call].group == order[k].group &&
			    add_event(r, c, input, f, w->calls[c->call].ord))
				goto out;
		}
		f->nevents = r->nevents - f->first_event;
		if (f->nevents > 1)
			qsort(r->events + f->first_event, f->nevents, sizeof(*r->events), cmp_event);
	}
	k = r->nevents;	/* the unattributed ones, then by start */
	for (i = 0; i < w->ncevs; i++) {
		const struct cev *c = &w->cevs[i];

		if (c->call != SIZE_MAX)
			continue;
		r->unattributed++;
		if (!c->nested)
			r->unattributed_ps = xp_sat_add(r->unattributed_ps, c->dur);
		if (!r->opts.function && add_event(r, c, input, NULL, 0))
			goto out;
	}
	if (r->nevents - k > 1)
		qsort(r->events + k, r->nevents - k, sizeof(*r->events), cmp_event);
	ret = 0;
out:
	xp_hmap_release(&groups);
	free(ix);
	free(durs);
	free(rows);
	free(order);
	return ret;
}

size_t *an_comp_fn_groups(const struct an_comp_result *r, size_t *nfns)
{
	struct xp_hmap m = {0};
	struct xp_arena keys;
	size_t *g = malloc((r->nfns + 1) * sizeof(*g)), i, n = 0;

	xp_arena_init(&keys);
	for (i = 0; g && i < r->nfns; i++) {
		const struct an_comp_fn *f = &r->fns[i];
		size_t len = strlen(f->name);
		/* "<input's address>\nname": an input's rows share its string (an_comp_add copies it once) */
		char *key = xp_arena_alloc(&keys, len + 24);

		g[i] = n;
		if (!key) {
			free(g);
			g = NULL;
			break;
		}
		snprintf(key, 24, "%" PRIxPTR "\n", (uintptr_t)f->input);
		memcpy(key + strlen(key), f->name, len + 1);
		switch (xp_hmap_get_or_put(&m, key, &g[i])) {
		case 0:
			n++;
			break;
		case 1:
			break;
		default:
			free(g);
			g = NULL;
		}
	}
	xp_hmap_release(&m);
	xp_arena_release(&keys);
	*nfns = n;
	return g;
}

/* Each call's program (an_callprog.h), its host plane's shift in shifts. */
static int call_programs(struct work *w, struct xp_trace *t, const int64_t *shifts, struct xp_err *err)
{
	struct an_call_span *spans = malloc((w->ncalls + 1) * sizeof(*spans));
	struct an_call_prog *progs = malloc((w->ncalls + 1) * sizeof(*progs));
	size_t i;
	int ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");

	if (spans && progs) {
		for (i = 0; i < w->ncalls; i++) {
			const struct call *c = &w->calls[i];

			spans[i] = (struct an_call_span){c->plane, c->line, c->start, c->end, c->fn, c->fnlen};
		}
		if (!(ret = an_call_programs(t, shifts, spans, w->ncalls, AN_CALLPROG_BUDGET, progs, err)))
			for (i = 0; i < w->ncalls; i++)
				w->calls[i].prog = progs[i];
	}
	free(spans);
	free(progs);
	return ret;
}

int an_comp_add(struct an_comp_result *r, struct xp_trace *t, const char *input, struct xp_err *err)
{
	struct work w = {0};
	int64_t base = INT64_MAX, lo = INT64_MAX, hi = INT64_MIN;
	int64_t *shifts = calloc(t->nplanes + 1, sizeof(*shifts));
	size_t i, li;
	const char *in_copy;
	int ret = 0, ph;

	r->inputs++;
	if (!shifts)
		goto nomem;
	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p = &t->planes[i];

		if (p->loaded && p->nevents && !strncmp(p->name, "/host:", 6) && p->base_ns < base)
			base = p->base_ns;
	}
	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *p = &t->planes[i];
		unsigned char *kind;
		int64_t shift;
		size_t k;

		if (!p->loaded || !p->nevents || strncmp(p->name, "/host:", 6))
			continue;
		if (xp_plane_shift(p, base, &shift)) {
			char name[256];

			xp_escape(name, sizeof(name), p->name);
			ret = xp_err_set(err, XP_ERR_LIMIT, "host plane '%s' starts too far from the first "
					 "host plane for one picosecond timeline", name);
			goto out;
		}
		shifts[i] = shift;
		for (k = 0; k < p->nevents; k++) {
			int64_t s = p->events[k].start_ps + shift, e = s + p->events[k].dur_ps;

			lo = s < lo ? s : lo;
			hi = e > hi ? e : hi;
		}
		if (!(kind = classify(p)))
			goto nomem;
		for (li = 0; li < p->nlines; li++)
			if (p->lines[li].nevents && walk_line(&w, p, i, &p->lines[li], kind, shift)) {
				free(kind);
				goto nomem;
			}
		free(kind);
	}
	if (w.ncalls && (ret = call_programs(&w, t, shifts, err)))
		goto out;
	for (i = 0; i < w.ncevs; i++)
		if (w.cevs[i].call == SIZE_MAX)
			attribute_near(&w, &w.cevs[i]);
	/* nested: inside an event of its phase that belongs to the same call (or to none, as it) */
	for (i = 0; i < w.ncevs; i++)
		w.cevs[i].nested = w.cevs[i].same != SIZE_MAX && w.cevs[w.cevs[i].same].call == w.cevs[i].call;
	if (hi > lo)
		r->host_span_ps = xp_sat_add(r->host_span_ps, xp_sat_sub(hi, lo));
	r->call_events += w.call_events;
	r->compiler_events += w.ncevs;
	for (ph = 0; ph < AN_COMP_NPHASES; ph++)
		r->phase_ps[ph] = xp_sat_add(r->phase_ps[ph], w.phase_ps[ph]);
	r->total_ps = xp_sat_add(r->total_ps, w.total_ps);
	if (!w.ncalls && !w.ncevs)
		r->inputs_without++;
	in_copy = xp_arena_strndup(&r->arena, input ? input : "", input ? strlen(input) : 0);
	if (!in_copy || build(r, &w, in_copy))
		goto nomem;
	goto out;
nomem:
	ret = xp_err_set(err, XP_ERR_NOMEM, "out of memory");
out:
	free(shifts);
	free(w.calls);
	free(w.cevs);
	return ret;
}
