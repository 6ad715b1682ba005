/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Analyses described once, for whatever runs them over inputs (the command
 * driver, later the library's face): what each reads of a trace, as data
 * the reader takes, and its result's life: init, add, merge, finish, notes,
 * release. A result is `size` bytes the caller provides; it owns what it
 * holds until release.
 */
#ifndef AN_ANALYSIS_H
#define AN_ANALYSIS_H

#include <stddef.h>
#include <stdint.h>

#include "xp_err.h"
#include "xp_model.h"

/* How an input is read for an analysis. */
enum an_read {
	AN_READ_TRACE,		/* every plane, at once */
	AN_READ_HOST,		/* only the host planes ("/host:..."); the others keep their names */
	AN_READ_KERNELS,	/* the GPU stream lines, or a run summary's kernels section */
	AN_READ_OPS,		/* the lines an_ops_add uses, or a run summary's ops section */
	AN_READ_EXECS,		/* executions (an_exec_find): device work lazily, host planes for linkage */
};

/* What an analysis reads of a trace (xp_read_opts takes these). */
struct an_read_profile {
	enum an_read how;
	uint32_t keys;		/* key stats it uses off the host planes (0: all) */
	uint32_t host_keys;	/* key stats it uses on the host planes */
	int (*want_host_event)(const char *name);	/* host events kept besides those keys mark */
	enum xp_event_stats event_stats;	/* an event's own stats kept */
	/*
	 * Each plane analysed on the thread that read it, with the analysis's
	 * options as ctx (xp_read_opts.plane_read, plane_user_free), its events
	 * then freed with release_events; NULL: the whole trace is analysed.
	 */
	int (*plane_read)(struct xp_plane *p, void *ctx, struct xp_err *err);
	void (*plane_user_free)(void *user);
	int release_events;
	/*
	 * A trace with no device plane gets XLA:CPU's work on its host as a
	 * device plane (an_cpu.h), read again for it where the first read
	 * left out what it needs.
	 */
	int cpu_device;
};

struct an_analysis {
	const char *name;
	struct an_read_profile read;
	size_t size;		/* a result's bytes */
	/* Readies a result with the analysis's options (struct an_<x>_opts; NULL where it has none). */
	void (*init)(void *r, const void *opts);
	/*
	 * Adds one input's trace, read as `read` says (input names it in
	 * messages), to an input's own result; NULL where the caller adds the
	 * input itself. 0 or an xp_errcode.
	 */
	int (*add)(void *r, struct xp_trace *t, const char *input, struct xp_err *err);
	/*
	 * What a reader should know of one input's result r before it is
	 * merged (path names it; several: it is one of several inputs), added
	 * to n. NULL: nothing. 0 or XP_ERR_NOMEM.
	 */
	int (*input_notes)(const void *r, const char *path, int several, struct xp_notes *n);
	/* Moves src into dst, in input order (src left to release); NULL: results are not pooled. */
	int (*merge)(void *dst, void *src, struct xp_err *err);
	/* After the last input (NULL: nothing to do). 0 or an xp_errcode. */
	int (*finish)(void *r, struct xp_err *err);
	/* Warnings about the result (several: of several inputs), added to n (NULL: none). 0 or XP_ERR_NOMEM. */
	int (*notes)(const void *r, int several, struct xp_notes *n);
	void (*release)(void *r);
};

/* What finding executions reads (functions, autotune, diff, summaries). */
extern const struct an_read_profile an_exec_read_profile;

extern const struct an_analysis an_functions_analysis;
extern const struct an_analysis an_autotune_analysis;
extern const struct an_analysis an_kernels_analysis;
extern const struct an_analysis an_ops_analysis;
extern const struct an_analysis an_memory_analysis;
extern const struct an_analysis an_compile_analysis;
extern const struct an_analysis an_overview_analysis;
extern const struct an_analysis an_events_analysis;
extern const struct an_analysis an_counters_analysis;

#endif
