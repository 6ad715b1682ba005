/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stray ends: events whose duration_ps holds what looks like an absolute end
 * time (seen on TPU traces with kernel-profiling counters, where a handful of
 * events stretch a chip's 0.6 ms of work to 82 ms). Lines record no window of
 * their own (duration_ps is 0 in real files), so the rule looks at events only.
 *
 * The rule, over a set of events S (a plane's events on the lines an analysis
 * uses), n = |S|, sorted by end time (start_ps + dur_ps):
 *   for k = 1, 2, ... up to floor(n / 10), let REST be S without its k
 *   latest-ending events, and W = (max end of REST) - (min start of REST).
 *   The k latest-ending events are stray ends when
 *     - REST has at least 10 events and W > 0,
 *     - each of the k starts no later than REST's max end (it starts inside
 *       the recorded window: a later step or execution is not malformed), and
 *     - each ends more than 10 * W after REST's max end (alone it would make
 *       the span more than 11 times as long).
 *   The smallest such k is taken (a cluster of identical bad events is found
 *   together); when there is none, no event is a stray end.
 * Why: a real event cannot end ten windows after every other event of its
 * plane, as the profiling session would have had to run that long recording
 * nothing else. Planes of fewer than 11 events are exempt: their window says
 * little. A tie at the cut (the k-th latest end equal to the (k+1)-th) never
 * qualifies, so the result depends on the set of events, not on their order:
 * both readers give the same answer for the same lines.
 */
#ifndef XP_STRAY_H
#define XP_STRAY_H

#include <stddef.h>
#include <stdint.h>

#include "xp_err.h"
#include "xp_model.h"

/* Fewer events than this in REST and the window says too little. */
#define XP_STRAY_MIN_REST 10
/* A stray event ends more than this many windows after the others. */
#define XP_STRAY_WINDOWS 10

/*
 * Applies the rule above to the events of p on the lines for which use_line[i]
 * is nonzero (use_line has p->nlines entries; NULL: every line of p; a line the
 * reader skipped or a plane not loaded has no events to use).
 * stray (p->nevents entries, the caller's) gets 1 for each stray event and 0
 * for every other event of p, used or not; *count gets the number of 1s.
 * O(n log n) in the used events; p is only read. Returns 0, or XP_ERR_NOMEM
 * with err filled (stray and *count then hold zeros).
 */
int xp_plane_stray_ends(const struct xp_plane *p, const unsigned char *use_line,
			unsigned char *stray, size_t *count, struct xp_err *err);

/*
 * A line's events summed up as they are read, for a plane read in pieces
 * (xp_read_opts.line_events), times relative to the line: enough to decide
 * most planes without their events. Ends, less the line's first end, are
 * counted in power-of-two buckets (sign and magnitude), each with the
 * smallest start of its events.
 */
#define XP_SPAN_BUCKETS 128
struct xp_line_spans {
	uint64_t n;
	int64_t min_start, max_start, max_end;	/* valid when n */
	int64_t origin;		/* the first event's end: the buckets count from there */
	int bad;		/* a negative duration or an end past int64: the whole read says what */
	uint64_t count[XP_SPAN_BUCKETS];
	int64_t first_start[XP_SPAN_BUCKETS];	/* smallest start of a bucket's events */
};

/* Adds events (start_ps relative to the line) to a zeroed or added-to ls. */
void xp_line_spans_add(struct xp_line_spans *ls, const struct xp_event *ev, size_t n);

/* A line's spans relative to its plane's base: what an analysis of a plane read in pieces uses. */
struct xp_plane_span {
	int64_t first_ps, last_end_ps;	/* of its events; 0 if none */
};

/*
 * For plane p read in pieces, each line's user an xp_line_spans: every
 * line's span relative to the plane's base into spans (p->nlines), when
 * the summaries prove there is no stray end (the rule above over all of
 * p's lines). 0: proven, spans filled; XP_ERR_AGAIN: they do not prove it
 * (or a line is bad, or a time would leave int64): read the plane whole;
 * XP_ERR_NOMEM with err filled.
 */
int xp_plane_spans_no_stray(const struct xp_plane *p, struct xp_plane_span *spans, struct xp_err *err);

#endif
