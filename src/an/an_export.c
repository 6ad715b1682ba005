/* SPDX-License-Identifier: Apache-2.0 */
/* The export plan: selection, time origin, process and thread ids, tracks (an_export.h). */
#include <stdlib.h>
#include <string.h>

#include "an_counters.h"
#include "an_exec.h"
#include "an_export.h"
#include "xp_sort.h"

/* XLA's trace viewer: devices 1..500 (1 + plane id), custom planes 501..700, host threads 701. */
#define PID_FIRST_DEVICE 1
#define PID_LAST_DEVICE 500
#define PID_FIRST_CUSTOM 501
#define PID_LAST_CUSTOM 700
#define PID_HOST_THREADS 701
#define PID_OTHER 1000
/* Thread ids past the small line ids: AN_EXP_MAX_TRACKS per line, below 2^31. */
#define TID_FRESH ((int64_t)1 << 30)
#define TID_FRESH_LINES (((int64_t)1 << 30) / AN_EXP_MAX_TRACKS)

static int has_prefix(const char *s, const char *pre)
{
	return strncmp(s, pre, strlen(pre)) == 0;
}

/*
 * pids as XLA's converter gives them where they are free, in plane order,
 * else 1000 + the plane's index (unique, as no other rule reaches 1000).
 * From every plane's name and id, whether it has events or is selected, so
 * that a plane keeps its pid in any selection and in a plan of its own.
 */
int an_exp_pids(const struct xp_trace *t, int64_t **pids)
{
	unsigned char used[PID_HOST_THREADS + 1] = {0};
	int64_t custom = PID_FIRST_CUSTOM, *v;
	size_t i;

	*pids = v = malloc((t->nplanes + 1) * sizeof(*v));
	if (!v)
		return XP_ERR_NOMEM;
	for (i = 0; i < t->nplanes; i++) {
		const struct xp_plane *pl = &t->planes[i];
		int64_t pid = -1;

		if (has_prefix(pl->name, "/device:") && pl->id >= 0 && pl->id <= PID_LAST_DEVICE - PID_FIRST_DEVICE)
			pid = PID_FIRST_DEVICE + pl->id;
		else if (has_prefix(pl->name, "/custom:") && custom <= PID_LAST_CUSTOM)
			pid = custom++;
		else if (!strcmp(pl->name, "/host:CPU"))
			pid = PID_HOST_THREADS;
		if (pid >= 0 && used[pid])
			pid = -1;
		if (pid >= 0)
			used[pid] = 1;
		v[i] = pid >= 0 ? pid : PID_OTHER + (int64_t)i;
	}
	return 0;
}

/* ps to ns, rounded down (toward minus infinity: a start before 0 stays before its ns). */
static __int128 floor_ns(__int128 ps)
{
	return ps >= 0 ? ps / 1000 : -((-ps + 999) / 1000);
}

int an_exp_origin(const struct xp_trace *t, const char *device, int64_t *ns, int64_t *sub_ps)
{
	__int128 first = 0, f;
	int have = 0;
	size_t pi, k;

	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *pl = &t->planes[pi];
		int64_t min = INT64_MAX;

		if (!pl->loaded || !pl->nevents || !pl->events || (device && !an_device_matches(pl->name, device)))
			continue;
		for (k = 0; k < pl->nevents; k++)
			if (pl->events[k].start_ps < min)
				min = pl->events[k].start_ps;
		f = (__int128)pl->base_ns * 1000 + min;
		if (!have || f < first)
			first = f;
		have = 1;
	}
	if (!have)
		return -1;
	f = floor_ns(first);
	*ns = (int64_t)f;	/* an int64 ns times 1000 plus an int64 ps: its floor fits */
	*sub_ps = (int64_t)(first - f * 1000);
	return 0;
}

int64_t an_exp_clock_zero(const struct xp_trace *t)
{
	__int128 first = 0, last = 0;
	int have = 0;
	size_t pi, k;

	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *pl = &t->planes[pi];
		int64_t min = INT64_MAX;
		__int128 a, ns;

		if (!pl->loaded || !pl->nevents || !pl->events)
			continue;
		for (k = 0; k < pl->nevents; k++)
			if (pl->events[k].start_ps < min)
				min = pl->events[k].start_ps;
		a = (__int128)pl->base_ns * 1000 + min;
		ns = floor_ns(a);	/* as an_exp_plan's origin_ns */
		if (!have || ns < first)
			first = ns;
		if (!have || ns > last)
			last = ns;
		have = 1;
	}
	if (first >= 0 && last <= AN_EXP_CLOCK_MAX_NS)
		return 0;
	/* (a first start past int64 ns: every plan of it fails, too far apart for one timeline) */
	return first > INT64_MAX ? INT64_MAX : first < INT64_MIN ? INT64_MIN : (int64_t)first;
}

static int by_plane_bytes(const void *a, const void *b, void *ctx)
{
	const struct xp_trace *t = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	size_t bx = xp_trace_plane_bytes(t, x), by = xp_trace_plane_bytes(t, y);

	if (bx != by)
		return bx < by ? -1 : 1;
	return x < y ? -1 : x > y;
}

void an_exp_plane_order(const struct xp_trace *t, size_t *order)
{
	size_t k;

	for (k = 0; k < t->nplanes; k++)
		order[k] = k;
	qsort_r(order, t->nplanes, sizeof(*order), by_plane_bytes, (void *)t);
}

struct sortrec {
	int64_t start;
	uint64_t end_desc;	/* the end, ordered descending */
	uint32_t idx;
};

static uint64_t desc_key(int64_t v)
{
	return ~((uint64_t)v ^ 0x8000000000000000ull);
}

/* Whether the line's events are in (start ascending, end descending) order already. */
static int line_sorted(const struct xp_event *ev, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++) {
		if (ev[i].start_ps > ev[i - 1].start_ps)
			continue;
		if (ev[i].start_ps < ev[i - 1].start_ps ||
		    ev[i].start_ps + ev[i].dur_ps > ev[i - 1].start_ps + ev[i - 1].dur_ps)
			return 0;
	}
	return 1;
}

static int sort_line(const struct xp_event *ev, size_t n, uint32_t **order)
{
	struct sortrec *r = malloc(n * sizeof(*r));
	size_t i;
	int ret = XP_ERR_NOMEM;

	*order = malloc(n * sizeof(**order));
	if (!r || !*order)
		goto out;
	for (i = 0; i < n; i++) {
		r[i].start = ev[i].start_ps;
		r[i].end_desc = desc_key(ev[i].start_ps + ev[i].dur_ps);
		r[i].idx = (uint32_t)i;
	}
	if (xp_sort_by_u64(r, n, sizeof(*r), offsetof(struct sortrec, end_desc)) ||
	    xp_sort_by_i64(r, n, sizeof(*r), offsetof(struct sortrec, start)))
		goto out;
	for (i = 0; i < n; i++)
		(*order)[i] = r[i].idx;
	ret = 0;
out:
	free(r);
	if (ret) {
		free(*order);
		*order = NULL;
	}
	return ret;
}

struct stack {
	int64_t *end;
	size_t n, cap;
};

/*
 * Lays a line's events (in order) on tracks: each on the first track whose
 * open events, once those that ended are closed, contain it or are none.
 * l->kept_tracks: the tracks given an event (what export keeps with no
 * window and no --max-events cut).
 */
static int layer_line(const struct xp_event *ev, struct an_exp_line *l, uint64_t *left)
{
	struct stack st[AN_EXP_MAX_TRACKS];
	unsigned ntracks = 1, k;
	size_t j;
	int ret = XP_ERR_NOMEM;

	memset(st, 0, sizeof(st));
	for (j = 0; j < l->n; j++) {
		const struct xp_event *e = &ev[l->order ? l->order[j] : j];
		int64_t s = e->start_ps, end = s + e->dur_ps;

		for (k = 0; k < ntracks; k++) {
			struct stack *t = &st[k];

			while (t->n && t->end[t->n - 1] <= s)
				t->n--;
			if (!t->n || t->end[t->n - 1] >= end)
				break;
		}
		if (k == ntracks) {
			if (ntracks < AN_EXP_MAX_TRACKS)
				ntracks++;
			else
				k = AN_EXP_LEFT_OUT;
		}
		if (k && !l->track) {
			if (!(l->track = calloc(l->n, 1)))
				goto out;
		}
		if (l->track)
			l->track[j] = (unsigned char)k;
		if (k == AN_EXP_LEFT_OUT) {
			++*left;
			continue;
		}
		l->kept_tracks |= (uint64_t)1 << k;
		if (st[k].n == st[k].cap) {
			size_t cap = st[k].cap ? 2 * st[k].cap : 16;
			int64_t *m = realloc(st[k].end, cap * sizeof(*m));

			if (!m)
				goto out;
			st[k].end = m;
			st[k].cap = cap;
		}
		st[k].end[st[k].n++] = end;
	}
	l->ntracks = ntracks;
	ret = 0;
out:
	for (k = 0; k < AN_EXP_MAX_TRACKS; k++)
		free(st[k].end);
	return ret;
}

/* Inside --from/--to: some part of it in [from, to), or an instant at from. */
static int in_window(const struct an_exp_plan *p, int64_t start, int64_t end)
{
	if (p->opts.have_to && start >= p->opts.to_ps)
		return 0;
	if (p->opts.have_from && !(end > p->opts.from_ps || (end == start && start >= p->opts.from_ps)))
		return 0;
	return 1;
}

static int before_cut(const struct an_exp_plan *p, size_t li, size_t k, int64_t start)
{
	if (p->cut_line == SIZE_MAX || start < p->cut_start)
		return 1;
	if (start > p->cut_start)
		return 0;
	return li < p->cut_line || (li == p->cut_line && k < p->cut_pos);
}

int an_exp_keeps(const struct an_exp_plan *p, size_t li, size_t k, int64_t start, int64_t end, unsigned track)
{
	return track != AN_EXP_LEFT_OUT && in_window(p, start, end) && before_cut(p, li, k, start);
}

/* Each event of line l with its times relative to the origin. */
#define FOR_LINE_EVENTS(p, l, k, e, tr, s, en)                                                      \
	for (k = 0; k < (l)->n && ((e) = an_exp_event((p), (l), k, &(tr)),                          \
				   (s) = (e)->start_ps + (p)->planes[(l)->plane_ix].shift_ps,       \
				   (en) = (s) + (e)->dur_ps, 1); k++)

/*
 * A counter line's samples on track 0, those without a value on none
 * (counted in *none); kept_tracks set when one has a value.
 */
static int lay_counters(const struct xp_plane *pl, const struct xp_event *ev, struct an_exp_line *l,
			uint64_t *none)
{
	struct xp_stat *buf = malloc(((size_t)pl->max_own_stats + 1) * sizeof(*buf));
	size_t j;
	double v;

	if (!buf)
		return XP_ERR_NOMEM;
	l->ntracks = 1;
	for (j = 0; j < l->n; j++) {
		if (!an_ctr_value(pl, &ev[l->order ? l->order[j] : j], buf, &v)) {
			l->kept_tracks = 1;
			continue;
		}
		if (!l->track && !(l->track = calloc(l->n, 1))) {
			free(buf);
			return XP_ERR_NOMEM;
		}
		l->track[j] = AN_EXP_LEFT_OUT;
		++*none;
	}
	free(buf);
	return 0;
}

struct meta_name {
	const char *name;
	uint32_t ix;
};

static int cmp_meta_name(const void *a, const void *b)
{
	const struct meta_name *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	return c ? c : (x->ix > y->ix) - (x->ix < y->ix);
}

/* ep->counter_of for plane pl: each metadata's counter, the lowest index of its name. */
static int counter_names(const struct xp_plane *pl, struct an_exp_plane *ep)
{
	struct meta_name *v = malloc((pl->nevmetas + 1) * sizeof(*v));
	size_t i;

	if (!v || !(ep->counter_of = malloc((pl->nevmetas + 1) * sizeof(*ep->counter_of)))) {
		free(v);
		return XP_ERR_NOMEM;
	}
	for (i = 0; i <= pl->nevmetas; i++) {	/* the missing-metadata entry too */
		v[i].name = pl->evmetas[i].name;
		v[i].ix = (uint32_t)i;
	}
	qsort(v, pl->nevmetas + 1, sizeof(*v), cmp_meta_name);
	for (i = 0; i <= pl->nevmetas; i++)
		ep->counter_of[v[i].ix] = i && !strcmp(v[i].name, v[i - 1].name) ? ep->counter_of[v[i - 1].ix]
										: v[i].ix;
	free(v);
	return 0;
}

struct cutrec {
	int64_t start;
	size_t line, pos;
};

/*
 * --max-events: the first event past the earliest max_events in the window,
 * by start, then line, then position (records gathered in line and position
 * order, sorted stably by start).
 */
static int find_cutoff(struct an_exp_plan *p, uint64_t eligible)
{
	struct cutrec *r, c;
	int64_t s, en;
	const struct xp_event *e;
	size_t li, k, n = 0;
	unsigned tr;

	if (!p->opts.max_events || eligible <= p->opts.max_events)
		return 0;
	if (!(r = malloc(eligible * sizeof(*r))))
		return XP_ERR_NOMEM;
	for (li = 0; li < p->nlines; li++) {
		const struct an_exp_line *l = &p->lines[li];

		FOR_LINE_EVENTS(p, l, k, e, tr, s, en)
			if (tr != AN_EXP_LEFT_OUT && in_window(p, s, en)) {
				r[n].start = s;
				r[n].line = li;
				r[n++].pos = k;
			}
	}
	if (xp_sort_by_i64(r, n, sizeof(*r), offsetof(struct cutrec, start))) {
		free(r);
		return XP_ERR_NOMEM;
	}
	c = r[p->opts.max_events];
	p->cut_start = c.start;
	p->cut_line = c.line;
	p->cut_pos = c.pos;
	free(r);
	return 0;
}

struct idrec {
	int64_t id;
	size_t line;
};

/* Lines of one plane with the same id (or too large a one) take a thread id of their own. */
static int unique_tids(struct an_exp_plan *p, size_t first, size_t n)
{
	struct idrec *r = malloc((n + 1) * sizeof(*r));
	size_t i;

	if (!r)
		return XP_ERR_NOMEM;
	for (i = 0; i < n; i++) {
		r[i].id = p->lines[first + i].tid0;
		r[i].line = first + i;
	}
	if (xp_sort_by_i64(r, n, sizeof(*r), 0)) {
		free(r);
		return XP_ERR_NOMEM;
	}
	for (i = 1; i < n; i++)
		if (r[i].id == r[i - 1].id)
			p->lines[r[i].line].tid0 = p->lines[r[i].line].tid_extra;
	free(r);
	return 0;
}

/* An event's weight in a piece (AN_EXP_PIECE_WEIGHT): 1, and 1 per stat its annotations may hold. */
static uint64_t event_weight(const struct xp_plane *pl, const struct xp_event *e)
{
	return 1 + (uint64_t)e->nstats + (e->meta < pl->nevmetas ? pl->evmetas[e->meta].nstats : 0);
}

/*
 * p's pieces (struct an_exp_piece): each plane's lines in turn, in each
 * line's order, a new piece where the last has AN_EXP_PIECE_EVENTS events
 * or the next event would take it past AN_EXP_PIECE_WEIGHT. Returns 0 or
 * XP_ERR_NOMEM.
 */
static int cut_pieces(struct an_exp_plan *p)
{
	size_t pi, li, cap = 0;

	for (pi = 0; pi < p->nplanes; pi++) {
		const struct an_exp_plane *ep = &p->planes[pi];
		const struct xp_plane *pl = &p->t->planes[ep->plane];
		struct an_exp_piece *pc = NULL;
		size_t fill = 0;
		uint64_t weight = 0;

		for (li = ep->first_line; li < ep->first_line + ep->nlines; li++) {
			const struct an_exp_line *l = &p->lines[li];
			const struct xp_event *ev = pl->events + pl->lines[l->line].first_event;
			size_t at;

			for (at = 0; at < l->n; at++) {
				uint64_t w = event_weight(pl, ev + (l->order ? l->order[at] : at));

				if (!pc || fill == AN_EXP_PIECE_EVENTS || weight + w > AN_EXP_PIECE_WEIGHT) {
					if (xp_grow(&p->pieces, &cap, p->npieces, sizeof(*p->pieces), 64))
						return XP_ERR_NOMEM;
					pc = &p->pieces[p->npieces++];
					memset(pc, 0, sizeof(*pc));
					pc->first_line = li;
					pc->from = at;
					fill = 0;
					weight = 0;
				}
				fill++;
				weight += w;
				pc->last_line = li;
				pc->to = at + 1;
			}
		}
	}
	return 0;
}

int an_exp_plan(const struct xp_trace *t, const struct an_exp_opts *o, struct an_exp_plan *p,
		struct xp_err *err)
{
	__int128 first = 0;
	int have_first = 0, ret = XP_ERR_NOMEM;
	size_t pi, li, k, nl = 0, np = 0;	/* lines and planes with events */
	uint64_t eligible = 0, laid = 0, left;
	int64_t s, en;
	const struct xp_event *e;
	unsigned tr;

	memset(p, 0, sizeof(*p));
	p->t = t;
	p->opts = *o;
	p->cut_line = SIZE_MAX;
	/* The selected planes with events. */
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *pl = &t->planes[pi];

		if (o->have_plane && pi != o->plane)
			continue;
		p->total += pl->nevents;
		if (!pl->nevents)
			continue;
		if (o->device && !an_device_matches(pl->name, o->device)) {
			p->left_device += pl->nevents;
			continue;
		}
		np++;
		for (li = 0; li < pl->nlines; li++)
			nl += pl->lines[li].nevents > 0;
	}
	if (!np) {
		if (o->have_origin) {	/* nothing of this trace: the timeline's origin all the same */
			p->origin_ns = o->origin_ns;
			p->origin_sub_ps = o->origin_sub_ps;
		}
		return 0;
	}
	if (!(p->planes = calloc(np, sizeof(*p->planes))) || !(p->lines = calloc(nl, sizeof(*p->lines))))
		goto fail;
	/* Each line in start order and laid on tracks; the origin: the first start of all. */
	for (pi = 0; pi < t->nplanes; pi++) {
		const struct xp_plane *pl = &t->planes[pi];
		struct an_exp_plane *ep;

		if (!pl->nevents || (o->have_plane && pi != o->plane) ||
		    (o->device && !an_device_matches(pl->name, o->device)))
			continue;
		ep = &p->planes[p->nplanes];
		ep->plane = pi;
		ep->first_line = p->nlines;
		for (li = 0; li < pl->nlines; li++) {
			const struct xp_line *ln = &pl->lines[li];
			struct an_exp_line *l;

			if (!ln->nevents)
				continue;
			l = &p->lines[p->nlines++];
			l->plane_ix = p->nplanes;
			l->line = li;
			l->n = ln->nevents;
			l->sort_index = li;
			/*
			 * Thread ids as JSON readers keep them (XLA's are 32-bit): the
			 * line's id when small, else one of a range no small id reaches.
			 */
			l->tid_extra = TID_FRESH + (int64_t)(li % TID_FRESH_LINES) * AN_EXP_MAX_TRACKS;
			l->tid0 = ln->id >= 0 && ln->id < TID_FRESH ? ln->id : l->tid_extra;
			if (l->n > UINT32_MAX) {
				ret = xp_err_set(err, XP_ERR_LIMIT, "line '%s' of plane '%s' has more than %u events",
						 ln->name, pl->name, UINT32_MAX);
				goto fail;
			}
			if (!line_sorted(pl->events + ln->first_event, l->n) &&
			    sort_line(pl->events + ln->first_event, l->n, &l->order))
				goto fail;
			left = p->left_overlap + p->counter_no_value;
			if ((l->counter = an_is_counter_line(ln->name))) {	/* instants, all on track 0 */
				if ((!ep->counter_of && counter_names(pl, ep)) ||
				    lay_counters(pl, pl->events + ln->first_event, l, &p->counter_no_value))
					goto fail;	/* out of memory (ret) */
			} else if (layer_line(pl->events + ln->first_event, l, &p->left_overlap)) {
				goto fail;
			}
			laid += l->n - (p->left_overlap + p->counter_no_value - left);
			{
				/* the line's first start, its first event in start order */
				const struct xp_event *f = pl->events + ln->first_event + (l->order ? l->order[0] : 0);
				__int128 a = (__int128)pl->base_ns * 1000 + f->start_ps;

				if (!have_first || a < first)
					first = a;
				have_first = 1;
			}
		}
		ep->nlines = p->nlines - ep->first_line;
		if (unique_tids(p, ep->first_line, ep->nlines))
			goto fail;
		p->nplanes++;
	}
	if (o->have_origin) {
		p->origin_ns = o->origin_ns;
		p->origin_sub_ps = o->origin_sub_ps;
	} else {
		__int128 ns = floor_ns(first);

		p->origin_ns = (int64_t)ns;
		p->origin_sub_ps = (int64_t)(first - ns * 1000);
	}
	p->clock_zero_ns = o->have_clock_zero ? o->clock_zero_ns
			 : p->origin_ns < 0 || p->origin_ns > AN_EXP_CLOCK_MAX_NS ? p->origin_ns : 0;
	for (pi = 0; pi < p->nplanes; pi++) {
		const struct xp_plane *pl = &t->planes[p->planes[pi].plane];

		if (xp_plane_shift(pl, p->origin_ns, &p->planes[pi].shift_ps)) {
			ret = xp_err_set(err, XP_ERR_LIMIT,
					 "plane '%s' has events more than 106 days (2^63 ps) after the first "
					 "event: too far apart for one picosecond timeline",
					 pl->name);
			goto fail;
		}
		p->planes[pi].shift_ps -= p->origin_sub_ps;
	}
	if (o->pids) {
		for (pi = 0; pi < p->nplanes; pi++)
			p->planes[pi].pid = o->pids[p->planes[pi].plane];
	} else {
		int64_t *pids;

		if (an_exp_pids(t, &pids))
			goto fail;
		for (pi = 0; pi < p->nplanes; pi++)
			p->planes[pi].pid = pids[p->planes[pi].plane];
		free(pids);
	}
	if (!o->have_from && !o->have_to && (!o->max_events || laid <= o->max_events)) {
		/* every event laid on a track is kept (layer_line's kept_tracks): no pass over them */
		p->exported = laid;
	} else {
		/* The window, then --max-events over what it keeps. */
		for (li = 0; li < p->nlines; li++) {
			const struct an_exp_line *l = &p->lines[li];

			p->lines[li].kept_tracks = 0;
			FOR_LINE_EVENTS(p, l, k, e, tr, s, en) {
				if (tr == AN_EXP_LEFT_OUT)
					continue;
				if (in_window(p, s, l->counter ? s : en))
					eligible++;
				else
					p->left_window++;
			}
		}
		if ((ret = find_cutoff(p, eligible)))
			goto fail;
		for (li = 0; li < p->nlines; li++) {
			const struct an_exp_line *l = &p->lines[li];

			FOR_LINE_EVENTS(p, l, k, e, tr, s, en)
				if (an_exp_keeps(p, li, k, s, l->counter ? s : en, tr)) {
					p->exported++;
					p->lines[li].kept_tracks |= (uint64_t)1 << tr;
				}
		}
		p->left_max = eligible - p->exported;
	}
	/* Pieces: a plane's lines in turn, short lines together, cut by events and weight. */
	if ((ret = cut_pieces(p)))
		goto fail;
	for (pi = 0; pi < p->npieces; pi++) {
		p->pieces[pi].first_track = o->first_track + p->npiece_tracks;
		for (li = p->pieces[pi].first_line; li <= p->pieces[pi].last_line; li++)
			p->npiece_tracks += (uint64_t)__builtin_popcountll(p->lines[li].kept_tracks);
	}
	return 0;
fail:
	if (ret == XP_ERR_NOMEM)
		xp_err_set(err, XP_ERR_NOMEM, "out of memory");
	an_exp_plan_release(p);
	return ret;
}

void an_exp_plan_release(struct an_exp_plan *p)
{
	size_t i;

	if (!p)
		return;
	for (i = 0; i < p->nlines; i++) {
		free(p->lines[i].order);
		free(p->lines[i].track);
	}
	for (i = 0; i < p->nplanes; i++)
		free(p->planes[i].counter_of);
	free(p->lines);
	free(p->planes);
	free(p->pieces);
	memset(p, 0, sizeof(*p));
}
