/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What a file holds by name (XProf's aggregate_xplane_events): per plane and
 * line, each distinct event name with its count and total time, pooled over
 * inputs by (plane name, line name, event name). Aggregated events (xp_agg)
 * count as the occurrences they stand for, with their total.
 */
#ifndef AN_EVENTS_H
#define AN_EVENTS_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "xp_arena.h"
#include "xp_model.h"

struct an_ev_opts {
	const char *plane;	/* --plane: plane names containing it, any case (an_device_matches); NULL: all */
	const char *line;	/* --line: the same for line names */
	const regex_t *match;	/* --match: event names matching; NULL: all */
};

struct an_ev_row {
	const char *plane, *line, *name;	/* owned by the result's arena */
	size_t order;		/* first-seen order of (plane, line): rows sort by it, then by total */
	size_t count;		/* every event of that name, stray ends included */
	size_t stray;		/* of count: stray ends (xp_stray.h), left out of the times */
	/*
	 * Of count: occurrences that aggregated events stand for (xp_agg: a
	 * count and a total, no times), their totals in total_ps. Their
	 * longest is unknown, and their shortest where the writer left out
	 * min_duration_ps: max_ps / min_ps are then unknown (the flags) and 0.
	 */
	size_t aggregated;
	int min_unknown, max_unknown;
	int64_t total_ps, min_ps, max_ps;	/* over count - stray events; 0 when none */
};

/* Owns its strings and rows: release with an_ev_release. */
struct an_ev_result {
	struct xp_arena arena;
	struct an_ev_row *rows;
	size_t n, cap;
	size_t events;		/* events selected, over every row */
	size_t stray;		/* of events: stray ends */
	size_t aggregated;	/* of events: occurrences of aggregated events */
	size_t aggregated_odd;	/* aggregated events counted whose self or min duration was unreadable */
	int counts_saturated_;	/* private: events reached SIZE_MAX, said once (an_ev_add_input) */
	size_t planes_seen;	/* planes selected by --plane, loaded */
	size_t planes;		/* distinct plane names with a selected event (an_ev_finish) */
	size_t next_order_;
};

void an_ev_init(struct an_ev_result *r);
/*
 * Adds the events of t (every plane loaded) that o selects. Each plane's
 * stray ends are found over all its lines. Returns 0 or a negative xp_errcode.
 */
int an_ev_add(struct an_ev_result *r, const struct xp_trace *t, const struct an_ev_opts *o,
	      struct xp_err *err);
/*
 * For xp_read_opts.plane_read (ctx: the an_ev_opts an_ev_add gets) and
 * plane_user_free: counts a plane on the thread that read it, so that its
 * events may be released at once; an_ev_add takes the counts from there.
 */
int an_ev_plane_read(struct xp_plane *p, void *ctx, struct xp_err *err);
void an_ev_user_free(void *user);
/* Pools rows of the same (plane, line, name) and sorts: by first-seen (plane, line), then total, descending. */
int an_ev_finish(struct an_ev_result *r, struct xp_err *err);
void an_ev_release(struct an_ev_result *r);

/*
 * Calls fn with each event of t that o selects, plane by plane (loaded
 * ones), line by line in file order; stops at fn's first non-zero return
 * and returns it, or XP_ERR_NOMEM; 0 when every event was given.
 */
int an_ev_each(const struct an_ev_opts *o, const struct xp_trace *t,
	       int (*fn)(void *ctx, const struct xp_plane *p, const struct xp_event *e), void *ctx);
/* Whether o selects plane p's line l (by names). */
int an_ev_selects_line(const struct an_ev_opts *o, const char *plane, const char *line);

#endif
