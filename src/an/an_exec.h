/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Function executions: one call of a jitted function on one device plane.
 *
 * A plane with an "XLA Modules" line (TPU): each event there is one execution.
 * Otherwise (GPU: "Stream #N(...)" lines) device events that carry an
 * hlo_module stat belong to that function; they are split into executions by
 * the host executor event that launched them (through correlation_id: an
 * executor is any of an_executor_forms) when the file has that linkage, else
 * by runs of consecutive events (in start order, across streams) of the same
 * function, a run split further where its calls show (see an_device.runs_*).
 */
#ifndef AN_EXEC_H
#define AN_EXEC_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>

#include "an_device.h"
#include "an_link.h"
#include "xp_model.h"

struct an_exec_opts {
	const char *device;		/* --device pattern; NULL: every device plane */
	/*
	 * --children: time = union of the plane's events inside the execution's
	 * span whose name matches; an XLA Modules event is not its own child.
	 */
	const regex_t *children;
	int64_t min_dur_ps;		/* device events shorter than this are dropped */
};

enum an_split {
	AN_SPLIT_MODULE_LINE,	/* one event on an XLA Modules line */
	AN_SPLIT_HOST,		/* grouped by the launching host executor event */
	AN_SPLIT_RUNS,		/* a run of consecutive events of one function */
	AN_SPLIT_SCOPE,		/* sharing the root of their scope_range_ids (an_scope_tree) */
};

struct an_exec {
	uint32_t device;	/* index into list->devices */
	const char *name;	/* function name, fingerprint removed */
	const char *fingerprint;	/* the "(digits)" suffix's digits, or NULL */
	uint64_t program_id;
	int has_program_id;	/* program_id stat, else the fingerprint */
	uint64_t run_id;
	int has_run_id;
	enum an_split split;
	int64_t start_ps;	/* relative to the plane's base */
	int64_t busy_ps;	/* union of its device intervals */
	int64_t span_ps;	/* first start to last end */
	int64_t children_ps;	/* with --children: union of matching contained events */
	uint32_t events;
};

struct an_device {
	uint32_t plane;		/* index into the trace's planes */
	const char *name;	/* plane name */
	size_t repeats;		/* later planes of this name in the trace (merged dumps): left out */
	int64_t busy_ps;	/* union of all its device events */
	size_t events;		/* device events considered */
	size_t dropped_short;	/* dropped by min_dur_ps */
	/*
	 * Stray ends (xp_stray.h) left out: among the device lines' events, and
	 * with --children among the whole plane's (children are looked for there).
	 */
	size_t stray_events, stray_children;
	size_t unattributed_events;	/* device events with no function */
	int64_t unattributed_busy_ps;	/* the union of their intervals */
	/* "XLA Modules" lines after the first (only the first is used), their events */
	size_t extra_module_lines, extra_module_events;
	int module_line;	/* its executions are the events of an XLA Modules line */
	/*
	 * Stats on device events that give no value, treated as absent: indexed
	 * by key, an hlo_module that is not a string, a program_id neither an
	 * integer nor a string of digits, a correlation_id not an integer.
	 */
	size_t odd_stats[XP_KEY_COUNT];
	/* hlo_module stats whose ref_value names stat metadata the file lacks */
	size_t module_ref_nowhere;
	/*
	 * Function events with a correlation_id, and how many of them host
	 * linkage grouped. The others joined runs, counted by why: no host
	 * launch has the id; the launch lies in no executor event of the
	 * function; the id repeats and neither the device's launching threads
	 * nor time choose one launch. host_linkage says why none could be linked
	 * (enum an_link).
	 */
	size_t corr_events, linked_events;
	size_t corr_no_launch, corr_no_executor, corr_ambiguous;
	int host_linkage;
	/*
	 * The runs rule: the executions it formed (splits included); how many of
	 * those were split out of a run whose event names repeat with a period
	 * whose boundaries leave gaps longer than any inside it (calls back to
	 * back); runs left whole although their names repeat (no such gap).
	 */
	size_t runs_execs, runs_split, runs_repeating;
	/*
	 * Function events grouped by the root of their scope_range_id
	 * (an_scope_tree); device events whose id had none there; function
	 * events whose root another function's events had taken (grouped by
	 * the other rules)
	 */
	size_t scope_events, scope_no_root, scope_shared_root;
};

enum an_link {
	AN_LINK_OK = 0,
	AN_LINK_NO_HOST_PLANE,
	AN_LINK_NO_LAUNCHES,		/* no host event has a correlation_id */
	AN_LINK_NO_EXECUTORS,		/* no host event is an executor */
	AN_LINK_NO_LAUNCHES_NO_EXECUTORS,
};

/* Owns its arrays and strings (copied out of the trace): free with an_exec_list_release. */
struct an_exec_list {
	struct xp_arena arena;
	struct an_exec *execs;
	size_t n, cap;
	struct an_device *devices;
	size_t ndevices;
	const char *hostname;	/* XSpace hostnames[0] or "" */
	/*
	 * TPU SparseCore planes left out: their module executions run beside
	 * the TensorCore's, parts of its, not executions of their own.
	 */
	size_t sparsecore_planes;
	/* the scope tree's edges of an id seen before (an_scope_tree.repeated): left out */
	size_t scope_edges_repeated;
};

/*
 * Finds executions on the device planes of t that opts selects. Reads the
 * planes it needs that the reader deferred (lazy planes), hence t is not const.
 * On failure out holds nothing (releasing it again is harmless).
 */
int an_exec_find(struct xp_trace *t, const struct an_exec_opts *opts,
		 struct an_exec_list *out, struct xp_err *err);
void an_exec_list_release(struct an_exec_list *l);
/*
 * A 64-bit digest of what a run measured: each device's name and each
 * execution (device, function, program, times, events; not its start, which
 * summaries do not keep) in order.
 * Copies of one profile, or a profile and its summary, give the same digest;
 * two real runs differ in their picoseconds.
 */
uint64_t an_exec_list_digest(const struct an_exec_list *l);

/* For xp_read_opts.want_plane: device planes matching the --device pattern ctx (or any). */
int an_exec_wants_plane(const char *name, void *device_pattern);
/*
 * For xp_read_opts.want_lines: on the device planes an_exec_wants_plane takes,
 * only the lines an_device_lines names (what an_exec_find reads without
 * --children), and any further "XLA Modules" line, whose events an_exec_find
 * counts as not used.
 */
void an_exec_want_lines(const char *plane, const char *const *names, size_t n,
			unsigned char *want, void *device_pattern);
/* The key stats an_exec_find reads on device and host planes (xp_read_opts.keys). */
#define AN_EXEC_KEYS                                                                     \
	(1u << XP_K_HLO_MODULE | 1u << XP_K_PROGRAM_ID | 1u << XP_K_RUN_ID |            \
	 1u << XP_K_CORRELATION_ID | 1u << XP_K_MODULE_NAME | 1u << XP_K_SCOPE_RANGE_ID)

/*
 * XLA's tree of annotation scopes (the plane "/host:__ScopeRangeCallStack__"
 * of NVIDIA JAX dumps): each plane stat maps a scope range id (its
 * metadata_id) to its parent's (its value). A GPU kernel's scope_range_id
 * names the scope of its thunk's call; the root above it, the scope of its
 * module's execution: kernels of one root are one execution.
 */
struct an_scope_edge {
	uint64_t id, parent;
};
struct an_scope_tree {
	struct an_scope_edge *e;	/* sorted by id, each id once (its first edge) */
	size_t n;
	uint64_t *parents;		/* the parents named, sorted, each once: an id only here is a root */
	size_t nparents;
	size_t repeated;		/* edges of an id seen before: left out */
};
#define AN_SCOPE_TREE_PLANE "/host:__ScopeRangeCallStack__"
#define AN_SCOPE_RANGE_MAX_CLIMB 64
/* The tree of plane p (its stats; none is an empty tree). 0, or XP_ERR_NOMEM. */
int an_scope_tree_build(const struct xp_plane *p, struct an_scope_tree *t);
/*
 * The root above id (id itself when it is a parent with none above it): 1
 * and *root, or 0 when id is not in the tree or no root lies within
 * AN_SCOPE_RANGE_MAX_CLIMB steps (a cycle).
 */
int an_scope_tree_root(const struct an_scope_tree *t, uint64_t id, uint64_t *root);
void an_scope_tree_release(struct an_scope_tree *t);
/* The key stats host linkage reads on host events (xp_read_opts.host_keys). */
#define AN_EXEC_HOST_KEYS (1u << XP_K_CORRELATION_ID | 1u << XP_K_MODULE_NAME)
/* A program_id stat's value: an integer, or a string of at most 19 digits. 0, or -1 for anything else. */
int an_stat_program_id(const struct xp_plane *p, const struct xp_stat *s, uint64_t *out);
/*
 * Splits "name(123)" into name and digits, both copied into a (the name is
 * copied without a suffix too); *fp is NULL when there is no such suffix.
 * NULL when out of memory.
 */
const char *an_split_fingerprint(struct xp_arena *a, const char *name, const char **fp);

#endif
