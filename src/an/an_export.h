/* SPDX-License-Identifier: Apache-2.0 */
/*
 * What `export` writes and where: the events selected (--device, --from/--to,
 * --max-events), the time origin, a process id per plane and a thread id per
 * track, and each line's events in the order a timeline viewer wants them,
 * split over as many tracks as partial overlaps need. Counter lines
 * ("_counters_", an_counters.h) are samples of values: the writers give
 * them as counter tracks, not slices.
 *
 * Perfetto (and the JSON trace format it follows) nests slices of one track
 * and does not show slices that overlap without nesting. A line whose events
 * overlap partially is therefore laid out on several tracks: events sorted by
 * start (longer first on a tie) each go to the first track where they nest in
 * or follow what is open there. Track 0 keeps the line's own id; the others
 * are new threads named "LINE #2", "LINE #3" ... At most AN_EXP_MAX_TRACKS per
 * line: an event that fits none is left out and counted (left_overlap).
 *
 * Ownership: the plan borrows the trace (which must outlive it) and owns its
 * arrays; release with an_exp_plan_release.
 */
#ifndef AN_EXPORT_H
#define AN_EXPORT_H

#include <stddef.h>
#include <stdint.h>

#include "xp_err.h"
#include "xp_model.h"

#define AN_EXP_MAX_TRACKS 64
/* Events per piece at most: the unit encoded on one thread and written in order. */
#define AN_EXP_PIECE_EVENTS 65536
/*
 * A piece's weight at most, an event weighing 1 and 1 more per stat (its own
 * and its metadata's: the annotations a writer puts): a piece's output stays
 * about a megabyte or two whatever number of stats its events carry, so that
 * the first bytes are written early and the pieces waiting their turn hold
 * little memory.
 */
#define AN_EXP_PIECE_WEIGHT ((uint64_t)4 * AN_EXP_PIECE_EVENTS)

struct an_exp_opts {
	const char *device;	/* planes whose name contains it, any case; NULL: every plane */
	/* A window in ps from the origin (the first selected event's start). */
	int64_t from_ps, to_ps;
	int have_from, have_to;
	uint64_t max_events;	/* 0: no limit; else the earliest max_events events by start (then line, position) */
	/*
	 * Export plane by plane (cmd_export streams a trace so): have_plane
	 * plans trace plane `plane` alone (total: its events); first_track
	 * continues the numbering of an earlier plan's (piece, line, track)
	 * triples; pids are every trace plane's (an_exp_pids), so that a plane's
	 * pid does not depend on what else is planned with it (NULL: worked out).
	 */
	int have_plane;
	size_t plane;
	uint64_t first_track;
	const int64_t *pids;
	/*
	 * The ns of the file's clock that .pftrace times count from, with
	 * have_clock_zero; else 0, or the origin when that is before 0 or past
	 * AN_EXP_CLOCK_MAX_NS (the format's times are int64 ns, not negative).
	 */
	int have_clock_zero;
	int64_t clock_zero_ns;
	/*
	 * Several traces on one timeline (the hosts of a run): with have_origin
	 * time 0 is origin_ns + origin_sub_ps ps on the files' clock (the
	 * earliest of an_exp_origin over them), not this trace's first start;
	 * --from/--to count from it. name_prefix (NULL: none): process names
	 * are "name_prefix:plane" (the host's).
	 */
	int have_origin;
	int64_t origin_ns, origin_sub_ps;
	const char *name_prefix;
	/* .pftrace track uuids number planes from here (the planes of the traces before on the timeline). */
	size_t plane_base;
};

struct an_exp_plane {
	size_t plane;		/* index in the trace */
	int64_t pid;		/* XLA's trace viewer layout: 1 + id for devices, 701 for host threads */
	int64_t shift_ps;	/* add to the plane's times to make them relative to the origin */
	size_t first_line, nlines;	/* range in plan->lines */
	/*
	 * With counter lines: per event metadata, the counter it is a sample
	 * of, as the lowest index of the metadata of its name (one counter
	 * per name, as events --counters counts them); else NULL.
	 */
	uint32_t *counter_of;
};

struct an_exp_line {
	size_t plane_ix;	/* index in plan->planes */
	size_t line;		/* index in the plane */
	size_t n;		/* the line's events */
	/* Events in start order (index in the line); NULL: file order is that order. */
	uint32_t *order;
	/* Per event in that order: its track, AN_EXP_LEFT_OUT when none fits; NULL: all 0. */
	unsigned char *track;
	unsigned ntracks;
	/*
	 * Thread ids: track 0 the line's id when it is below 2^30, else
	 * tid_extra; track k > 0 tid_extra + k (distinct for a plane's first 2^24 lines).
	 */
	int64_t tid0, tid_extra;
	size_t sort_index;	/* the line's position in its plane */
	/*
	 * A counter line (an_counters.h): its events are samples, instants on
	 * the counter tracks of their plane, one per counter (counter_of), all
	 * on track 0 here; a sample without a value is on no track
	 * (AN_EXP_LEFT_OUT), counted in counter_no_value, never eligible.
	 */
	int counter;
	uint64_t kept_tracks;	/* bit k: track k has an exported event (the writers name only those) */
};

#define AN_EXP_LEFT_OUT 255

/*
 * A run of at most AN_EXP_PIECE_EVENTS events, and at most
 * AN_EXP_PIECE_WEIGHT (or one event), of consecutive lines of one plane, in
 * order: line first_line from position from, the lines between whole, line
 * last_line up to position to (exclusive). Short lines share a piece, so
 * that the pieces number about the larger of events / AN_EXP_PIECE_EVENTS
 * and weight / AN_EXP_PIECE_WEIGHT, plus the planes, whatever the lines.
 */
struct an_exp_piece {
	size_t first_line, from;	/* in plan->lines; position in that line's order */
	size_t last_line, to;
	/*
	 * Its first track's number among every piece's (line, kept track)
	 * pairs, counted in order: the .pftrace writer's packet sequences.
	 */
	uint64_t first_track;
};

/* The positions of line li that piece pc holds: [*from, *to). */
static inline void an_exp_piece_range(const struct an_exp_piece *pc, size_t li, size_t n, size_t *from,
				      size_t *to)
{
	*from = li == pc->first_line ? pc->from : 0;
	*to = li == pc->last_line ? pc->to : n;
}

struct an_exp_plan {
	const struct xp_trace *t;
	int64_t origin_ns;	/* absolute (the file's clock) ns at time 0 */
	int64_t origin_sub_ps;	/* ps after origin_ns of time 0 (the first start, exact) */
	int64_t clock_zero_ns;	/* .pftrace times count from here (an_exp_opts): origin_ns - clock_zero_ns >= 0 unless opts set it */
	/*
	 * --max-events: the first event left out, by (start, line, position):
	 * it and those after it are. cut_line SIZE_MAX: no cut.
	 */
	int64_t cut_start;
	size_t cut_line, cut_pos;
	struct an_exp_plane *planes;
	size_t nplanes;
	struct an_exp_line *lines;	/* those with events, selected or not */
	size_t nlines;
	struct an_exp_piece *pieces;
	size_t npieces;
	uint64_t npiece_tracks;	/* the (piece, line, kept track) triples, in all (from opts.first_track on) */
	/* Counts of events. */
	uint64_t total;		/* in the file (every plane) */
	uint64_t exported;
	uint64_t left_device;	/* on planes --device left out */
	uint64_t left_window;	/* outside --from/--to */
	uint64_t left_max;	/* past --max-events */
	uint64_t left_overlap;	/* overlapping more than AN_EXP_MAX_TRACKS tracks' worth */
	uint64_t counter_no_value;	/* counter samples without a value: on no track (not left_overlap) */
	struct an_exp_opts opts;
};

/*
 * Plans the export of t. Returns 0, XP_ENOMEM, or XP_EINVAL when planes lie
 * too far apart in time to share one int64 picosecond timeline (err says).
 * No event selected is not an error: exported is 0.
 */
int an_exp_plan(const struct xp_trace *t, const struct an_exp_opts *o, struct an_exp_plan *p,
		struct xp_err *err);
void an_exp_plan_release(struct an_exp_plan *p);
/*
 * The first start of t's events on the planes device selects (NULL: all;
 * only loaded planes are looked at), as ns on the file's clock (floor) and
 * ps after it. Returns 0, or -1 when none has an event.
 */
int an_exp_origin(const struct xp_trace *t, const char *device, int64_t *ns, int64_t *sub_ps);
/*
 * Each trace plane's process id (XLA's trace viewer layout, an_export.c),
 * from the planes' names and ids alone, in a new array of t->nplanes.
 * Returns 0 or XP_ERR_NOMEM.
 */
int an_exp_pids(const struct xp_trace *t, int64_t **pids);
/*
 * .pftrace times are int64 ns (Perfetto's) from a clock zero: a plan's times
 * lie within 2^63 ps of its origin (an_exp_plan refuses more), so an origin
 * up to this far from the zero keeps every time in int64.
 */
#define AN_EXP_CLOCK_MAX_NS (INT64_MAX - INT64_MAX / 1000 - 2)
/*
 * The clock zero of a whole trace's .pftrace written plane by plane: 0 (the
 * file's own clock), or, when a loaded plane's first start (its ns, floor) is
 * before 0 or past AN_EXP_CLOCK_MAX_NS, the first start of all of them.
 */
int64_t an_exp_clock_zero(const struct xp_trace *t);
/*
 * The order a trace's planes are exported one by one (an_exp_opts.have_plane):
 * by their bytes in the input (xp_trace_plane_bytes), fewest first, so that
 * the first are written while the biggest is read; ties by index. Fills
 * order[0..t->nplanes).
 */
void an_exp_plane_order(const struct xp_trace *t, size_t *order);

/* The event at position k of line l's order, and its track. */
static inline const struct xp_event *an_exp_event(const struct an_exp_plan *p, const struct an_exp_line *l,
						  size_t k, unsigned *track)
{
	const struct xp_plane *pl = &p->t->planes[p->planes[l->plane_ix].plane];
	size_t i = l->order ? l->order[k] : k;

	*track = l->track ? l->track[k] : 0;
	return &pl->events[pl->lines[l->line].first_event + i];
}

/*
 * Whether the event at position k of line li (times relative to the origin:
 * start, end) is exported: on a track, inside the window, before the cut.
 */
int an_exp_keeps(const struct an_exp_plan *p, size_t li, size_t k, int64_t start, int64_t end, unsigned track);

#endif
