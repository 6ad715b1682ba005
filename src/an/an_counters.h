/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Counters (events --counters): the samples of counter lines, a value over
 * time, summarised per plane and counter, pooled over inputs by (plane
 * name, counter name).
 *
 * A counter line is a line named "_counters_" (XProf's counter line, the
 * one its trace viewer draws as counters; CUPTI and ROCm PM sampling write
 * there). Each event on it is one sample: the counter is the event's name,
 * the time its start (its duration is ignored), the value the first of
 *   - a "counter_value" stat (the event's own, then its metadata's: TPU
 *     performance counters write it),
 *   - a stat named as the counter (the event's, then its metadata's: PM
 *     sampling writes the metric's value so),
 *   - the event's only numeric own stat,
 * as a double (int64, uint64 or double; a str, bytes or ref value is no
 * value). A sample without a value, or whose value is NaN or infinite, is
 * counted apart and left out.
 *
 * Per counter: samples, min, mean (of the samples), max and the
 * time-weighted mean: each value held from its sample to the next sample
 * of the counter (samples ordered by time, file order on a tie; the last
 * holds no time), over the first to the last sample. Pooled inputs add
 * their held times and value x time, so the pooled mean weights each input
 * by its span. No span (one sample, or all at one time): unknown.
 */
#ifndef AN_COUNTERS_H
#define AN_COUNTERS_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "xp_err.h"
#include "xp_model.h"

/* XProf's name for the line of counter samples (its kCounterEventsLineName). */
#define AN_COUNTER_LINE "_counters_"

/* Whether a line of that name holds counter samples. */
int an_is_counter_line(const char *name);

struct an_ctr_opts {
	const char *plane;	/* --plane: plane names containing it, any case; NULL: all */
	const regex_t *match;	/* --match: counter names matching; NULL: all */
};

struct an_ctr_row {
	char *plane, *name;
	size_t samples;		/* with a value */
	size_t no_value;	/* samples without a (finite) value, left out */
	double min, max;
	long double sum;	/* of the values, for the mean */
	long double held;	/* sum of value x held time (ps) */
	int64_t held_ps;	/* the time the values were held: the span(s) */
	size_t order;		/* first seen: rows sort by plane in this order, then by name */
};

/* Owns its rows and strings: release with an_ctr_release. */
struct an_ctr_result {
	struct an_ctr_row *rows;
	size_t n, cap;
	size_t samples, no_value;	/* over every row */
	size_t lines;			/* counter lines seen on selected planes */
	size_t planes_seen;		/* planes selected */
	size_t next_order_;
};

void an_ctr_init(struct an_ctr_result *r);
/* Adds the counter lines of t's loaded planes that o selects. 0 or XP_ERR_NOMEM (err set). */
int an_ctr_add(struct an_ctr_result *r, const struct xp_trace *t, const struct an_ctr_opts *o,
	       struct xp_err *err);
/*
 * For xp_read_opts.plane_read (ctx: the an_ctr_opts) and plane_user_free:
 * counts a plane on the thread that read it, so its events may be released
 * at once; an_ctr_add takes the counts from there.
 */
int an_ctr_plane_read(struct xp_plane *p, void *ctx, struct xp_err *err);
void an_ctr_user_free(void *user);
/* Pools rows of one (plane, counter) and sorts them. */
int an_ctr_finish(struct an_ctr_result *r, struct xp_err *err);
void an_ctr_release(struct an_ctr_result *r);

/* The mean of the samples; the time-weighted mean, or NAN with no time held. */
double an_ctr_mean(const struct an_ctr_row *row);
double an_ctr_time_mean(const struct an_ctr_row *row);

/*
 * The value of counter sample e of plane p (the rule above) into *v: 0, or
 * -1 when it has none. buf: room for p->max_own_stats stats (a plane read
 * with XP_EVSTATS_INPUT), else unused.
 */
int an_ctr_value(const struct xp_plane *p, const struct xp_event *e, struct xp_stat *buf, double *v);

#endif
