/* SPDX-License-Identifier: Apache-2.0 */
/* Per-function statistics of execution times, pooled over every input. */
#ifndef AN_FUNCTIONS_H
#define AN_FUNCTIONS_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "an_exec.h"
#include "an_stats.h"
#include "xp_hmap.h"

enum an_time {
	AN_TIME_BUSY,		/* union of the execution's device intervals (default) */
	AN_TIME_SPAN,		/* first start to last end */
	AN_TIME_CHILDREN,	/* union of contained events matching --children */
};

/* The time of one execution that the statistics use. */
int64_t an_exec_time(const struct an_exec *x, enum an_time t);

struct an_fn_opts {
	const regex_t *match;	/* on function names; NULL: all */
	size_t trim;		/* drop this many fastest and slowest samples */
	int per_device;		/* a row per (function, device) */
	enum an_time time;
};

struct an_fn_row {
	char *name;
	char *fingerprint;	/* NULL when none */
	uint64_t program_id;
	int has_program_id;
	char *device;		/* with per_device: "host:plane" or "plane"; else NULL */
	size_t ndevices;	/* distinct devices that ran it */
	size_t events;		/* device events in its executions */
	struct an_summary s;	/* picoseconds */
	double share;		/* total over the busy time of all selected devices */
	/* private */
	double *samples_;
	size_t nsamples_, cap_;
	size_t *devs_;
	size_t ndevs_, devcap_;
};

/* Accumulates executions from many inputs; an_fn_finish computes the rows. */
struct an_fn_result {
	struct an_fn_opts opts;
	struct an_fn_row *rows;	/* after finish: by total time, largest first */
	size_t nrows, cap;
	size_t inputs;
	size_t devices;		/* distinct devices seen */
	int64_t device_busy_ps;	/* sum over devices of their busy time, saturating */
	size_t device_events;
	size_t dropped_short;
	size_t unattributed_events;
	int64_t unattributed_busy_ps;	/* sum over devices of the union of their intervals */
	int busy_saturated;	/* a busy sum passed INT64_MAX ps: held there (an_fn_notes says so) */
	size_t runs_execs, runs_split, runs_repeating;	/* an_device's, summed */
	size_t stray_events, stray_children;	/* an_device's, summed */
	size_t executions;
	size_t functions;	/* distinct (name, program id); rows count devices apart too */
	/* private */
	struct xp_hmap by_key_, dev_ids_;
	double busy_sum_;	/* device_busy_ps unsaturated, for shares of a saturated busy time */
};

void an_fn_init(struct an_fn_result *r, const struct an_fn_opts *o);
int an_fn_add(struct an_fn_result *r, const struct an_exec_list *l, struct xp_err *err);
int an_fn_finish(struct an_fn_result *r, struct xp_err *err);
void an_fn_release(struct an_fn_result *r);

/* "host:plane", or the plane name when the file names no host; caller frees. */
char *an_device_key(const char *hostname, const char *plane);

#endif
