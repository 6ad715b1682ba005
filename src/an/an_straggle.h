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
 * Devices rank by late, largest first.
 *
 * Hosts: their clocks are not one, so their ends are never compared; their
 * durations are. Inputs added with their paths (an_strag_add_input) are
 * grouped into runs as an_group_runs groups them (run_by: the hosts of a
 * session directory are one run). In a run of several hosts, a host group
 * is the k-th execution of a function on every host of the run that ran
 * it, each host's time for it the longest of its devices' (its devices
 * wait for their last); a function counts when every host of the run ran
 * it, and each host's devices equally often, else it is left out (counted
 * once per run). Per host (by name, over the runs) over its host groups:
 *   groups   the groups it ran in;
 *   slowest  how often its time was the longest (ties: none);
 *   slow     its time minus the group's shortest, summed.
 * Hosts rank by slow per group, largest first; the slowest host is named
 * (an_strag_slowest_host) when it was the slowest in more than half of its
 * groups.
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
#include "xp_hmap.h"
#include "xp_model.h"

struct an_strag_device {
	const char *name;	/* the plane's, or "host:plane" when the devices are of several hosts */
	const char *host;	/* NULL: the trace names none */
	const char *plane;
	size_t groups, last;
	double late_ps, waited_ps, slow_ps;	/* sums over its groups */
};

struct an_strag_host {
	const char *name;	/* the hostname, else the file's name less .xplane.pb[.gz] */
	size_t groups, slowest;
	double slow_ps;		/* sum over its groups */
};

struct an_strag_result {
	struct xp_arena arena;
	struct an_strag_device *devices;	/* after finish: by late, largest first */
	size_t n, cap;
	size_t groups;		/* groups of two devices or more */
	size_t unmatched;	/* functions left out: their devices ran them unequally often */
	size_t hosts;		/* after finish: distinct hosts (none counts as one) */
	int run_by;		/* an enum an_run_by (an_group.h): how inputs are grouped into runs */
	/* after finish: hosts of runs of several hosts, by slow per group, largest first */
	struct an_strag_host *host_rows;
	size_t nhost_rows;
	size_t host_groups;	/* host groups of two hosts or more */
	size_t host_unmatched;	/* functions left out of a run's host groups (per run) */
	size_t host_runs;	/* runs of several hosts compared */
	/* private: each input's host times, for finish */
	struct an_strag_in_ *ins_;
	size_t nins_, cap_ins_;
	struct xp_hmap fn_keys_;
	size_t nfn_keys_;
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
/*
 * The same, the input named by its path (NULL: none, as an_strag_add), so
 * that its host is compared with the other hosts of its run.
 */
int an_strag_add_input(struct an_strag_result *r, const struct xp_trace *t, const struct an_exec_list *l,
		       const char *input, struct xp_err *err);
int an_strag_finish(struct an_strag_result *r, struct xp_err *err);
/* After finish: the host slowest in more than half of its host groups, else NULL. */
const struct an_strag_host *an_strag_slowest_host(const struct an_strag_result *r);
void an_strag_release(struct an_strag_result *r);

#endif
