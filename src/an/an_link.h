/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Host linkage for an_exec_find: device correlation_id -> host launch ->
 * enclosing executor. Its first two names are for readers and messages
 * (an_exec.h includes this); the rest is an_exec.c's.
 */
#ifndef AN_LINK_H
#define AN_LINK_H

#include <stddef.h>
#include <stdint.h>

#include "an_corr.h"
#include "xp_model.h"
#include "xp_sat.h"

/* The executor forms host linkage knows, for messages. */
extern const char an_executor_forms[];

/*
 * For xp_read_opts.want_host_event: the host events host linkage takes by
 * their name alone (executors of the older forms); launches, ExecuteThunks
 * and step annotations carry key stats and are kept for those.
 */
int an_exec_wants_host_event(const char *name);

/* A plane's event by start time: sorting these needs no context pointer. */
struct an_ev_ref {
	int64_t start;
	uint32_t idx;
};

/* The host planes' launches and executors, on one host time scale (an_link.c says how). */
struct an_host_link {
	struct an_launch *launches;	/* by (corr, t) */
	size_t nlaunches;
	struct an_corr_index by_corr;	/* of launches */
	struct an_host_exec *hexecs;	/* by (line, start) */
	size_t nhexecs;
	uint32_t *exec_line_of;		/* launch line -> paired executor line, or UINT32_MAX */
	size_t nlines;
	size_t nplanes;			/* host planes */
	int64_t ref_ns;			/* the host time scale: ps since this ns timestamp */
};

/*
 * Reads the host planes of t (loading those the reader deferred) into h,
 * zeroed before. 0, or a negative xp_errcode with err filled for errors
 * other than out of memory. Release h whether it succeeded or not.
 */
int an_host_link_build(struct xp_trace *t, struct an_host_link *h, struct xp_err *err);
void an_host_link_release(struct an_host_link *h);

/* How a device event's correlation id resolved. */
enum an_linked {
	AN_LINKED_OK,
	AN_LINKED_NO_LAUNCH,		/* no host launch has that id */
	AN_LINKED_NO_EXECUTOR,	/* its launch lies in no executor of the event's function */
	AN_LINKED_AMBIGUOUS,		/* several launches fit and neither thread nor time chooses */
};

/*
 * What the device's own uniquely linked events teach about its repeated
 * ids: the host lines that launch for it, and the range of its launch lag
 * (device event start minus launch, on the host time scale).
 */
struct an_dev_link {
	unsigned char *lines;	/* per host line; NULL: none learnt */
	int have_lag;
	int64_t lag_lo, lag_hi;
};

/* Fills dl for device plane p from its events evs[0..n) in start order; 0 or XP_ERR_NOMEM. */
int an_host_link_learn(const struct an_host_link *h, const struct xp_plane *p,
		       const struct an_ev_ref *evs, size_t n, struct an_dev_link *dl);
/* The executor (1 + index) in *hk that launched a device event (an_link.c says how). */
enum an_linked an_host_link_find(const struct an_host_link *h, uint64_t corr, const char *module,
				 const struct an_dev_link *dl, int have_kt, int64_t kt, size_t *hk);
/*
 * Time start_ps of plane p on the host time scale; -1 when it does not fit
 * (planes based farther apart than int64 picoseconds reach).
 */
static inline int an_host_time(const struct an_host_link *h, const struct xp_plane *p,
			       int64_t start_ps, int64_t *out)
{
	int64_t d;

	if (__builtin_sub_overflow(p->base_ns, h->ref_ns, &d) || __builtin_mul_overflow(d, 1000, &d) ||
	    __builtin_add_overflow(d, start_ps, out))
		return -1;
	return 0;
}

/* Time t of plane p on the host time scale, if there are host planes and it fits. */
static inline int an_host_link_time(const struct an_host_link *h, const struct xp_plane *p, int64_t t,
				    int64_t *out)
{
	return h->nplanes && !an_host_time(h, p, t, out);
}

#endif
