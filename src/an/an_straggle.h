/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Stragglers: which device the others wait for. A synchronous step (a
 * jitted function run on every device, its collectives joining them) ends
 * when its last device ends; the devices that end first wait.
 *
 * A group is one execution of a function (name and program) on each device
 * of one input (one process of a host: its devices share the host's clock)
 * that ran it; the devices of two inputs (two processes, two hosts) are
 * not compared:
 * the k-th execution of the function on each device (run_id is no key: in
 * some traces it counts each device's launches, the bundled v6e trace's
 * among them). A function counts when at least two devices ran it, each as
 * often as the others; else (a device missed an execution: pairing by
 * number would pair the wrong ones) it is left out, and counted (once per
 * input). Per device over its groups:
 *   groups  the groups it ran in;
 *   last    how often it ended last (ties: none of them);
 *   late    its end minus the group's earliest end, summed (a straggler's is
 *           large: the others wait that long for it);
 *   waited  the group's latest end minus its end, summed (the time it waited);
 *   slow    its duration minus the group's shortest, summed (late because it
 *           ran longer, not because it started later).
 * Devices rank by late, largest first. Hosts are not compared with each
 * other: their clocks are not one.
 *
 * Ownership: a result owns its devices and strings; an_strag_release frees them.
 */
#ifndef AN_STRAGGLE_H
#define AN_STRAGGLE_H

#include <stddef.h>
#include <stdint.h>

#include "an_exec.h"
#include "xp_arena.h"
#include "xp_err.h"
#include "xp_model.h"

struct an_strag_device {
	const char *name;	/* the plane's, or "host:plane" when the devices are of several hosts */
	const char *host;	/* NULL: the trace names none */
	const char *plane;
	size_t groups, last;
	double late_ps, waited_ps, slow_ps;	/* sums over its groups */
};

struct an_strag_result {
	struct xp_arena arena;
	struct an_strag_device *devices;	/* after finish: by late, largest first */
	size_t n, cap;
	size_t groups;		/* groups of two devices or more */
	size_t unmatched;	/* functions left out: their devices ran them unequally often */
	size_t hosts;		/* after finish: distinct hosts (none counts as one) */
};

void an_strag_init(struct an_strag_result *r);
/*
 * Adds one input's executions (l, found in t, whose planes give each
 * device's clock). 0, XP_ERR_NOMEM, or XP_ERR_LIMIT (err says why) when
 * its device planes are based too far apart for int64 picoseconds: then
 * nothing of the input is added but its devices.
 */
int an_strag_add(struct an_strag_result *r, const struct xp_trace *t, const struct an_exec_list *l,
		 struct xp_err *err);
int an_strag_finish(struct an_strag_result *r, struct xp_err *err);
void an_strag_release(struct an_strag_result *r);

#endif
